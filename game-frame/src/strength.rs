//! Strength levels for players: [`Level`] 1 (a beginner's opponent) to [`LEVELS`] (the full
//! engine), as play sites offer them (lichess's eight levels on Stockfish). Below the top a
//! level caps the search (depth and nodes), may leave out the threat searches a person would
//! not see (gomoku's VCF, connect6's threat-space search), and plays one of several principal
//! variations with a weakness-scaled random choice ([`game_core::skill::Skill`]): plausible
//! mistakes, not random moves. Each game maps levels to its engine's settings
//! ([`Rules::level_settings`](crate::Rules::level_settings)); the Elo of every level is
//! measured by a ladder of matches (docs/strength-levels.md).

use std::fmt;
use std::str::FromStr;

use game_core::Score;
use game_core::skill::{MAX_WEAKNESS, Skill};
use thiserror::Error;

/// The number of levels; the top level is the full engine.
pub const LEVELS: u8 = 8;

/// The deepest iteration of levels 1 to 7 (plies; connect6 counts turns its own way).
pub const LEVEL_DEPTH: [u32; LEVELS as usize - 1] = [1, 1, 2, 3, 4, 5, 6];

/// The most nodes of levels 1 to 7.
pub const LEVEL_NODES: [u64; LEVELS as usize - 1] =
    [1_000, 2_000, 8_000, 32_000, 128_000, 512_000, 2_000_000];

/// The weakness of the choice among lines of levels 1 to 7 (0..=[`MAX_WEAKNESS`]).
pub const LEVEL_WEAKNESS: [i32; LEVELS as usize - 1] = [MAX_WEAKNESS, 60, 100, 85, 70, 50, 30];

/// A strength level, 1..=[`LEVELS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level out of range or not a number.
#[derive(Debug, Error, PartialEq, Eq)]
#[error("bad level '{0}': expected a whole number from 1 (weakest) to 8 (the full engine)")]
pub struct LevelError(pub String);

impl Level {
    /// The full engine.
    pub const FULL: Level = Level(LEVELS);

    /// Level `n`.
    ///
    /// # Errors
    /// [`LevelError`] unless `1 <= n <= LEVELS`.
    pub fn new(n: u8) -> Result<Level, LevelError> {
        if (1..=LEVELS).contains(&n) {
            Ok(Level(n))
        } else {
            Err(LevelError(n.to_string()))
        }
    }

    /// The level's number.
    #[must_use]
    pub fn get(self) -> u8 {
        self.0
    }

    /// Whether this is the full engine.
    #[must_use]
    pub fn is_full(self) -> bool {
        self.0 == LEVELS
    }

    /// The weakness of the choice among lines at this level ([`LEVEL_WEAKNESS`]; 0 at the
    /// top).
    #[must_use]
    pub fn weakness(self) -> i32 {
        if self.is_full() {
            0
        } else {
            LEVEL_WEAKNESS[usize::from(self.0 - 1)]
        }
    }
}

impl FromStr for Level {
    type Err = LevelError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.trim()
            .parse::<u8>()
            .ok()
            .and_then(|n| Level::new(n).ok())
            .ok_or_else(|| LevelError(text.to_string()))
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The Elo of each level (index `level - 1`) on a scale where level 1 is 800, chained from
/// the xiangqi ladder of matches between neighbouring levels (40 games a pair at 100 ms a
/// move, docs/strength-levels.md; steps of 203 to 382, each ±100 to ±300 at 95 %): what
/// UCI's and UCCI's `UCI_Elo` asks for. Rounded to tens.
pub const LEVEL_ELO: [i32; LEVELS as usize] = [800, 1070, 1270, 1630, 2010, 2280, 2640, 2880];

impl Level {
    /// The level whose measured Elo ([`LEVEL_ELO`]) is nearest to `elo` (clamped to the
    /// table's range).
    #[must_use]
    pub fn from_elo(elo: i32) -> Level {
        let i = LEVEL_ELO
            .iter()
            .enumerate()
            .min_by_key(|&(_, &e)| (e - elo).abs())
            .map_or(0, |(i, _)| i);
        Level(i as u8 + 1)
    }

    /// This level's measured Elo ([`LEVEL_ELO`]).
    #[must_use]
    pub fn elo(self) -> i32 {
        LEVEL_ELO[usize::from(self.0 - 1)]
    }

    /// A seed for a level's choices from the clock, for front ends and protocols that take
    /// none (a new game, new choices).
    #[must_use]
    pub fn clock_seed() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }
}

