//! The ConnectMore GUI engine protocol (the one the Olympiad engine Cloudict speaks), one
//! command per line on stdin, answers on stdout:
//!
//! | command | effect | answer |
//! |---|---|---|
//! | `name` | | `name qi-connect6` |
//! | `new black` | new 19x19 game, we are Black | `move JJ` (our first stone) |
//! | `new white` | new game, we are White | none |
//! | `move XXXX` | the opponent's turn (`XX` for Black's first stone) | `move XXXX` (ours); `We loss! (six in a row)` when it wins (Cloudict's words), `Draw! (...)` when it fills the board |
//! | `black XXXX` / `white XXXX` | place stones of that colour without searching | none |
//! | `next` | search for the side to move and play it | `move XXXX` |
//! | `depth D` | search at most D turns (1..=30) | none |
//! | `time MS` | think MS milliseconds per turn (default 1000; our addition) | none |
//! | `clock MS [INC]` | our game clock: MS milliseconds left, INC added after each of our turns; each turn gets its share ([`crate::time::turn_time`]) until the next `clock` or `time` (our addition) | none |
//! | `vcf` / `unvcf` | threat-space search on / off | none |
//! | `level N` | play at strength level N, 1..8 (8, the default, is the full engine; our addition) | none |
//! | `print` | | the board, then the side to move |
//! | `help` | | the command list |
//! | `quit` / `exit` | stop | none |
//!
//! Stones are two capital letters, column then row, `A` at the bottom-left (`JJ` is the centre).
//! A line that is not understood, or an illegal move, gets one line starting with `error` and
//! changes nothing (control characters in the quoted line escaped). `move` gives the
//! opponent's stones: when the side to move is our colour (set by `new`, by `next` and by the
//! first `move`), or the game is over, it is an `error`. A `black`/`white` line that is a whole legal turn of the side to move is
//! played as that turn; otherwise its stones are added as setup and the other colour moves next
//! with two stones. Engine lines other than `move ...` are informational (GUIs read only
//! `move ` lines).

use std::io::{self, BufRead, Write};
use std::time::Duration;

use game_frame::{Level, LevelPick, LevelSettings, Rules};

use game_core::Side;
use game_core::clock::Clock;

use crate::board::{Cell, Connect6, side_name};
use crate::engine::{Engine, EngineLimits, TSS_TURNS};
use crate::notation::{Point, format_connectmore, parse_connectmore};

/// The engine's name as `name` reports it.
pub const ENGINE_NAME: &str = "qi-connect6";

/// Default thinking time per turn, milliseconds.
pub const DEFAULT_TIME_MS: u64 = 1000;

/// Time lost per turn outside the engine (pipes, the GUI) under `clock`, kept in reserve.
pub const CLOCK_OVERHEAD: Duration = Duration::from_millis(20);

/// The longest time `time` and `clock` take: a day, in milliseconds.
const MAX_MS: u64 = 86_400_000;

