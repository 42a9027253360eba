//! The engine behind the UCCI and UCI servers: the current position, the searcher, and one
//! search at a time running on its own thread while the protocol reader keeps reading.
//!
//! Output goes through an `Arc<Mutex<W>>` shared with the search thread; every line is
//! written whole and flushed at once.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use game_core::search::{Limits, Report, SearchOptions, SearchResult, Searcher};
use game_core::{Position as _, Score, ScoreView};
use game_frame::{Level, LevelPick, LevelSettings, Rules};

use crate::engine::search_options;
use crate::{Eval, Move, Position};
use game_core::clock::Clock;

/// The largest transposition table the servers accept, in MiB: the one limit of every
/// interface ([`game_core::search::MAX_HASH_MIB`]).
pub(crate) const MAX_HASH_MIB: usize = game_core::search::MAX_HASH_MIB;

/// The searcher type the servers use.
pub(crate) type EngineSearcher = Searcher<Position, Eval>;

/// Writes `line` and a newline, then flushes. A poisoned lock (a panicked writer) is still
/// used: the output stream itself is intact.
pub(crate) fn send<W: Write>(out: &Mutex<W>, line: &str) -> io::Result<()> {
    let mut w = out
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // An answer may quote a bad line: its control characters are shown escaped.
    w.write_all(game_core::text::escape_controls(line).as_bytes())?;
    w.write_all(b"\n")?;
    w.flush()
}

/// The protocol spoken: how moves, scores and results are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// UCCI 3.0: ICCS ranks 0..9, plain integer scores, `nobestmove`.
    Ucci,
    /// UCI: ranks 0..9 as Pikafish speaks it, or 1..10 after `UCI_Variant xiangqi`
    /// (cutechess, Fairy-Stockfish).
    Uci {
        /// Ranks written 1..10 instead of 0..9.
        ranks_from_one: bool,
    },
}

/// The UCCI score of a forced win in `p` plies: `10000 - p` (negative for a loss), the
/// ElephantEye convention UCCI GUIs understand.
pub(crate) const UCCI_MATE: i32 = 10_000;

impl Dialect {
    /// A move in this dialect's coordinates.
    pub(crate) fn format_move(self, mv: Move) -> String {
        match self {
            Dialect::Uci {
                ranks_from_one: true,
            } => format!(
                "{}{}{}{}",
                (b'a' + mv.from().file()) as char,
                mv.from().rank() + 1,
                (b'a' + mv.to().file()) as char,
                mv.to().rank() + 1
            ),
            _ => mv.to_string(),
        }
    }

    /// Reads a move in this dialect's coordinates and checks it is legal in `pos`.
    pub(crate) fn parse_move(self, pos: &Position, text: &str) -> Result<Move, String> {
        let iccs = match self {
            Dialect::Uci {
                ranks_from_one: true,
            } => one_based_to_iccs(text).ok_or_else(|| {
                format!("'{text}' is not a move like h3e3 (files a..i, ranks 1..10)")
            })?,
            _ => text.to_string(),
        };
        match self {
            Dialect::Uci {
                ranks_from_one: true,
            } => pos
                .parse_iccs(&iccs)
                .map_err(|e| format!("{e} (read with ranks 1..10 as {iccs})")),
            _ => pos.parse_iccs(&iccs).map_err(|e| e.to_string()),
        }
    }

    /// The `info` lines of a completed iteration.
    fn info_lines(self, r: &Report<Move>, multipv: usize) -> Vec<String> {
        match self {
            Dialect::Ucci => {
                let pv: Vec<String> = r.pv.iter().map(|&m| self.format_move(m)).collect();
                let pv = pv.join(" ");
                let score = match r.score_view() {
                    ScoreView::Centi(s) => s.clamp(-(UCCI_MATE - 1000), UCCI_MATE - 1000),
                    ScoreView::MatePlies(p) if p > 0 => UCCI_MATE - p,
                    ScoreView::MatePlies(p) => -(UCCI_MATE + p),
                };
                vec![
                    format!("info depth {} score {score} pv {pv}", r.depth),
                    format!(
                        "info time {} nodes {} nps {} seldepth {} hashfull {}",
                        r.time_ms, r.nodes, r.nps, r.seldepth, r.hashfull
                    ),
                ]
            }
            Dialect::Uci { .. } => {
                // One line per principal variation the GUI asked for (MultiPV), best first.
                let lines: Vec<(Score, &[Move])> = if r.lines.is_empty() {
                    vec![(r.score, &r.pv[..])]
                } else {
                    r.lines
                        .iter()
                        .take(multipv.max(1))
                        .map(|l| (l.score, &l.pv[..]))
                        .collect()
                };
                lines
                    .iter()
                    .enumerate()
                    .map(|(i, &(score, pv))| {
                        let view = ScoreView::from_score(score);
                        let score = match view.mate_moves() {
                            Some(m) => format!("mate {m}"),
                            None => match view {
                                ScoreView::Centi(s) => format!("cp {s}"),
                                ScoreView::MatePlies(_) => {
                                    unreachable!("mate_moves covers mates")
                                }
                            },
                        };
                        let pv: Vec<String> = pv.iter().map(|&m| self.format_move(m)).collect();
                        format!(
                            "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
                            r.depth,
                            r.seldepth,
                            i + 1,
                            r.nodes,
                            r.nps,
                            r.hashfull,
                            r.time_ms,
                            pv.join(" ")
                        )
                    })
                    .collect()
            }
        }
    }

