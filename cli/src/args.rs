//! Command-line options shared by the subcommands, and their parsers.

use std::time::Duration;

use clap::Args;

use game_frame::{Budget, EngineConfig, Level, LevelPick, Setup};

use crate::registry;

/// Where a game starts: the options `play`, `moves`, `analyze` and `perft` share.
#[derive(Args, Clone, Debug, Default)]
pub struct PositionArgs {
    /// Gomoku rule set (gomoku only; renju is always renju).
    #[arg(long, value_name = "RULE", value_parser = registry::rule_parser())]
    pub rule: Option<String>,
    /// Board size N (an N x N board); the help lists each game's sizes
    /// ([`registry::size_help`]).
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Xiangqi start position in FEN (`rnbakabnr/9/1c5c1/... w`).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves played from the start, in the game's notation; the help gives an example per
    /// game ([`registry::moves_help`]).
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Stone games: Black's stones for a setup (`"g10 h10 i10"`), or in `play` who plays
    /// Black: human or engine. Xiangqi `play`: who plays Black.
    #[arg(long, value_name = "STONES|PLAYER")]
    pub black: Option<String>,
    /// Stone games: White's stones for a setup (`"g11 j11"`), or in `play` who plays White:
    /// human or engine.
    #[arg(long, value_name = "STONES|PLAYER")]
    pub white: Option<String>,
    /// The side to move in a stone setup (default: from the stone counts).
    #[arg(long, value_name = "SIDE", value_parser = ["black", "white"])]
    pub to_move: Option<String>,
}

impl PositionArgs {
    /// The setup these options give.
    #[must_use]
    pub fn setup(&self) -> Setup {
        Setup {
            rule: self.rule.clone(),
            size: self.size,
            fen: self.fen.clone(),
            moves: self.moves.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            to_move: self.to_move.clone(),
            no_capture_plies: None,
        }
    }
}

/// The engine's limits and resources.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineArgs {
    /// Time per engine move: `5s`, `500ms`, `1.5s`, `2m` (a bare number is seconds).
    #[arg(long, value_name = "TIME", value_parser = parse_time, allow_hyphen_values = true)]
    pub time: Option<Duration>,
    /// Search depth limit (1..=100): plies, or turns for connect6's engine.
    #[arg(long, value_name = "D",
          value_parser = clap::value_parser!(u32).range(1..=i64::from(game_frame::MAX_DEPTH_LIMIT)))]
    pub depth: Option<u32>,
    /// Node limit per engine move.
    #[arg(long, value_name = "N", value_parser = parse_nodes)]
    pub nodes: Option<u64>,
    /// Search threads (1..=256, game_core::search::MAX_THREADS).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=game_core::search::MAX_THREADS as i64))]
    pub threads: u16,
    /// Transposition table size in MiB (1..=16384, game_core::search::MAX_HASH_MIB).
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(game_core::search::MIN_HASH_MIB as i64..=game_core::search::MAX_HASH_MIB as i64))]
    pub hash: u32,
    /// Strength level 1..=8: 1 is a beginner's opponent, 8 the full engine (the default).
    /// Below 8 the engine searches less (the level's depth and node caps override --depth
    /// and --nodes when smaller) and picks among its best few moves, making the mistakes of
    /// a weaker player. A hint in `play` always comes from the full engine.
    #[arg(long, value_name = "LEVEL", allow_hyphen_values = true)]
    pub level: Option<Level>,
    /// The seed of a level's choices: the same seed replays the same choices (default: a
    /// new one every run; without --level there is nothing to seed).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<u64>,
}

impl EngineArgs {
    /// The engine resources.
    #[must_use]
    pub fn config(&self) -> EngineConfig {
        EngineConfig {
            hash_mib: self.hash as usize,
            threads: usize::from(self.threads),
        }
    }

    /// The budget per move: the given limits, or `default_time` when none is given.
    #[must_use]
    pub fn budget(&self, default_time: Duration) -> Budget {
        let mut budget = Budget {
            depth: self.depth,
            time: self.time,
            nodes: self.nodes,
            level: self.level_pick(),
            ..Default::default()
        };
        if budget.depth.is_none() && budget.time.is_none() && budget.nodes.is_none() {
            budget.time = Some(default_time);
        }
        budget
    }

    /// The level with its seed (`--seed`, or one from the clock), or `None` for the full
    /// engine.
    #[must_use]
    pub fn level_pick(&self) -> Option<LevelPick> {
        let level = self.level.filter(|l| !l.is_full())?;
        let seed = self.seed.unwrap_or_else(Level::clock_seed);
        Some(LevelPick { level, seed })
    }

    /// The budget per move on a game clock: the given limits only (none: the clock alone).
    #[must_use]
    pub fn budget_on_clock(&self) -> Budget {
        Budget {
            depth: self.depth,
            time: self.time,
            nodes: self.nodes,
            level: self.level_pick(),
            ..Default::default()
        }
    }
}

pub use game_frame::clock::{parse_span, parse_time};

/// Parses a `--nodes` limit: a whole number, at least 1.
///
/// # Errors
/// A message saying what is expected.
pub fn parse_nodes(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("expected at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a whole number of nodes, at least 1 (at most {})",
            u64::MAX
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_frame::clock::TimeError;

    #[test]
    fn times() {
        assert_eq!(parse_time("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_time("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_time("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_time("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_time("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse_time("0ms"), Err(TimeError::Zero("0ms".to_string())));
        assert_eq!(parse_time("0"), Err(TimeError::Zero("0".to_string())));
        assert_eq!(
            parse_time("99999999999s"),
            Err(TimeError::TooLarge("99999999999s".to_string()))
        );
        assert_eq!(parse_nodes("0"), Err("expected at least 1".to_string()));
        assert_eq!(parse_nodes("7"), Ok(7));
        for (text, ms) in [
            ("5S", 5_000),
            (".5s", 500),
            ("1m30s", 90_000),
            ("1h", 3_600_000),
            ("1h 5m", 3_900_000),
            ("2 min", 120_000),
            ("5 seconds", 5_000),
            ("1MS", 1),
            ("1.5", 1_500),
        ] {
            assert_eq!(parse_time(text), Ok(Duration::from_millis(ms)), "{text}");
        }
        assert_eq!(
            parse_time("0.5ms"),
            Err(TimeError::BelowMillisecond("0.5ms".to_string()))
        );
        assert_eq!(parse_span("0s"), Ok(Duration::ZERO));
        assert_eq!(
            parse_time("25h"),
            Err(TimeError::TooLarge("25h".to_string()))
        );
        for bad in [
            "", "5x", "s", "-1s", "1.s", "5..s", "1e3s", "30s1m", "1s2s", "1m30", "5 s x",
            "1.2.3s", "+5s", "inf", "NaN",
        ] {
            assert_eq!(
                parse_time(bad),
                Err(TimeError::Unreadable(bad.to_string())),
                "{bad}"
            );
        }
    }
}
