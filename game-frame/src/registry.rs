//! What a registered game offers every generic tool ([`GameSpec`]): one value per game (or
//! per named variant, such as renju beside gomoku), listed once in the front end's registry.
//! `qi play`, `moves`, `analyze`, `perft`, `bench`, `selfplay`, `tune` and the protocol
//! commands find a game there by its name and use nothing else of it.

use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;

use game_core::Position;

use crate::config::EngineConfig;
use crate::error::FrameError;
use crate::rules::natural_key;
use crate::session::Game;
use crate::setup::{Opening, Setup};

/// A protocol loop: reads commands from the input until it ends or says quit, answering on
/// the output.
pub type ServeFn = for<'a> fn(Box<dyn BufRead + 'a>, Box<dyn Write + Send>) -> io::Result<()>;

/// An engine protocol a game serves on a reader and a writer (a GUI's pipes).
#[derive(Copy, Clone)]
pub struct Protocol {
    /// The `qi` command that serves it (`gomocup`, `ucci`, `uci`, `connect6-engine`).
    pub command: &'static str,
    /// The protocol loop.
    pub serve: ServeFn,
    /// The protocol's own line that sets a strength level (UCI `setoption name Level value
    /// N`, Gomocup `INFO level N`, ...): the engine command's `--level` flag sends it first,
    /// for GUIs that cannot set it.
    pub level_line: fn(crate::strength::Level) -> String,
}

/// A game as the registry lists it. Methods with a default are optional: a game that does
/// not tune its evaluation, or serves no protocol, leaves them out.
pub trait GameSpec: Sync {
    /// The command-line name (`gomoku`, `renju`, `connect6`, `xiangqi`, `connect4`).
    fn name(&self) -> &'static str;

    /// One line for the help's list of games.
    fn summary(&self) -> &'static str;

    /// The names of the first and the second side (`Black`, `White`; xiangqi `Red`, `Black`).
    fn side_names(&self) -> [&'static str; 2];

    /// Whether a position may be set up stone by stone (`--black`, `--white`, `--to-move`).
    fn stone_setups(&self) -> bool {
        false
    }

    /// The game a record of this one may also be loaded as (renju's is `gomoku`: a renju
    /// record loads under `qi play gomoku`); default its own name.
    fn family(&self) -> &'static str {
        self.name()
    }

    /// The game's name in a record's `[Game "..."]` tag, as messages list it (`Gomoku`,
    /// `Chinese Chess`).
    fn record_title(&self) -> &'static str;