    /// The answer when there is no move to give: `nobestmove` (UCCI), `bestmove (none)` (UCI).
    fn no_move_line(self) -> &'static str {
        match self {
            Dialect::Ucci => "nobestmove",
            Dialect::Uci { .. } => "bestmove (none)",
        }
    }

    /// The final answer of a search.
    fn best_move_line(self, result: &SearchResult<Move>) -> String {
        match result.best_move {
            None => self.no_move_line().to_string(),
            Some(mv) => match result.ponder_move {
                Some(p) => format!(
                    "bestmove {} ponder {}",
                    self.format_move(mv),
                    self.format_move(p)
                ),
                None => format!("bestmove {}", self.format_move(mv)),
            },
        }
    }
}

/// `h3e3` / `a10a9` (ranks 1..10) to ICCS `h2e2` / `a9a8`.
fn one_based_to_iccs(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let file = |c: u8| (b'a'..=b'i').contains(&c.to_ascii_lowercase());
    if b.is_empty() || !file(b[0]) {
        return None;
    }
    let second = (1..b.len()).find(|&i| file(b[i]))?;
    let rank = |digits: &str| -> Option<u8> {
        let n: u8 = digits.parse().ok()?;
        (1..=10).contains(&n).then(|| n - 1)
    };
    let r1 = rank(text.get(1..second)?)?;
    let r2 = rank(text.get(second + 1..)?)?;
    Some(format!(
        "{}{}{}{}",
        b[0].to_ascii_lowercase() as char,
        r1,
        b[second].to_ascii_lowercase() as char,
        r2
    ))
}

/// What a `go` command asks for, protocol-independent.
#[derive(Clone, Debug, Default)]
pub(crate) struct GoRequest {
    /// Depth, nodes, root move restrictions (time limits are set by the engine).
    pub limits: Limits<Move>,
    /// The clock of the side to move, if the search is timed by a clock.
    pub clock: Option<Clock>,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder: search until `ponderhit` (then the clock applies) or `stop`.
    pub ponder: bool,
    /// UCCI `go depth 0`: report the static evaluation (`info depth 0 score S`) and answer
    /// `nobestmove`, searching nothing (UCCI 3.0, `go`).
    pub static_only: bool,
}

/// What the protocol thread and the search thread share about one search.
struct Control {
    stop: AtomicBool,
    /// While true (infinite search, ponder not yet hit), a finished search waits for `stop`
    /// or `ponderhit` before answering.
    hold: AtomicBool,
    /// The time to apply after `ponderhit`: (soft, hard).
    budget: Option<(Duration, Duration)>,
    ponderhit_at: Mutex<Option<Instant>>,
    done: AtomicBool,
}

/// The engine state one protocol session drives.
pub(crate) struct Engine<W: Write + Send + 'static> {
    out: Arc<Mutex<W>>,
    pub dialect: Dialect,
    /// The position searched by the next `go` (with its game history, for repetitions).
    pub position: Position,
    /// Root moves the next search must not play (UCCI `banmoves`).
    pub banned: Vec<Move>,
    /// Why the engine has no position: the last `position` command was refused. A `go` then
    /// answers no move (the GUI's position is not [`Engine::position`]) until a `position` is
    /// accepted.
    pub refused: Option<String>,
    searcher: Option<EngineSearcher>,
    job: Option<(JoinHandle<EngineSearcher>, Arc<Control>)>,
    /// Reserve per move for the GUI and pipes.
    pub move_overhead: Duration,
    /// Principal variations to search and report (UCI `MultiPV`, 1..=[`MAX_MULTIPV`]).
    pub multipv: u32,
    /// A strength below the full engine (UCI `UCI_LimitStrength` with `UCI_Elo`, UCCI
    /// `level`), with the seed of its choices.
    pub strength: Option<LevelPick>,
    /// `UCI_LimitStrength`: play at the level of `UCI_Elo`.
    limit_strength: bool,
    /// The level nearest the last `UCI_Elo` (the full engine until one is given).
    elo_level: Level,
}