/// One protocol session: the game, the engine and its limits. [`run`] feeds it lines; tests
/// and the CLI can drive it line by line with [`Session::handle`].
#[derive(Debug)]
pub struct Session {
    pos: Connect6,
    engine: Engine,
    depth: Option<u32>,
    time: Duration,
    /// Our game clock (`clock`): when set, each turn gets its share of it instead of `time`,
    /// and the clock runs down by the time the turn took (plus the increment) until the next
    /// `clock` line.
    clock: Option<Clock>,
    /// A strength below the full engine (`level N`; `qi connect6-engine --level N`).
    level: Option<LevelPick>,
    /// The colour we play: set by `new`, by `next` (the side it moved for) and by the first
    /// `move` (the other colour); `None` until then.
    engine_side: Option<Side>,
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// Runs the protocol until `quit`/`exit` or the end of `input`.
///
/// # Errors
/// Only I/O errors of `input` or `output`; protocol errors are answered with `error ...` lines.
pub fn run<R: BufRead, W: Write>(input: R, mut output: W) -> io::Result<()> {
    let mut session = Session::new();
    game_core::protocol::read_lines(input, |line| {
        let go_on = session.handle(line, &mut output)?;
        output.flush()?;
        Ok(go_on)
    })?;
    output.flush()
}

impl Session {
    /// A session on the empty 19x19 board, no depth limit, [`DEFAULT_TIME_MS`] per turn.
    #[must_use]
    pub fn new() -> Self {
        Session {
            pos: Connect6::standard(),
            engine: Engine::new(32),
            depth: None,
            time: Duration::from_millis(DEFAULT_TIME_MS),
            clock: None,
            level: None,
            engine_side: None,
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Connect6 {
        &self.pos
    }

    /// The time the next turn gets: the share of the clock (`clock`) when one is set, else
    /// the time per turn (`time`).
    #[must_use]
    pub fn turn_time(&self) -> Duration {
        self.clock
            .as_ref()
            .map_or(self.time, crate::time::turn_time)
    }

    /// Handles one line, writing the answer lines to `out`. Returns `Ok(false)` after
    /// `quit`/`exit`, else `Ok(true)`.
    ///
    /// # Errors
    /// Only I/O errors of `out`.
    pub fn handle<W: Write>(&mut self, line: &str, out: &mut W) -> io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(true);
        };
        let arg = words.next();
        let extra = words.next();
        let cmd_lower = cmd.to_ascii_lowercase();
        if cmd_lower == "clock" {
            match parse_clock(arg, extra, words.next()) {
                Ok(clock) => self.clock = Some(clock),
                Err(e) => error_line(out, &format!("`{}`: {e}", line.trim()))?,
            }
            return Ok(true);
        }
        if extra.is_some() {
            error_line(out, &format!("too many words in `{}`", line.trim()))?;
            return Ok(true);
        }
        match (cmd_lower.as_str(), arg) {
            ("quit" | "exit", None) => return Ok(false),
            ("name", None) => writeln!(out, "name {ENGINE_NAME}")?,
            ("help", None) => {
                for l in [
                    "name: engine name",
                    "new black|white: new game, we play that colour (as black we answer our first move)",
                    "move XXXX: the opponent's turn (XX for black's first stone); we answer move XXXX",
                    "black XXXX / white XXXX: place stones without searching",
                    "next: search for the side to move and answer move XXXX",
                    "depth D: search at most D turns; time MS: milliseconds per turn",
                    "clock MS [INC]: our clock, MS milliseconds left and INC added a turn",
                    "vcf / unvcf: threat-space search on / off",
                    "level N: strength level 1..8 (8: the full engine)",
                    "print: show the board; quit / exit: stop",
                ] {
                    writeln!(out, "{l}")?;
                }
            }
            ("new", Some(colour)) => match colour.to_ascii_lowercase().as_str() {
                "black" => {
                    self.pos = Connect6::standard();
                    self.engine.clear();
                    self.engine_side = Some(Side::First);
                    self.answer(out)?;
                }
                "white" => {
                    self.pos = Connect6::standard();
                    self.engine.clear();
                    self.engine_side = Some(Side::Second);
                }
                other => error_line(
                    out,
                    &format!("new {other}: expected `new black` or `new white`"),
                )?,
            },
            ("move", Some(stones)) => {
                let mover = self.pos.to_move();
                if let Some((_, reason)) = self.pos.game_end() {
                    error_line(out, &format!("move {stones}: the game is over ({reason})"))?;
                } else if self.engine_side == Some(mover) {
                    error_line(
                        out,
                        &format!(
                            "move {stones}: {} to move is our colour; `move` gives the \
                         opponent's stones (`next` makes us move)",
                            side_name(mover)
                        ),
                    )?;
                } else {
                    match self.parse_turn(stones) {
                        Ok(points) => {
                            self.pos.play_turn(&points).expect("checked turn");
                            self.engine_side = Some(mover.opponent());
                            match self.pos.game_end() {
                                None => self.answer(out)?,
                                // Cloudict's words when the opponent's turn ends the game.
                                Some((game_core::Outcome::Win(_), reason)) => {
                                    writeln!(out, "We loss! ({reason})")?;
                                }
                                Some((game_core::Outcome::Draw, reason)) => {
                                    writeln!(out, "Draw! ({reason})")?;
                                }
                            }
                        }
                        Err(e) => error_line(out, &format!("illegal move {stones}: {e}"))?,
                    }
                }
            }
            ("black" | "white", Some(stones)) => {
                let side = if cmd_lower == "black" {
                    Side::First
                } else {
                    Side::Second
                };
                if let Err(e) = self.place(side, stones) {
                    error_line(out, &format!("{cmd_lower} {stones}: {e}"))?;
                }
            }
            ("next", None) => {
                if let Some((_, reason)) = self.pos.game_end() {
                    error_line(out, &format!("the game is over ({reason})"))?;
                } else {
                    self.engine_side = Some(self.pos.to_move());
                    self.answer(out)?;
                }
            }
            ("depth", Some(d)) => match d.parse::<u32>() {
                Ok(d) if (1..=30).contains(&d) => self.depth = Some(d),
                _ => error_line(out, &format!("depth {d}: expected a number of turns 1..30"))?,
            },
            ("time", Some(t)) => match t.parse::<u64>() {
                Ok(ms) if (1..=MAX_MS).contains(&ms) => {
                    self.time = Duration::from_millis(ms);
                    self.clock = None;
                }
                _ => error_line(
                    out,
                    &format!("time {t}: expected milliseconds per turn 1..86400000"),
                )?,
            },
            ("level", Some(n)) => match n.parse::<Level>() {
                Ok(level) => {
                    self.level = LevelPick::fresh(level);
                }
                Err(e) => error_line(out, &e.to_string())?,
            },
            ("vcf", None) => self.engine.set_threat_search(true),
            ("unvcf", None) => self.engine.set_threat_search(false),
            ("print", None) => writeln!(out, "{}", self.pos)?,
            ("new" | "move" | "black" | "white" | "depth" | "time" | "level", None) => {
                let form = match cmd_lower.as_str() {
                    "new" => "`new black` or `new white`",
                    "move" => "the opponent's stones, `move XXXX` (`move JJ` for Black's first)",
                    "black" | "white" => "the stones to place, such as `black JJKK`",
                    "depth" => "a number of turns 1..30, such as `depth 4`",
                    "level" => "a strength level 1..8, such as `level 3`",
                    _ => "milliseconds per turn, such as `time 1000`",
                };
                error_line(out, &format!("`{cmd}` needs an argument: expected {form}"))?;
            }
            ("quit" | "exit" | "name" | "help" | "next" | "vcf" | "unvcf" | "print", Some(a)) => {
                error_line(out, &format!("`{cmd} {a}`: `{cmd}` takes no argument"))?
            }
            _ => error_line(
                out,
                &format!("unknown command `{}` (try `help`)", line.trim()),
            )?,
        }
        Ok(true)
    }