    /// The values of a record's `[Game "..."]` tag this game reads, in lower case.
    fn record_names(&self) -> &'static [&'static str];

    /// The board sizes `--size` accepts, in points a side, and the default (`None`: the
    /// board has one size).
    fn sizes(&self) -> Option<(RangeInclusive<usize>, usize)> {
        None
    }

    /// A short `--moves` text in the game's notation, for the help (`h8g7f6`).
    fn moves_example(&self) -> &'static str;

    /// The rule sets `--rule` names for this game, with a line on each (none: the game has
    /// one rule set).
    fn rules(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }

    /// A game in progress from `setup` (its start, then its moves), with a fresh engine.
    ///
    /// # Errors
    /// [`FrameError::Usage`] for options that do not fit the game or do not read (a bad FEN,
    /// a point off the board, an illegal move in the move list), naming the option.
    fn build(&self, setup: &Setup, config: &EngineConfig) -> Result<Box<dyn Game>, FrameError>;

    /// The leaf counts of the legal move tree `depth` plies below `setup`: one entry per root
    /// move in notation when `divide`, else one entry `("", total)`.
    ///
    /// # Errors
    /// As [`GameSpec::build`].
    fn perft(
        &self,
        setup: &Setup,
        depth: u32,
        divide: bool,
    ) -> Result<Vec<(String, u64)>, FrameError>;

    /// The positions of `qi bench` and their fixed depth.
    fn bench(&self) -> (Vec<Setup>, u32);

    /// Whether `qi bench` with no game named includes this one (one entry per game crate, so
    /// the total node signature stays comparable).
    fn in_default_bench(&self) -> bool {
        true
    }

    /// Random plies a self-play game starts with by default.
    fn random_plies(&self) -> usize {
        4
    }

    /// Self-play from `setup`, writing tuning data to `out` ([`crate::selfplay::run`]).
    ///
    /// # Errors
    /// As [`GameSpec::build`]; [`FrameError::Usage`] when the game has no tunable evaluation.
    fn selfplay(
        &self,
        _setup: &Setup,
        _settings: &crate::selfplay::Settings,
        _out: &mut (dyn Write + Send),
    ) -> Result<crate::selfplay::Summary, FrameError> {
        Err(FrameError::usage(format!(
            "{} has no tunable evaluation: selfplay writes tuning data for the games that do",
            self.name()
        )))
    }

    /// Fits the evaluation's weights to self-play data ([`crate::tuning::run`]).
    ///
    /// # Errors
    /// [`FrameError::Usage`] for bad data or a game without a tunable evaluation;
    /// [`FrameError::Failed`] when the output cannot be written.
    fn tune(&self, _settings: &crate::tuning::Settings) -> Result<(), FrameError> {
        Err(FrameError::usage(format!(
            "{} has no tunable evaluation",
            self.name()
        )))
    }

    /// Fits the move-ordering weights to the moves played in the data
    /// ([`crate::tuning::run_policy`]).
    ///
    /// # Errors
    /// [`FrameError::Usage`] for bad data or a game whose move ordering has no weights;
    /// [`FrameError::Failed`] when the output cannot be written.
    fn tune_policy(&self, _settings: &crate::tuning::Settings) -> Result<(), FrameError> {
        Err(FrameError::usage(format!(
            "{} has no tunable move ordering (try without --policy)",
            self.name()
        )))
    }

    /// The engine protocols the game serves.
    fn protocols(&self) -> &'static [Protocol] {
        &[]
    }

    /// The protocols a match referee may speak to engines of this game, the default first
    /// (`gomocup`; `ucci`, `uci`; `connectmore`). None: engines play in-process only.
    fn referee_protocols(&self) -> &'static [&'static str] {
        &[]
    }

    /// One line of a match's opening file, on top of `base` (the match's size and rule).
    /// Default: the line is a move list.
    ///
    /// # Errors
    /// [`FrameError::Usage`] for a line that does not read; whether it replays legally is
    /// checked by building the game.
    fn opening(&self, line: &str, base: &Setup) -> Result<Opening, FrameError> {
        Ok(Opening::moves(base, line))
    }

    /// A seeded random short opening on top of `base`, never a finished game. Default:
    /// [`GameSpec::random_plies`] random legal plies (drawn again while they end the game).
    fn random_opening(&self, base: &Setup, seed: u64) -> Opening {
        let mut rng = game_core::zobrist::SplitMix64::new(seed);
        for _ in 0..100 {
            let Ok(mut game) = self.build(base, &EngineConfig::small()) else {
                break;
            };
            let mut words = Vec::new();
            for _ in 0..self.random_plies() {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let (x, next) = rng.next();
                rng = next;
                let mv = &moves[(x % moves.len() as u64) as usize];
                if game.play_text(mv).is_err() {
                    break;
                }
                words.push(mv.clone());
            }
            if game.ending().is_none() && words.len() == self.random_plies() {
                let label = words.join(" ");
                return Opening::moves(base, &label);
            }
        }
        Opening {
            setup: base.clone(),
            label: String::new(),
        }
    }
}

/// Leaf counts of the legal move tree of `pos` to `depth` plies (the generic perft behind
/// [`GameSpec::perft`]): one entry per root move in notation, naturally sorted, when
/// `divide`, else one entry `("", total)`.
pub fn perft<P: Position>(pos: &mut P, depth: u32, divide: bool) -> Vec<(String, u64)> {
    fn count<P: Position>(pos: &mut P, depth: u32, bufs: &mut [Vec<P::Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs.split_first_mut().expect("a buffer per ply");
        if pos.generate_moves(buf).is_some() {
            return 0;
        }
        if depth == 1 {
            return buf.len() as u64;
        }
        let moves = std::mem::take(buf);
        let mut n = 0;
        for &mv in &moves {
            pos.play(mv);
            n += count(pos, depth - 1, rest);
            pos.undo(mv);
        }
        *buf = moves;
        n
    }
    let mut bufs: Vec<Vec<P::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    if !divide || depth == 0 {
        return vec![(String::new(), count(pos, depth, &mut bufs))];
    }
    let mut roots = Vec::new();
    if pos.generate_moves(&mut roots).is_some() {
        return Vec::new();
    }
    let mut out: Vec<(String, u64)> = roots
        .into_iter()
        .map(|mv| {
            let text = pos.format_move(mv);
            pos.play(mv);
            let n = count(pos, depth - 1, &mut bufs);
            pos.undo(mv);
            (text, n)
        })
        .collect();
    out.sort_by_cached_key(|(t, _)| natural_key(t));
    out
}

/// Plays a move list on a game in progress, one text per turn (or ply) in order.
///
/// # Errors
/// [`FrameError::Usage`] `--moves: move N: 'text': why` for the first that does not play; the
/// moves before it stay played.
pub fn play_moves(game: &mut dyn Game, moves: &[String]) -> Result<(), FrameError> {
    for (i, token) in moves.iter().enumerate() {
        game.play_text(token).map_err(|e| {
            FrameError::usage(format!(
                "--moves: move {}: {}",
                i + 1,
                crate::setup::quoted(token, &e)
            ))
        })?;
    }
    Ok(())
}