/// The most principal variations a GUI may ask for (UCI `MultiPV`).
pub const MAX_MULTIPV: u32 = 16;

impl<W: Write + Send + 'static> Engine<W> {
    pub fn new(output: W, dialect: Dialect) -> Self {
        Engine {
            out: Arc::new(Mutex::new(output)),
            dialect,
            position: Position::startpos(),
            banned: Vec::new(),
            refused: None,
            searcher: Some(Searcher::new(Eval, search_options(16, 1))),
            job: None,
            move_overhead: Duration::from_millis(20),
            multipv: 1,
            strength: None,
            limit_strength: false,
            elo_level: Level::FULL,
        }
    }

    /// The commands UCCI and UCI share and answer alike: `isready` (`readyok`), `position`,
    /// `ponderhit` and `stop` (both ignored when idle); `None` for any other command.
    pub fn shared_command(&mut self, command: &str, args: &[&str]) -> Option<io::Result<()>> {
        Some(match command {
            "isready" => self.send("readyok"),
            "position" => self.position_command(args),
            "ponderhit" => {
                self.ponderhit();
                Ok(())
            }
            "stop" => {
                self.stop();
                Ok(())
            }
            _ => return None,
        })
    }

    /// `UCI_LimitStrength` (both protocols): on, the engine plays at the level nearest the
    /// last `UCI_Elo`; off, at full strength.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
        self.strength = if on {
            LevelPick::fresh(self.elo_level)
        } else {
            None
        };
    }

    /// `UCI_Elo` (both protocols; the caller checks it is within [`game_frame::LEVEL_ELO`]'s range): the
    /// nearest measured level, played at once when `UCI_LimitStrength` is on.
    pub fn set_elo(&mut self, elo: i32) {
        self.elo_level = Level::from_elo(elo);
        if self.limit_strength {
            self.strength = LevelPick::fresh(self.elo_level);
        }
    }

    /// Writes one line.
    pub fn send(&self, line: &str) -> io::Result<()> {
        send(&self.out, line)
    }

    /// Reports a malformed or refused command: `info string error: ...`.
    pub fn error(&self, message: &str) -> io::Result<()> {
        self.send(&format!("info string error: {message}"))
    }

    /// Waits for the running search (if any) to answer and takes the searcher back.
    pub fn wait(&mut self) {
        if let Some((handle, _)) = self.job.take() {
            match handle.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    // The search thread panicked: start afresh rather than die.
                    let _ = self.error("search thread failed; transposition table reset");
                    self.searcher = Some(Searcher::new(Eval, SearchOptions::default()));
                }
            }
        }
    }

    /// Stops the running search (it answers with its best move so far) and waits for it.
    pub fn stop(&mut self) {
        if let Some((_, control)) = &self.job {
            control.stop.store(true, Ordering::Release);
        }
        self.wait();
    }

    /// Makes the engine idle before a state change (`position`, `setoption`, a new `go`): a
    /// running search is stopped and answers its best move first. Waiting for a finite search
    /// instead would stop the loop from reading (`isready` must be answered at once, and `go
    /// depth 40` may not end for hours), and a GUI that changes the state mid-search has
    /// given up on that search anyway.
    pub fn idle(&mut self) {
        self.stop();
    }

    /// At the end of input: an infinite or pondering search is stopped, a finite one is
    /// awaited, so that a script piping `position ... / go depth 8` gets the full answer.
    pub fn finish(&mut self) {
        let holding = self
            .job
            .as_ref()
            .is_some_and(|(_, c)| c.hold.load(Ordering::Acquire));
        if holding {
            self.stop();
        } else {
            self.wait();
        }
    }

    /// The searcher, the engine being idle.
    pub fn searcher(&mut self) -> &mut EngineSearcher {
        self.idle();
        self.searcher
            .as_mut()
            .expect("idle engine owns its searcher")
    }

    /// Sets the position from a FEN (`None`: the start position) and moves in this dialect.
    /// The FEN is checked like everywhere else in qi ([`Position::from_fen`]: kings facing each
    /// other or the side not to move in check are impossible positions).
    ///
    /// # Errors
    /// What was wrong with the FEN or which move was refused. The engine then has no position
    /// ([`Engine::refused`]): the GUI's position is not the one it had before either.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let parsed = Self::read_position(self.dialect, fen, moves);
        self.idle();
        self.banned.clear();
        match parsed {
            Ok(pos) => {
                self.position = pos;
                self.refused = None;
                Ok(())
            }
            Err(e) => {
                self.refused = Some(e.clone());
                Err(e)
            }
        }
    }

    fn read_position(
        dialect: Dialect,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<Position, String> {
        let mut pos = match fen {
            None => Position::startpos(),
            // The error's own text starts with "bad FEN" or "impossible position".
            Some(fen) => Position::from_fen(fen).map_err(|e| e.to_string())?,
        };
        for (i, text) in moves.iter().enumerate() {
            let mv = dialect
                .parse_move(&pos, text)
                .map_err(|e| format!("move {} '{text}' refused: {e}", i + 1))?;
            pos.play(mv);
        }
        Ok(pos)
    }

    /// `position {fen F | startpos} [moves ...]` as both protocols read it: the new position,
    /// or an error line and no position (see [`Engine::set_position`]).
    pub fn position_command(&mut self, args: &[&str]) -> io::Result<()> {
        let result = match position_args(args) {
            Ok((fen, moves)) => self.set_position(fen.as_deref(), &moves),
            Err(e) => {
                self.idle();
                self.banned.clear();
                self.refused = Some(e.clone());
                Err(e)
            }
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) => self.error(&e),
        }
    }

    /// The error line for a command that needs a position while the engine has none.
    pub fn no_position(&self) -> Option<String> {
        self.refused
            .as_ref()
            .map(|why| format!("no position: the last 'position' was refused ({why})"))
    }

    /// `go`, once the dialect has read its arguments: starts the search, or reports why the
    /// arguments were refused.
    pub fn go_command(&mut self, request: Result<GoRequest, String>) -> io::Result<()> {
        if let Some(e) = self.no_position() {
            self.idle();
            self.error(&e)?;
            return self.send(self.dialect.no_move_line());
        }
        match request {
            Ok(request) => {
                self.go(request);
                Ok(())
            }
            Err(e) => self.error(&e),
        }
    }

    /// Starts a search on its own thread; it writes `info` lines and the best move itself.
    pub fn go(&mut self, request: GoRequest) {
        self.idle();
        if request.static_only {
            use game_core::Evaluate;
            let score = Eval.evaluate(&self.position);
            let _ = self.send(&format!("info depth 0 score {score}"));
            let _ = self.send(self.dialect.no_move_line());
            return;
        }
        let searcher = self.searcher.take().expect("idle engine owns its searcher");
        let mut limits = request.limits;
        limits.excluded_moves.extend(self.banned.iter().copied());
        limits.multipv = self.multipv.max(1);
        let settings = self.strength.map(<Position as Rules>::level_settings);
        let skill = settings.and_then(|s| s.skill);
        if let Some(s) = &settings {
            limits.depth = LevelSettings::cap(limits.depth, s.depth);
            limits.nodes = LevelSettings::cap(limits.nodes, s.nodes);
        }
        if let Some(k) = &skill {
            limits.multipv = limits.multipv.max(k.multipv);
        }
        let shown = self.multipv.max(1) as usize;
        let mut budget = None;
        if let Some(t) = request.movetime {
            let t = t
                .saturating_sub(self.move_overhead)
                .max(Duration::from_millis(5));
            limits.soft_time = Some(t);
            limits.hard_time = Some(t);
        } else if let Some(clock) = request.clock {
            let clock = Clock {
                overhead: self.move_overhead,
                ..clock
            };
            let (soft, hard) = clock.allocate();
            if request.ponder {
                budget = Some((soft, hard));
            } else if !request.infinite {
                limits.soft_time = Some(soft);
                limits.hard_time = Some(hard);
            }
        }
        // A bare `go` (no limit at all) searches until `stop`, like `go infinite`.
        let unlimited = limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.soft_time.is_none()
            && limits.hard_time.is_none()
            && budget.is_none();
        let control = Arc::new(Control {
            stop: AtomicBool::new(false),
            hold: AtomicBool::new(request.infinite || request.ponder || unlimited),
            budget,
            ponderhit_at: Mutex::new(None),
            done: AtomicBool::new(false),
        });
        let out = Arc::clone(&self.out);
        let dialect = self.dialect;
        let pos = self.position.clone();
        let c = Arc::clone(&control);
        let handle = std::thread::spawn(move || {
            let mut searcher = searcher;
            let result = searcher.search(&pos, &limits, &c.stop, |report| {
                for line in dialect.info_lines(report, shown) {
                    let _ = send(&out, &line);
                }
                // After a ponder hit, the clock's soft target applies from the hit.
                if let (Some((soft, _)), false) = (c.budget, c.hold.load(Ordering::Acquire)) {
                    let hit = *c.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner());
                    if hit.is_some_and(|t| {
                        t.elapsed().as_secs_f64()
                            >= soft.as_secs_f64() * game_core::search::NEXT_ITERATION
                    }) {
                        c.stop.store(true, Ordering::Release);
                    }
                }
            });
            // An infinite or pondering search never answers before `stop` / `ponderhit`.
            while c.hold.load(Ordering::Acquire) && !c.stop.load(Ordering::Acquire) {
                std::thread::sleep(Duration::from_millis(1));
            }
            // A limited strength plays the line its skill chooses.
            let result = result.play_line(skill, pos.key());
            let _ = send(&out, &dialect.best_move_line(&result));
            c.done.store(true, Ordering::Release);
            searcher
        });
        self.job = Some((handle, control));
    }

    /// The opponent played the move pondered on: the search goes on under the clock.
    pub fn ponderhit(&mut self) {
        let Some((_, control)) = &self.job else {
            return;
        };
        if !control.hold.load(Ordering::Acquire) {
            return;
        }
        *control
            .ponderhit_at
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        match control.budget {
            Some((_, hard)) => {
                let c = Arc::clone(control);
                let deadline = Instant::now() + hard;
                std::thread::spawn(move || {
                    while !c.done.load(Ordering::Acquire) && !c.stop.load(Ordering::Acquire) {
                        if Instant::now() >= deadline {
                            c.stop.store(true, Ordering::Release);
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(2));
                    }
                });
                control.hold.store(false, Ordering::Release);
            }
            // Pondering without a clock (`go ponder depth 8`): the search continues to its
            // own limit and answers.
            None => control.hold.store(false, Ordering::Release),
        }
    }
}