    fn parse_turn(&self, text: &str) -> Result<Vec<Point>, String> {
        let points = parse_connectmore(text, self.pos.size()).map_err(|e| e.to_string())?;
        self.pos.check_turn(&points).map_err(|e| e.to_string())?;
        Ok(points)
    }

    fn place(&mut self, side: Side, text: &str) -> Result<(), String> {
        let points = parse_connectmore(text, self.pos.size()).map_err(|e| e.to_string())?;
        if side == self.pos.to_move() && self.pos.check_turn(&points).is_ok() {
            self.pos.play_turn(&points).expect("checked turn");
            return Ok(());
        }
        // Setup: add the stones, the other colour to move with a full turn.
        let size = self.pos.size();
        let mut black = Vec::new();
        let mut white = Vec::new();
        for y in 0..size as u8 {
            for x in 0..size as u8 {
                let p = Point::new(x, y);
                match self.pos.cell(p) {
                    Some(Cell::Black) => black.push(p),
                    Some(Cell::White) => white.push(p),
                    _ => {}
                }
            }
        }
        for (i, p) in points.iter().enumerate() {
            if points[..i].contains(p) {
                return Err(format!("{} listed twice", p.to_connectmore()));
            }
            match self.pos.cell(*p) {
                Some(Cell::Empty) => {}
                Some(_) => return Err(format!("{} is occupied", p.to_connectmore())),
                None => return Err(format!("{} is off the board", p.to_connectmore())),
            }
        }
        if side == Side::First {
            black.extend(&points)
        } else {
            white.extend(&points)
        }
        let pos = Connect6::from_stones(size, &black, &white, side.opponent())
            .map_err(|e| e.to_string())?;
        self.pos = pos;
        Ok(())
    }
}

/// Reads the words of `clock MS [INC]`: milliseconds left (1 to a day) and the increment
/// (0 to a day, default 0).
fn parse_clock(
    left: Option<&str>,
    inc: Option<&str>,
    extra: Option<&str>,
) -> Result<Clock, String> {
    const FORM: &str = "expected `clock MS [INC]`, milliseconds left 1..86400000 and an \
                        increment 0..86400000, such as `clock 60000 1000`";
    let ms = |word: &str, least: u64| match word.parse::<u64>() {
        Ok(n) if (least..=MAX_MS).contains(&n) => Ok(Duration::from_millis(n)),
        _ => Err(format!("`{word}` is not a number of milliseconds: {FORM}")),
    };
    if extra.is_some() {
        return Err(format!("too many words: {FORM}"));
    }
    let remaining = ms(
        left.ok_or_else(|| format!("no time left given: {FORM}"))?,
        1,
    )?;
    let increment = inc.map_or(Ok(Duration::ZERO), |w| ms(w, 0))?;
    Ok(Clock {
        remaining,
        increment,
        moves_to_go: None,
        overhead: CLOCK_OVERHEAD,
    })
}

/// Writes `error TEXT`, control characters in `TEXT` escaped (it may quote the bad line).
fn error_line<W: Write>(out: &mut W, text: &str) -> io::Result<()> {
    writeln!(out, "error {}", game_core::text::escape_controls(text))
}

impl Session {
    /// Searches for the side to move, plays the turn and writes `move XXXX`.
    fn answer<W: Write>(&mut self, out: &mut W) -> io::Result<()> {
        let mut limits = EngineLimits {
            depth: self.depth,
            time: Some(self.turn_time()),
            nodes: None,
        };
        let settings = self.level.map(<Connect6 as Rules>::level_settings);
        if let Some(s) = &settings {
            limits.depth = LevelSettings::cap(limits.depth, s.depth);
            limits.nodes = LevelSettings::cap(limits.nodes, s.nodes);
        }
        let threats = self.engine.threat_search();
        self.engine.set_skill(settings.and_then(|s| s.skill));
        self.engine
            .set_threat_search(threats && settings.is_none_or(|s| s.threat_search));
        self.engine
            .set_threat_turns(settings.and_then(|s| s.threat_depth).unwrap_or(TSS_TURNS));
        let started = std::time::Instant::now();
        let analysis = self.engine.think(&self.pos, &limits);
        if let Some(clock) = &mut self.clock {
            clock.remaining = clock.remaining.saturating_sub(started.elapsed()) + clock.increment;
        }
        self.engine.set_skill(None);
        self.engine.set_threat_search(threats);
        self.engine.set_threat_turns(TSS_TURNS);
        match analysis {
            // A turn the rules refuse is an engine bug: say so, and leave the game as it is.
            Some(a) => match self.pos.play_turn(&a.turn) {
                Ok(()) => writeln!(out, "move {}", format_connectmore(&a.turn)),
                Err(e) => error_line(
                    out,
                    &format!(
                        "internal: the engine chose {}, which is illegal here ({e}); please report it",
                        format_connectmore(&a.turn)
                    ),
                ),
            },
            None => writeln!(
                out,
                "error the game is over ({} cannot move)",
                side_name(self.pos.to_move())
            ),
        }
    }
}
