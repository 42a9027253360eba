//! Connect6 in the game frame: [`Rules`] for [`Connect6`] and the registry entry
//! [`CONNECT6`].

use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;

use game_core::search::PvLine;
use game_core::zobrist::SplitMix64;
use game_core::{Position, Side};
use game_frame::selfplay::{self, Settings, Summary};
use game_frame::{
    BoardView, Budget, Decision, Ending, EngineConfig, FrameError, Game, GameSpec, LevelPick,
    LevelSettings, Opening, Progress, Protocol, Rules, Session, Setup, quoted, split_turns, stone,
    tuning,
};

use crate::board::{Cell, Connect6, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, MoveError, Stone};
use crate::engine::{Engine, EngineLimits, TSS_TURNS};
use crate::notation::{Point, format_connectmore, parse_littlegolem};

/// Connect6's deepest iteration of levels 1 to 7, in turns.
pub const LEVEL_DEPTH: [u32; 7] = [1, 1, 2, 2, 2, 2, 3];

/// Connect6's weakness of levels 1 to 7 (see [`LEVEL_DEPTH`]).
pub const LEVEL_WEAKNESS: [i32; 7] = [120, 80, 90, 50, 30, 20, 10];

/// The longest threat sequence levels 1 to 7 look for, in turns (0: no threat-space
/// search). The threat search is the step that matters most in connect6 (a level with a
/// small threat search beats one without nearly always: docs/strength-levels.md), so the
/// levels see longer threat wins one by one.
pub const LEVEL_THREAT_TURNS: [u32; 7] = [0, 1, 2, 3, 4, 6, 8];

fn usage(msg: impl Into<String>) -> FrameError {
    FrameError::Usage(msg.into())
}

/// The registered connect6 game.
pub struct Connect6Spec;

/// Connect6: six in a row, two stones a turn, 19x19 by default.
pub static CONNECT6: Connect6Spec = Connect6Spec;

impl Connect6Spec {
    /// The start position from the setup (setup stones; the moves are played later).
    fn start(args: &Setup) -> Result<Connect6, FrameError> {
        if args.fen.is_some() {
            return Err(usage(
                "--fen is for xiangqi; connect6 positions use --moves or --black/--white stones",
            ));
        }
        if args.rule.is_some() {
            return Err(usage(
                "--rule is for gomoku; connect6 has one rule (six or more in a row wins)",
            ));
        }
        if args.no_capture_plies.is_some() {
            return Err(usage(
                "--no-capture-plies is for xiangqi (the stone games capture nothing)",
            ));
        }
        let size = args.size.unwrap_or(DEFAULT_SIZE);
        let empty = Connect6::new(size).map_err(|e| usage(format!("--size: {e}")))?;
        if args.to_move.is_some() && args.black.is_none() && args.white.is_none() {
            return Err(usage(
                "--to-move is the side to move of a stone setup (--black/--white stones); \
                 from the empty board or after --moves the side to move follows from the moves",
            ));
        }
        if args.black.is_none() && args.white.is_none() && args.to_move.is_none() {
            return Ok(empty);
        }
        let stones = |flag: &str, text: &Option<String>| -> Result<Vec<Point>, FrameError> {
            match text.as_deref().map(str::trim) {
                None | Some("") => Ok(Vec::new()),
                Some(t) => parse_littlegolem(t, size).map_err(|e| usage(format!("--{flag}: {e}"))),
            }
        };
        let black = stones("black", &args.black)?;
        let white = stones("white", &args.white)?;
        let to_move = match args.to_move.as_deref() {
            Some(text) => game_frame::stone_side(text).map_err(usage)?,
            None => Connect6::side_from_counts(black.len(), white.len()).ok_or_else(|| {
                usage(format!(
                    "cannot tell the side to move from {} black and {} white stones (at the \
                     start of a turn Black has an odd number of stones, one more or one fewer \
                     than White): give --to-move black|white",
                    black.len(),
                    white.len()
                ))
            })?,
        };
        Connect6::from_stones(size, &black, &white, to_move)
            .map_err(|e| usage(format!("--black/--white: {e}")))
    }