impl<W: Write + Send + 'static> Drop for Engine<W> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Parses a non-negative integer argument of `keyword`.
pub(crate) fn number<T: std::str::FromStr>(
    keyword: &str,
    value: Option<&str>,
) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("'{keyword}' needs a number"))?;
    v.parse()
        .map_err(|_| format!("'{keyword}' expects a non-negative integer, got '{v}'"))
}

/// Splits `position` arguments into the FEN (None for `startpos`) and the move texts.
pub(crate) fn position_args<'a>(
    args: &[&'a str],
) -> Result<(Option<String>, Vec<&'a str>), String> {
    let (fen, rest) = match args.first() {
        Some(&"startpos") => (None, &args[1..]),
        Some(&"fen") => {
            let end = args
                .iter()
                .position(|&t| t == "moves")
                .unwrap_or(args.len());
            if end == 1 {
                return Err("'position fen' needs a FEN".to_string());
            }
            (Some(args[1..end].join(" ")), &args[end..])
        }
        Some(other) => {
            return Err(format!(
                "'position' expects 'startpos' or 'fen', got '{other}'"
            ));
        }
        None => return Err("'position' expects 'startpos' or 'fen'".to_string()),
    };
    let moves = match rest.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.to_vec(),
        Some((other, _)) => {
            return Err(format!(
                "expected 'moves' after the position, got '{other}'"
            ));
        }
    };
    Ok((fen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_based_ranks() {
        assert_eq!(one_based_to_iccs("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(one_based_to_iccs("a10a9").as_deref(), Some("a9a8"));
        assert_eq!(one_based_to_iccs("b1c3").as_deref(), Some("b0c2"));
        assert_eq!(one_based_to_iccs("a0a1"), None);
        assert_eq!(one_based_to_iccs("a11a1"), None);
        assert_eq!(one_based_to_iccs("z1a1"), None);
        assert_eq!(one_based_to_iccs(""), None);
        let d = Dialect::Uci {
            ranks_from_one: true,
        };
        let black = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        let mv = black.parse_iccs("a9a8").unwrap();
        assert_eq!(d.format_move(mv), "a10a9");
        assert_eq!(d.parse_move(&black, "a10a9"), Ok(mv));
    }
}