/// A level chosen for a game: the level and the seed of its choices (a fixed seed repeats a
/// game's choices; front ends draw one per game).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelPick {
    /// The level.
    pub level: Level,
    /// The seed of the level's random choices.
    pub seed: u64,
}

impl LevelPick {
    /// `level` with a seed from the clock ([`Level::clock_seed`]), as a GUI's or a page's
    /// strength setting reaches an engine; `None` for the full engine.
    #[must_use]
    pub fn fresh(level: Level) -> Option<LevelPick> {
        (!level.is_full()).then(|| LevelPick {
            level,
            seed: Level::clock_seed(),
        })
    }
}

/// What a level means for one game's engine (every `None` leaves the budget's own limit).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// The deepest iteration (the game's depth unit: plies, connect6 turns).
    pub depth: Option<u32>,
    /// The most nodes.
    pub nodes: Option<u64>,
    /// The choice among principal variations, or `None` for the best line.
    pub skill: Option<Skill>,
    /// Whether the game's threat searches (VCF, VCT, threat-space search) run.
    pub threat_search: bool,
    /// The longest threat sequence they look for (the game's unit: connect6 turns), or
    /// `None` for the engine's own; games without such a limit ignore it.
    pub threat_depth: Option<u32>,
}

impl LevelSettings {
    /// The full engine: no cap, the best line, every search.
    pub const FULL: LevelSettings = LevelSettings {
        depth: None,
        nodes: None,
        skill: None,
        threat_search: true,
        threat_depth: None,
    };

    /// The settings most games share, for a game whose evaluation `unit` is its "pawn" (the
    /// largest random push, see [`Skill::unit`]): levels 1 to 7 search at most
    /// [`LEVEL_DEPTH`] plies and [`LEVEL_NODES`] nodes, choose among 4 lines with
    /// [`LEVEL_WEAKNESS`], and run the threat searches from level 5 on. Depth dominates at
    /// the bottom (xiangqi at depths 1, 2, 3 and 4 one level apart: more than 500, 300 and
    /// 300 Elo a step; the weaker choice closes part of the gaps, see
    /// docs/strength-levels.md).
    #[must_use]
    pub fn standard(pick: LevelPick, unit: Score) -> LevelSettings {
        let level = pick.level;
        if level.is_full() {
            return LevelSettings::FULL;
        }
        let i = usize::from(level.get() - 1);
        LevelSettings {
            depth: Some(LEVEL_DEPTH[i]),
            nodes: Some(LEVEL_NODES[i]),
            skill: Some(Skill {
                multipv: 4,
                weakness: level.weakness(),
                unit,
                seed: pick.seed,
            }),
            threat_search: level.get() >= 5,
            threat_depth: None,
        }
    }

    /// `limit` capped by this level's `cap` (the smaller of the two; either alone).
    #[must_use]
    pub fn cap<T: Ord + Copy>(limit: Option<T>, cap: Option<T>) -> Option<T> {
        match (limit, cap) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_map_to_settings() {
        assert_eq!("3".parse::<Level>(), Ok(Level(3)));
        assert_eq!(" 8 ".parse::<Level>(), Ok(Level::FULL));
        for bad in ["0", "9", "-1", "x", "", "2.5", "256"] {
            assert_eq!(
                bad.parse::<Level>(),
                Err(LevelError(bad.to_string())),
                "{bad}"
            );
        }
        let pick = |n| LevelPick {
            level: Level::new(n).unwrap(),
            seed: 5,
        };
        assert_eq!(LevelSettings::standard(pick(8), 100), LevelSettings::FULL);
        let one = LevelSettings::standard(pick(1), 100);
        assert_eq!((one.depth, one.nodes), (Some(1), Some(1000)));
        assert_eq!(one.skill.unwrap().weakness, MAX_WEAKNESS);
        assert!(!one.threat_search);
        let seven = LevelSettings::standard(pick(7), 100);
        assert_eq!((seven.depth, seven.nodes), (Some(6), Some(2_000_000)));
        assert_eq!(seven.skill.unwrap().weakness, 30);
        assert!(seven.threat_search);
        // Stronger a level: never shallower, never fewer nodes.
        assert!(LEVEL_DEPTH.windows(2).all(|w| w[0] <= w[1]));
        assert!(LEVEL_NODES.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(LevelSettings::cap(Some(5), Some(3)), Some(3));
        assert_eq!(LevelSettings::cap(None, Some(3)), Some(3));
        assert_eq!(LevelSettings::cap(Some(5), None::<u32>), Some(5));
    }
}