    /// The game from the setup: its start, then its moves.
    fn session(args: &Setup, config: &EngineConfig) -> Result<Session<Connect6>, FrameError> {
        let mut game = Session::new(Self::start(args)?, config);
        if let Some(m) = &args.moves {
            // Each word is one whole turn (`j10 j9l11 k10k11`); only the last may be the first
            // stone of a turn, for a position in the middle of one.
            let words = split_turns(m);
            for (i, &word) in words.iter().enumerate() {
                let side = game.position().to_move();
                game.play_text(word)
                    .map_err(|e| usage(format!("--moves: move {}: {}", i + 1, quoted(word, &e))))?;
                let pos = game.position();
                if i + 1 < words.len() && pos.game_end().is_none() && pos.to_move() == side {
                    return Err(usage(format!(
                        "--moves: move {}: '{word}' is one stone of {}'s two-stone turn: write \
                         a turn's stones together, like j9l11 (only the last word may be a \
                         single stone, for a position in the middle of a turn)",
                        i + 1,
                        crate::side_name(side)
                    )));
                }
            }
        }
        Ok(game)
    }
}

fn serve_connectmore(
    input: Box<dyn BufRead + '_>,
    output: Box<dyn Write + Send>,
) -> io::Result<()> {
    crate::protocol::connectmore::run(input, output)
}

impl GameSpec for Connect6Spec {
    fn name(&self) -> &'static str {
        "connect6"
    }

    fn summary(&self) -> &'static str {
        "Six in a row, two stones per turn, boards 7x7 to 25x25 (default 19x19)"
    }

    fn sizes(&self) -> Option<(RangeInclusive<usize>, usize)> {
        Some((MIN_SIZE..=MAX_SIZE, DEFAULT_SIZE))
    }

    fn moves_example(&self) -> &'static str {
        "j10 j9l11"
    }

    fn record_names(&self) -> &'static [&'static str] {
        &["connect6"]
    }

    fn record_title(&self) -> &'static str {
        "Connect6"
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }

    fn stone_setups(&self) -> bool {
        true
    }

    fn build(&self, setup: &Setup, config: &EngineConfig) -> Result<Box<dyn Game>, FrameError> {
        Ok(Box::new(Self::session(setup, config)?))
    }

    fn perft(
        &self,
        setup: &Setup,
        depth: u32,
        divide: bool,
    ) -> Result<Vec<(String, u64)>, FrameError> {
        let mut pos = Self::session(setup, &EngineConfig::small())?
            .position()
            .clone();
        Ok(game_frame::perft(&mut pos, depth, divide))
    }

    fn bench(&self) -> (Vec<Setup>, u32) {
        (
            vec![
                Setup::moves("j10"),
                Setup::moves("j10 i9k11"),
                Setup::moves("j10 i9k11 j9j11"),
                Setup::moves("j10 k10k9 i9i11 h10l10"),
            ],
            4,
        )
    }

    fn random_plies(&self) -> usize {
        3
    }

    fn selfplay(
        &self,
        setup: &Setup,
        settings: &Settings,
        out: &mut (dyn Write + Send),
    ) -> Result<Summary, FrameError> {
        let start = Self::session(setup, &EngineConfig::small())?
            .position()
            .clone();
        selfplay::run(&start, settings, out)
    }

    fn tune(&self, settings: &tuning::Settings) -> Result<(), FrameError> {
        tuning::run::<Connect6>(settings)
    }

    fn protocols(&self) -> &'static [Protocol] {
        &[Protocol {
            command: "connect6-engine",
            serve: serve_connectmore,
            level_line: |l| format!("level {l}"),
        }]
    }

    fn referee_protocols(&self) -> &'static [&'static str] {
        &["connectmore"]
    }

    /// A LittleGolem move list (`j10 j9l11`) of whole turns.
    fn opening(&self, line: &str, base: &Setup) -> Result<Opening, FrameError> {
        let setup = Setup {
            moves: Some(line.to_string()),
            ..base.clone()
        };
        let game = Self::session(&setup, &EngineConfig::small())?;
        let pos = game.position();
        if pos.stones_left() == 1 && !pos.history().is_empty() {
            return Err(usage("the opening ends in the middle of a turn"));
        }
        Ok(Opening {
            setup,
            label: line.to_string(),
        })
    }

    /// Black's first stone within 1 point of the centre and White's two stones within 2.
    fn random_opening(&self, base: &Setup, seed: u64) -> Opening {
        let mut rng = SplitMix64::new(seed);
        let mut next = |n: usize| -> usize {
            let (v, r) = rng.next();
            rng = r;
            (v % n as u64) as usize
        };
        let c = base.size.unwrap_or(DEFAULT_SIZE) / 2;
        loop {
            let mut pick = |r: usize| {
                Point::new(
                    (c - r + next(2 * r + 1)) as u8,
                    (c - r + next(2 * r + 1)) as u8,
                )
            };
            let first = pick(1);
            let (a, b) = (pick(2), pick(2));
            if a == b || a == first || b == first {
                continue;
            }
            let label = format!(
                "{} {}{}",
                first.to_littlegolem(),
                a.to_littlegolem(),
                b.to_littlegolem()
            );
            return Opening::moves(base, &label);
        }
    }
}

impl Rules for Connect6 {
    type Engine = Engine;

    fn new_engine(config: &EngineConfig) -> Engine {
        let mut engine = Engine::new(config.hash_mib);
        engine.set_threads(config.threads);
        engine
    }

    fn think(
        engine: &mut Engine,
        position: &Self,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress<Stone>),
    ) -> Decision<Stone> {
        // A game clock: the turn gets connect6's share of it (the engine plans to use nearly
        // all of the time it is given, as over ConnectMore's `time`).
        let clock_time = budget.clock.as_ref().map(crate::time::turn_time);
        let mut limits = EngineLimits {
            depth: budget.depth,
            time: budget.time.or(clock_time),
            nodes: budget.nodes,
        };
        let settings = budget.level.map(Self::level_settings);
        if let Some(s) = &settings {
            limits.depth = LevelSettings::cap(limits.depth, s.depth);
            limits.nodes = LevelSettings::cap(limits.nodes, s.nodes);
        }
        engine.set_skill(settings.and_then(|s| s.skill));
        engine.set_threat_search(settings.is_none_or(|s| s.threat_search));
        engine.set_threat_turns(settings.and_then(|s| s.threat_depth).unwrap_or(TSS_TURNS));
        engine.set_multipv(budget.multipv);
        let stones = |points: &[Point]| -> Vec<Stone> {
            points
                .iter()
                .filter_map(|&p| position.stone_at(p))
                .collect()
        };
        let analysis = engine.think_stoppable(position, &limits, stop, |a| {
            progress(&Progress {
                depth: a.depth,
                score: a.score,
                nodes: a.nodes,
                time_ms: a.time.as_millis() as u64,
                pv: stones(&a.pv),
            });
        });
        match analysis {
            Some(a) => Decision {
                turn: stones(&a.turn),
                score: a.score,
                depth: a.depth,
                nodes: a.nodes,
                time_ms: a.time.as_millis() as u64,
                pv: stones(&a.pv),
                lines: a
                    .lines
                    .iter()
                    .map(|l| PvLine {
                        score: l.score,
                        pv: stones(&l.pv),
                    })
                    .collect(),
                reason: a.decision.reason().map(str::to_string),
            },
            None => Decision {
                turn: Vec::new(),
                score: 0,
                depth: 0,
                nodes: 0,
                time_ms: 0,
                pv: Vec::new(),
                lines: Vec::new(),
                reason: None,
            },
        }
    }

    /// Connect6 levels: [`LevelSettings::standard`] (unit 100) with connect6's own depths in
    /// turns, weaknesses and threat-space search ([`LEVEL_DEPTH`], [`LEVEL_WEAKNESS`],
    /// [`LEVEL_THREAT_TURNS`]); the threat search's budget is a quarter of the level's nodes.
    fn level_settings(pick: LevelPick) -> LevelSettings {
        let mut settings = LevelSettings::standard(pick, 100);
        if !pick.level.is_full() {
            let i = usize::from(pick.level.get() - 1);
            settings.depth = Some(LEVEL_DEPTH[i]);
            settings.threat_search = LEVEL_THREAT_TURNS[i] > 0;
            settings.threat_depth = Some(LEVEL_THREAT_TURNS[i]).filter(|&t| t > 0);
            if let Some(skill) = settings.skill.as_mut() {
                skill.weakness = LEVEL_WEAKNESS[i];
            }
        }
        settings
    }

    fn game_name(&self) -> &'static str {
        "connect6"
    }

    fn record_game(&self) -> &'static str {
        "Connect6"
    }

    fn move_help(&self) -> String {
        "two points: j9 l11 or j9l11 (Black's first turn is one point, j10)".to_string()
    }

    fn side_name(side: Side) -> &'static str {
        crate::side_name(side)
    }

    fn ending(&self) -> Option<Ending> {
        self.game_end().map(|(outcome, reason)| Ending {
            outcome,
            reason: reason.to_string(),
        })
    }

    /// The stones, the last turn's marked, and how many stones the side to move places.
    fn board(&self, last: &[Stone]) -> BoardView {
        let size = self.size();
        let mut view = BoardView::lettered(size);
        for row in 0..size {
            for x in 0..size {
                let piece = match self.cell(Point::new(x as u8, (size - 1 - row) as u8)) {
                    Some(Cell::Black) => Some(stone(Side::First)),
                    Some(Cell::White) => Some(stone(Side::Second)),
                    _ => None,
                };
                view.set((x, row), piece);
            }
        }
        view.last = last
            .iter()
            .map(|s| {
                let p = s.point(size);
                (p.x as usize, size - 1 - p.y as usize)
            })
            .collect();
        if self.game_end().is_none() {
            let n = self.stones_left();
            view.notes.push(format!(
                "{} places {} stone{} this turn.",
                crate::side_name(self.to_move()),
                n,
                if n == 1 { "" } else { "s" }
            ));
        } else {
            view.mark_winning_line(6, false);
        }
        view
    }

    /// A whole turn (`j9l11`, `j9 l11`, ConnectMore `JKKJ`) or its first stone.
    fn parse_turn(&self, text: &str) -> Result<Vec<Stone>, String> {
        match Connect6::parse_turn(self, text) {
            Ok(points) => Ok(points.iter().filter_map(|&p| self.stone_at(p)).collect()),
            Err(MoveError::WrongStoneCount {
                expected: 2,
                found: 1,
                ..
            }) => self
                .parse_move(text)
                .map(|s| vec![s])
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }

    /// ConnectMore letters (`JJ`: column, then row from the top).
    fn protocol_move(&self, mv: Stone, notation: &str) -> Option<String> {
        (notation == "connectmore").then(|| format_connectmore(&[mv.point(self.size())]))
    }

    /// Own turns to the forced result: a connect6 turn is two stones (the first may be one).
    fn mate_moves(&self, plies: i32) -> i32 {
        let k = i32::from(self.stones_left());
        if plies > 0 {
            if plies <= k {
                1
            } else {
                1 + (plies - k - 2 + 3) / 4
            }
        } else {
            let p = -plies;
            // The opponent's winning stone is ply p: how many of its turns that is.
            -(((p - k - 1).max(0)) / 4 + 1)
        }
    }

    fn tune_text(&self) -> Option<String> {
        Some(game_core::tune::Tunable::to_text(self))
    }

    fn start_tags(&self) -> Vec<(&'static str, String)> {
        let mut tags = vec![("Size", self.size().to_string())];
        let (black, white) = self.setup_stones();
        if !black.is_empty() || !white.is_empty() {
            let join = |ps: &[Point]| {
                ps.iter()
                    .map(|p| p.to_littlegolem())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            tags.push(("SetupBlack", join(black)));
            tags.push(("SetupWhite", join(white)));
            let side = if self.to_move() == Side::First {
                "black"
            } else {
                "white"
            };
            tags.push(("ToMove", side.to_string()));
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances_in_own_turns() {
        let mut pos = Connect6::standard();
        let centre = pos.stone_at(Point::new(9, 9)).unwrap();
        Position::play(&mut pos, centre);
        // White to move with two stones: winning with the 2nd stone is one turn; after
        // White's 2, Black's 2, White's 2 (6 plies) it is two turns.
        assert_eq!(pos.mate_moves(1), 1);
        assert_eq!(pos.mate_moves(2), 1);
        assert_eq!(pos.mate_moves(5), 2);
        assert_eq!(pos.mate_moves(6), 2);
        assert_eq!(pos.mate_moves(10), 3);
        // Losing: Black's six on ply 3 or 4 is after one White turn.
        assert_eq!(pos.mate_moves(-3), -1);
        assert_eq!(pos.mate_moves(-4), -1);
        assert_eq!(pos.mate_moves(-8), -2);
    }
}
