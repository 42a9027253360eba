//! The Gomocup brain protocol ("pbrain", Piskvork) with the Yixin-Board extensions.
//!
//! [`run`] reads one command per line and writes the replies, flushing after every line. CR LF
//! line ends and empty lines are tolerated; a malformed line gets `ERROR <why>` and changes
//! nothing; commands we do not implement get `UNKNOWN <command>`. Coordinates are Gomocup's
//! `x,y`, 0-based from the top-left.
//!
//! Commands: `START N` (5..=26), `RECTSTART W,H` (square only), `RESTART`, `BEGIN`, `TURN x,y`,
//! `BOARD` .. `DONE` (`x,y,f` with f = 1 own, 2 opponent, 3 continuous-game marker), `INFO key
//! value` (`timeout_turn`, `timeout_match`, `time_left`, `max_memory`, `rule`, `thread_num`,
//! `hash_size`, `max_depth`, `max_node`, `game_type`, `folder`, `evaluate`, `pondering`, and our
//! `level` 1..8 (a weaker engine; 8 is the full one); unknown keys ignored), `TAKEBACK x,y`, `PLAY x,y`, `END`, `ABOUT`, `SWAP2BOARD` .. `DONE` (0, 3 or 5
//! stones), `YXBOARD` .. `DONE` (set a position without thinking), `YXSHOWFORBID`.
//!
//! Time: every move is budgeted by [`turn_budget`] so as never to pass `timeout_turn` (hard
//! limit 1/16, at least 25 ms, below it) and to spread `time_left` / `timeout_match` over the
//! rest of the game the same way; the clock starts when the command is read.
//!
//! Input is read on its own thread while the brain thinks: `STOP` (Yixin-Board, pygomo-lib)
//! during a search ends it at once and the best move so far is played (a `STOP` read after a
//! command that starts a search stops that search); `STOP` while idle does nothing.
//!
//! `TAKEBACK` removes only the last stone played (anything else is an `ERROR`); a `BOARD` or
//! `TURN` that leaves a finished game (a five already on the board, a full board) gets
//! `ERROR ... the game is over ...` and changes nothing.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

use game_frame::{Level, LevelError, LevelPick};
use std::time::{Duration, Instant};

use game_core::Side;
use game_core::search::{MAX_HASH_MIB, MAX_THREADS, MIN_HASH_MIB};

use crate::board::Board;
use crate::engine::Engine;
use crate::point::{MAX_SIZE, MIN_SIZE, Point, Rule, parse_gomocup};
use game_core::search::Limits;

/// Name, version, author and country reported to `ABOUT`.
pub const ABOUT: &str =
    "name=\"qi\", version=\"0.1.0\", author=\"The qi developers\", country=\"Unknown\"";

const UNLIMITED: i64 = 2_147_483_647;

/// The shortest hard limit a move gets, in ms (the search still returns a legal move).
const MIN_MOVE_MS: i64 = 5;

/// Moves the match clock's target share is spread over at most: a gomoku game from an
/// opening rarely lasts longer (Rapfi's `match_space` is the same 22).
const MATCH_SPACE: i64 = 22;
/// The most a single move may take of the match clock: one part in this many (Rapfi's
/// `match_space_min`), for the moves where the best move keeps changing or the score falls.
const MATCH_SPACE_MIN: i64 = 7;

/// The search time for one move, `(soft, hard)`, from the Gomocup limits in ms: `turn`
/// (`timeout_turn`, > 0), `left` (what is left of `time_left` / `timeout_match`, or
/// 2147483647 when unlimited) and `moves_left` (the moves still expected from us, >= 1).
///
/// A manager on a loaded machine sees our answer late by scheduling and pipe delays, and
/// the search notices its deadline only every few hundred nodes (well under a millisecond),
/// so every limit keeps a margin of 1/16 and at least 25 ms (never below 5 ms); the match
/// clock keeps a reserve of 10% (at most 1 s).
/// - When the turn limit binds (it times the moves still expected fit in the match clock),
///   the move may take all of it: the soft limit is 1.5 times the hard one, so iterations
///   start until the hard limit ([`game_core::search::Limits::soft_time`]) and the unfinished
///   last one still yields a better root move it has found.
/// - When the match clock binds, the soft limit is a target of the clock shared over the
///   moves expected (at most `MATCH_SPACE`), which the search stretches while it is in
///   doubt and shrinks while it is sure; the hard limit lets a move take up to one part in
///   `MATCH_SPACE_MIN` of the clock (never past the turn limit).
pub fn turn_budget(turn: i64, left: i64, moves_left: i64) -> (Duration, Duration) {
    let safe = |t: i64| (t - (t / 16).max(25)).max(MIN_MOVE_MS);
    let turn_hard = safe(turn.max(1));
    let moves = moves_left.max(1);
    let pool = if left < UNLIMITED {
        (left - (left / 10).clamp(0, 1000)).max(0)
    } else {
        UNLIMITED
    };
    let (soft, hard) = if pool == UNLIMITED || turn_hard.saturating_mul(moves) <= pool {
        (turn_hard * 3 / 2, turn_hard)
    } else {
        let hard = turn_hard.min(safe(pool / moves.min(MATCH_SPACE_MIN)));
        let soft = (pool / moves.min(MATCH_SPACE)).min(hard);
        (soft, hard)
    };
    (
        Duration::from_millis(soft.max(MIN_MOVE_MS) as u64),
        Duration::from_millis(hard as u64),
    )
}

/// The search time for one move, `(soft, hard)`, from a game clock (a person's game in `qi
/// play` or `qi serve`): [`turn_budget`], the Gomocup time manager, with the clock's time
/// left as the turn limit and, as the match time, that time plus the increments still to come
/// over the `moves_left` moves the game is expected still to last (the same estimate as the
/// protocol's: half the empty points, 10 to 40).
#[must_use]
pub fn clock_budget(clock: &game_core::clock::Clock, empty_points: usize) -> (Duration, Duration) {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(UNLIMITED);
    let left = ms(clock.remaining.saturating_sub(clock.overhead));
    let moves_left = (empty_points as i64 / 2).clamp(10, 40);
    let pool = left.saturating_add(ms(clock.increment).saturating_mul(moves_left - 1));
    turn_budget(left.max(1), pool.min(UNLIMITED - 1), moves_left)
}

/// Which multi-line block is being read.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Block {
    None,
    Board,
    YxBoard,
    Swap2,
}

struct Brain {
    board: Option<Board>,
    size: usize,
    rule: Rule,
    engine: Engine,
    hash_mib: usize,
    threads: usize,
    timeout_turn: i64,
    timeout_match: i64,
    time_left: i64,
    max_memory: i64,
    max_depth: Option<u32>,
    max_node: Option<u64>,
    /// A strength below the full engine (`INFO level N`, ours; `qi gomocup --level N`).
    level: Option<LevelPick>,
    block: Block,
    pending: Vec<(Point, u8)>,
    pending_error: Option<String>,
    /// Our own thinking time in this game (from each command read to our answer): what
    /// `timeout_match` has lost when the manager sends no `time_left`.
    own_used: Duration,
    /// When the command being handled was read (the move's clock starts there).
    received: Instant,
    /// `STOP` lines read so far (by the reader thread) and the search's stop flag.
    signal: Arc<StopSignal>,
    /// `STOP` lines the brain has handled: a search starts stopped when the reader has read
    /// more (a `STOP` queued behind the command that started it).
    stops_handled: u64,
}

/// What the input reader tells a searching brain.
#[derive(Default)]
struct StopSignal {
    /// `STOP` lines read.
    requested: AtomicU64,
    /// The running search's stop flag (shared with the engine's threat solver).
    flag: Arc<AtomicBool>,
}

impl StopSignal {
    /// The reader read a `STOP`: count it, then stop a running search.
    fn request(&self) {
        self.requested.fetch_add(1, Ordering::AcqRel);
        self.flag.store(true, Ordering::Release);
    }

    /// The stop flag for a search starting now, after `handled` `STOP` lines: already
    /// set when the reader has read more (one queued behind the command being handled).
    fn arm(&self, handled: u64) -> &AtomicBool {
        let pending = self.requested.load(Ordering::Acquire) > handled;
        self.flag.store(pending, Ordering::Release);
        &self.flag
    }
}

fn ok_coords(p: Point) -> String {
    format!("{},{}", p.x(), p.y())
}

impl Brain {
    fn new() -> Brain {
        let signal = Arc::new(StopSignal::default());
        let mut engine = Engine::new(64);
        engine.set_stop_flag(Some(Arc::clone(&signal.flag)));
        Brain {
            board: None,
            size: 15,
            rule: Rule::Freestyle,
            engine,
            hash_mib: 64,
            threads: 1,
            timeout_turn: 30_000,
            timeout_match: 0,
            time_left: UNLIMITED,
            max_memory: 0,
            max_depth: None,
            max_node: None,
            level: None,
            block: Block::None,
            pending: Vec::new(),
            pending_error: None,
            own_used: Duration::ZERO,
            received: Instant::now(),
            signal,
            stops_handled: 0,
        }
    }

    /// The hash size that fits `max_memory` (a quarter of it, the rest for the process).
    fn effective_hash(&self) -> usize {
        let mut mib = self.hash_mib.max(1);
        if self.max_memory > 0 {
            let cap = ((self.max_memory as u64 >> 20) / 4).max(1) as usize;
            mib = mib.min(cap);
        }
        mib
    }

    /// The time for this move, counted from when its command was read.
    fn limits(&self) -> Limits<Point> {
        let turn = if self.timeout_turn <= 0 {
            100
        } else {
            self.timeout_turn
        };
        let stones = self.board.as_ref().map_or(0, Board::stone_count) as i64;
        // The same estimate as `clock_budget`'s.
        let moves_left = (((self.size * self.size) as i64 - stones) / 2).clamp(10, 40);
        // `time_left` is the manager's own reading of our match clock (it counts our time
        // only, and adds any increment); without it, the match time less our own thinking
        // (not the wall clock since START, which counts the opponent's turns too).
        let left = if self.time_left < UNLIMITED {
            self.time_left
        } else if self.timeout_match > 0 {
            self.timeout_match - self.own_used.as_millis() as i64
        } else {
            UNLIMITED
        };
        let (soft, hard) = turn_budget(turn, left, moves_left);
        // Time already spent since the command was read counts against this move.
        let spent = self.received.elapsed();
        let floor = Duration::from_millis(MIN_MOVE_MS as u64);
        Limits {
            soft_time: Some(soft.saturating_sub(spent).max(floor)),
            hard_time: Some(hard.saturating_sub(spent).max(floor)),
            depth: self.max_depth,
            nodes: self.max_node,
            ..Limits::default()
        }
    }

    fn new_board(&mut self) -> Board {
        Board::new(self.size, self.rule).expect("size checked at START")
    }

    /// Thinks and plays our move on the board; returns the reply line(s).
    fn think_and_play(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let limits = self.limits();
        let Some(board) = self.board.as_mut() else {
            return line(out, "ERROR no game: send START first");
        };
        let stop = self.signal.arm(self.stops_handled);
        let mut messages = Vec::new();
        let result = self
            .engine
            .think_at(board, &limits, 1, self.level, stop, |p| {
                messages.push(format!(
                    "MESSAGE depth {} ev {} nodes {} pv {}",
                    p.depth,
                    p.score,
                    p.nodes,
                    p.pv.iter()
                        .map(|&m| ok_coords(m))
                        .collect::<Vec<_>>()
                        .join(" ")
                ));
            });
        let Some(mv) = result
            .best_move
            .or_else(|| board.points().find(|&p| board.is_empty(p)))
        else {
            for m in messages {
                line(out, &m)?;
            }
            return line(out, "ERROR the board is full");
        };
        board.play(mv);
        self.own_used += self.received.elapsed();
        // One write and one flush for the whole answer: on a loaded machine every flush can
        // wake the manager and cost a time slice before the move itself is out.
        let mut text = String::with_capacity(64 * (messages.len() + 2));
        for m in messages {
            text.push_str(&m);
            text.push('\n');
        }
        text.push_str(&format!(
            "MESSAGE {:?} ev {} nodes {}\n{}\n",
            result.source,
            result.score,
            result.nodes,
            ok_coords(mv)
        ));
        out.write_all(text.as_bytes())?;
        out.flush()
    }

    fn parse_point(&self, text: &str) -> Result<Point, String> {
        parse_gomocup(text, self.size).map_err(|e| e.to_string())
    }

    /// Sets the board from `(point, owner)` stones (owner 1 = us, 2 = opponent), in move order.
    fn board_from(&self, stones: &[(Point, u8)]) -> Result<Board, String> {
        let own = stones.iter().filter(|s| s.1 == 1).count();
        let theirs = stones.iter().filter(|s| s.1 == 2).count();
        // We are to move: Black if the counts are equal.
        let we_black = own == theirs;
        if !(own == theirs || own + 1 == theirs) {
            return Err(format!(
                "stone counts {own} (ours) and {theirs} (opponent's) do not fit our turn"
            ));
        }
        let color = |owner: u8| {
            if (owner == 1) == we_black {
                Side::First
            } else {
                Side::Second
            }
        };
        // In move order if the colours alternate, else as sets.
        let mut b = self.new_board_checked()?;
        let alternating = stones.iter().enumerate().all(|(i, s)| {
            color(s.1)
                == if i % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                }
        });
        if alternating {
            for &(p, _) in stones {
                if !b.is_empty(p) {
                    return Err(format!("{},{} given twice", p.x(), p.y()));
                }
                b.play(p);
            }
            return Ok(b);
        }
        let black: Vec<Point> = stones
            .iter()
            .filter(|s| color(s.1) == Side::First)
            .map(|s| s.0)
            .collect();
        let white: Vec<Point> = stones
            .iter()
            .filter(|s| color(s.1) == Side::Second)
            .map(|s| s.0)
            .collect();
        let side = if we_black { Side::First } else { Side::Second };
        Board::from_stones(self.size, self.rule, &black, &white, Some(side))
            .map_err(|e| e.to_string())
    }

    fn new_board_checked(&self) -> Result<Board, String> {
        Board::new(self.size, self.rule).map_err(|e| e.to_string())
    }

    fn set_rule(&mut self, rule: Rule) {
        if rule != self.rule {
            self.rule = rule;
            // Re-build the current position under the new rule.
            if let Some(b) = &self.board {
                let mut nb = Board::new(self.size, rule).expect("size is valid");
                for &p in b.history() {
                    nb.play(p);
                }
                if nb.history().len() == b.stone_count() {
                    self.board = Some(nb);
                } else {
                    let (black, white) = stone_sets(b);
                    self.board =
                        Board::from_stones(self.size, rule, &black, &white, Some(b.side_to_move()))
                            .ok();
                }
            }
        }
    }

    /// Applies `INFO key value`. `Ok(Some(message))` when a value was clamped into its range
    /// (a `MESSAGE` line saying so); `Err` for a value that is refused (nothing changes).
    fn info(&mut self, rest: &str) -> Result<Option<String>, String> {
        let mut note = None;
        let mut it = rest.splitn(2, char::is_whitespace);
        let key = it.next().unwrap_or("").to_ascii_lowercase();
        let value = it.next().unwrap_or("").trim();
        let int = |v: &str| {
            v.parse::<i64>()
                .map_err(|_| format!("INFO {key}: expected an integer, got {v:?}"))
        };
        match key.as_str() {
            "timeout_turn" | "timeout_match" => {
                let v = int(value)?;
                if v < 0 {
                    return Err(format!(
                        "INFO {key} {v}: expected milliseconds, 0 or more (0: {})",
                        if key == "timeout_turn" {
                            "as fast as possible"
                        } else {
                            "no match limit"
                        }
                    ));
                }
                if key == "timeout_turn" {
                    self.timeout_turn = v;
                } else {
                    self.timeout_match = v;
                }
            }
            "time_left" => self.time_left = int(value)?,
            "max_memory" => {
                self.max_memory = int(value)?;
                self.resize_hash();
            }
            "hash_size" => {
                // Yixin-Board: KiB; 0 = default.
                let v = int(value)?;
                let (min, max) = (MIN_HASH_MIB as i64, MAX_HASH_MIB as i64);
                let mib = if v <= 0 {
                    64
                } else {
                    (v >> 10).clamp(min, max)
                };
                if v > 0 && mib != v >> 10 {
                    note = Some(format!(
                        "MESSAGE INFO hash_size {v} KiB is outside {min}..{max} MiB; using {mib} MiB"
                    ));
                }
                self.hash_mib = mib as usize;
                self.resize_hash();
            }
            "thread_num" => {
                let v = int(value)?;
                let threads = v.clamp(1, MAX_THREADS as i64);
                if threads != v {
                    note = Some(format!(
                        "MESSAGE INFO thread_num {v} is outside 1..{MAX_THREADS}; using {threads}"
                    ));
                }
                self.threads = threads as usize;
                self.engine.set_threads(self.threads);
            }
            "max_depth" => {
                let v = int(value)?;
                self.max_depth =
                    (v > 0).then_some(v.min(i64::from(game_frame::MAX_DEPTH_LIMIT)) as u32);
            }
            "level" => {
                // Ours: a strength level 1..8 (8, the default, is the full engine).
                let level: Level = value
                    .parse()
                    .map_err(|e: LevelError| format!("INFO level: {e}"))?;
                self.level = LevelPick::fresh(level);
            }
            "max_node" => {
                let v = int(value)?;
                self.max_node = (v > 0).then_some(v as u64);
            }
            "rule" => {
                let v = int(value)?;
                self.set_rule(gomocup_rule(v).ok_or_else(|| {
                    format!(
                        "INFO rule {v}: unsupported; qi plays 0 (freestyle), 1 (exactly five) \
                         and 4 (renju), each optionally with 2 (continuous game)"
                    )
                })?);
            }
            _ => {}
        }
        Ok(note)
    }

    fn resize_hash(&mut self) {
        let mib = self.effective_hash();
        self.engine.set_hash_mib(mib);
    }

    fn swap2(&mut self, out: &mut dyn Write) -> io::Result<()> {
        let stones: Vec<Point> = self.pending.iter().map(|s| s.0).collect();
        let center = self.size / 2;
        let at = |dx: i64, dy: i64| {
            Point::new((center as i64 + dx) as usize, (center as i64 + dy) as usize)
        };
        match stones.len() {
            0 => {
                // A balanced opening: black centre, white diagonal, black two away.
                let m = [at(0, 0), at(1, 1), at(2, 0)];
                line(
                    out,
                    &m.iter()
                        .map(|&p| ok_coords(p))
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            }
            3 | 5 => {
                let mut b = self.new_board();
                for &p in &stones {
                    if !b.is_empty(p) {
                        return line(out, "ERROR SWAP2BOARD: a point given twice");
                    }
                    b.play(p);
                }
                // White to move; score from White's view. Up to two decisions share the turn.
                let mut limits = self.limits();
                limits.soft_time = limits.soft_time.map(|t| t / 2);
                limits.hard_time = limits.hard_time.map(|t| t / 2);
                let stop = self.signal.arm(self.stops_handled);
                let r = self.engine.think(&b, &limits, stop, |_| {});
                let white_view = r.score;
                // SWAP takes Black: with 3 stones when White is clearly worse, with 5 stones
                // (we choose the colour) whenever White is worse.
                let threshold = if stones.len() == 3 { -150 } else { 0 };
                if white_view < threshold {
                    line(out, "SWAP")
                } else if stones.len() == 3 && white_view > 150 {
                    // Keep White: play the fourth stone.
                    let mv = r.best_move.expect("a move");
                    line(out, &ok_coords(mv))
                } else if stones.len() == 3 {
                    // Balanced: place stones 4 and 5 and let the opponent choose.
                    let Some(four) = r.best_move else {
                        return line(out, "SWAP");
                    };
                    b.play(four);
                    let r5 = self.engine.think(&b, &limits, stop, |_| {});
                    let Some(five) = r5.best_move else {
                        return line(out, &ok_coords(four));
                    };
                    line(out, &format!("{} {}", ok_coords(four), ok_coords(five)))
                } else {
                    let mv = r.best_move.expect("a move");
                    line(out, &ok_coords(mv))
                }
            }
            n => line(
                out,
                &format!("ERROR SWAP2BOARD: expected 0, 3 or 5 stones, got {n}"),
            ),
        }
    }

    /// Handles one line read at `received`; returns false on `END`.
    fn handle(&mut self, raw: &str, received: Instant, out: &mut dyn Write) -> io::Result<bool> {
        self.received = received;
        if is_stop(raw) {
            self.stops_handled += 1;
        }
        let text = raw.trim();
        if text.is_empty() {
            return Ok(true);
        }
        if self.block != Block::None {
            return self.block_line(text, out).map(|()| true);
        }
        let (cmd, rest) = match text.split_once(char::is_whitespace) {
            Some((c, r)) => (c.to_ascii_uppercase(), r.trim()),
            None => (text.to_ascii_uppercase(), ""),
        };
        match cmd.as_str() {
            "START" => match rest.parse::<usize>() {
                Ok(n) if (MIN_SIZE..=MAX_SIZE).contains(&n) => self.start(n, out)?,
                Ok(n) => line(
                    out,
                    &format!("ERROR unsupported size {n}: expected 5 to 26"),
                )?,
                Err(_) => line(
                    out,
                    &format!("ERROR START: expected a board size, got {rest:?}"),
                )?,
            },
            "RECTSTART" => {
                let dims: Vec<Option<usize>> =
                    rest.split(',').map(|s| s.trim().parse().ok()).collect();
                match dims.as_slice() {
                    [Some(w), Some(h)] if w == h && (MIN_SIZE..=MAX_SIZE).contains(w) => {
                        self.start(*w, out)?;
                    }
                    [Some(w), Some(h)] => line(
                        out,
                        &format!("ERROR unsupported board {w}x{h}: only square boards 5 to 26"),
                    )?,
                    _ => line(out, &format!("ERROR RECTSTART: expected W,H, got {rest:?}"))?,
                }
            }
            "RESTART" => {
                if self.board.is_none() {
                    line(out, "ERROR RESTART before START")?;
                } else {
                    self.start(self.size, out)?;
                }
            }
            "BEGIN" => match &self.board {
                None => line(out, "ERROR BEGIN before START")?,
                Some(b) if b.stone_count() > 0 => {
                    line(out, "ERROR BEGIN on a board that is not empty")?
                }
                Some(_) => self.think_and_play(out)?,
            },
            "TURN" => self.turn(rest, out)?,
            "PLAY" => self.play(rest, out)?,
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                if self.board.is_none() {
                    // Accept the block but answer with an error at DONE.
                    self.pending_error = Some(format!("{cmd} before START"));
                }
                self.block = match cmd.as_str() {
                    "BOARD" => Block::Board,
                    "YXBOARD" => Block::YxBoard,
                    _ => Block::Swap2,
                };
                self.pending.clear();
            }
            "TAKEBACK" => self.takeback(rest, out)?,
            "INFO" => match self.info(rest) {
                Ok(None) => {}
                Ok(Some(message)) => line(out, &message)?,
                Err(why) => line(out, &format!("ERROR {why}"))?,
            },
            "END" => return Ok(false),
            // A search is stopped by the reader; idle, there is nothing to stop.
            "STOP" => {}
            "ABOUT" => line(out, ABOUT)?,
            "YXSHOWFORBID" => {
                let mut s = String::from("FORBID ");
                if let Some(b) = &self.board
                    && b.rule() == Rule::Renju
                {
                    for (p, _) in b.forbidden_points() {
                        s.push_str(&format!("{:02}{:02}", p.x(), p.y()));
                    }
                }
                s.push('.');
                line(out, &s)?;
            }
            _ => line(out, &format!("UNKNOWN {cmd}"))?,
        }
        Ok(true)
    }

    /// `START`, `RECTSTART`, `RESTART`: an empty `size`x`size` board under the current rule,
    /// a fresh engine and match clock; answers `OK`.
    fn start(&mut self, size: usize, out: &mut dyn Write) -> io::Result<()> {
        self.size = size;
        self.board = Some(self.new_board());
        self.engine.clear();
        self.own_used = Duration::ZERO;
        line(out, "OK")
    }

    /// A line inside a `BOARD`, `YXBOARD` or `SWAP2BOARD` block: a stone (`x,y,f`; `x,y`
    /// for SWAP2BOARD), kept until `DONE`, which sets the board (and, after `BOARD`, plays)
    /// or answers the block's first error.
    fn block_line(&mut self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if text.eq_ignore_ascii_case("DONE") {
            let block = std::mem::replace(&mut self.block, Block::None);
            if let Some(why) = self.pending_error.take() {
                self.pending.clear();
                return line(out, &format!("ERROR {why}"));
            }
            match block {
                Block::Board | Block::YxBoard => {
                    let stones = std::mem::take(&mut self.pending);
                    match self.board_from(&stones) {
                        Ok(b) if block == Block::Board && b.game_end().is_some() => {
                            let why = game_over(&b, b.side_to_move()).expect("over");
                            line(out, &format!("ERROR BOARD: {why}"))?;
                        }
                        Ok(b) => {
                            self.board = Some(b);
                            if block == Block::Board {
                                self.think_and_play(out)?;
                            }
                        }
                        Err(why) => line(out, &format!("ERROR {why}"))?,
                    }
                }
                Block::Swap2 => {
                    self.swap2(out)?;
                    self.pending.clear();
                }
                Block::None => {}
            }
            return Ok(());
        }
        // x,y,f (BOARD, YXBOARD) or x,y (SWAP2BOARD).
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let parsed = match (self.block, parts.len()) {
            (Block::Swap2, 2) | (Block::Swap2, 3) => self
                .parse_point(&format!("{},{}", parts[0], parts[1]))
                .map(|p| (p, 0)),
            (_, 3) => self
                .parse_point(&format!("{},{}", parts[0], parts[1]))
                .and_then(|p| match parts[2] {
                    "1" => Ok((p, 1)),
                    "2" => Ok((p, 2)),
                    "3" => Ok((p, 3)),
                    f => Err(format!("bad stone owner {f:?}: expected 1, 2 or 3")),
                }),
            _ => Err(format!("bad board line {text:?}: expected x,y,f")),
        };
        match parsed {
            Ok((p, f)) => {
                if self.pending.iter().any(|s| s.0 == p) {
                    self.pending_error
                        .get_or_insert(format!("{},{} given twice", p.x(), p.y()));
                } else if f != 3 {
                    self.pending.push((p, f));
                }
            }
            Err(why) => {
                self.pending_error.get_or_insert(why);
            }
        }
        Ok(())
    }

    /// `TURN x,y`: the opponent's stone, then our answer; a refused stone leaves the board
    /// as it was.
    fn turn(&mut self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        let p = self.parse_point(rest);
        match (p, &self.board) {
            (_, None) => line(out, "ERROR TURN before START"),
            (Err(why), _) => line(out, &format!("ERROR TURN: {why}")),
            (Ok(p), Some(b)) if !b.is_empty(p) => {
                line(out, &format!("ERROR TURN: {},{} is occupied", p.x(), p.y()))
            }
            (Ok(_), Some(b)) if b.game_end().is_some() => line(
                out,
                &format!(
                    "ERROR TURN: {}",
                    game_over(b, b.side_to_move().opponent()).expect("over")
                ),
            ),
            (Ok(p), Some(_)) => {
                let b = self.board.as_mut().expect("board");
                b.play(p);
                if let Some(why) = game_over(b, b.side_to_move()) {
                    b.undo(p);
                    line(out, &format!("ERROR TURN: {why}"))
                } else {
                    self.think_and_play(out)
                }
            }
        }
    }

    /// `PLAY x,y`: the manager plays our stone (after a `SUGGEST`); answers its coordinates.
    fn play(&mut self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        let p = self.parse_point(rest);
        match (p, &self.board) {
            (_, None) => line(out, "ERROR PLAY before START"),
            (Err(why), _) => line(out, &format!("ERROR PLAY: {why}")),
            (Ok(p), Some(b)) if !b.is_empty(p) => {
                line(out, &format!("ERROR PLAY: {},{} is occupied", p.x(), p.y()))
            }
            (Ok(p), Some(_)) => {
                self.board.as_mut().expect("board").play(p);
                line(out, &ok_coords(p))
            }
        }
    }

    /// `TAKEBACK x,y`: takes back the last stone played; on a board set from stones (no
    /// move order), any stone of the side that moved last, which is then to move again.
    fn takeback(&mut self, rest: &str, out: &mut dyn Write) -> io::Result<()> {
        let p = self.parse_point(rest);
        let (p, b) = match (p, &self.board) {
            (_, None) => return line(out, "ERROR TAKEBACK before START"),
            (Err(why), _) => return line(out, &format!("ERROR TAKEBACK: {why}")),
            (Ok(p), Some(b)) if b.is_empty(p) => {
                return line(
                    out,
                    &format!("ERROR TAKEBACK: no stone on {},{}", p.x(), p.y()),
                );
            }
            (Ok(p), Some(b)) => (p, b),
        };
        let who = b.stone(p).expect("stone");
        if b.history().last() == Some(&p) {
            self.board.as_mut().expect("board").undo(p);
            line(out, "OK")
        } else if b.history().is_empty() && who != b.side_to_move() {
            let (mut black, mut white) = stone_sets(b);
            black.retain(|&q| q != p);
            white.retain(|&q| q != p);
            match Board::from_stones(self.size, self.rule, &black, &white, Some(who)) {
                Ok(nb) => {
                    self.board = Some(nb);
                    line(out, "OK")
                }
                Err(e) => line(out, &format!("ERROR TAKEBACK: {e}")),
            }
        } else {
            let why = match b.history().last() {
                Some(last) => format!("the last stone is {},{}", last.x(), last.y()),
                None => "it is not a stone of the side that moved last".to_string(),
            };
            line(
                out,
                &format!(
                    "ERROR TAKEBACK: {},{} is not the last stone played ({why}); only the last \
                     move can be taken back",
                    p.x(),
                    p.y()
                ),
            )
        }
    }
}

/// The rule of a Gomocup `INFO rule` bit mask: 1 exactly five, 2 continuous game (ignored:
/// every game starts with `START`/`RESTART`), 4 renju, 8 caro (not played); `None` for what qi
/// does not play (caro, exactly-five with renju, negative or larger values).
fn gomocup_rule(mask: i64) -> Option<Rule> {
    match mask & !2 {
        0 => Some(Rule::Freestyle),
        1 => Some(Rule::Standard),
        4 => Some(Rule::Renju),
        _ => None,
    }
}

/// Why no move can follow on `b` (`None` while the game goes on); `us` is the brain's colour.
fn game_over(b: &Board, us: Side) -> Option<String> {
    let (outcome, reason) = b.game_end()?;
    Some(match outcome {
        game_core::Outcome::Win(side) if side == us => {
            format!("the game is over: we already won ({reason})")
        }
        game_core::Outcome::Win(_) => {
            format!("the game is over: the opponent already won ({reason})")
        }
        _ => format!("the game is over ({reason})"),
    })
}

fn stone_sets(b: &Board) -> (Vec<Point>, Vec<Point>) {
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for p in b.points() {
        match b.stone(p) {
            Some(Side::First) => black.push(p),
            Some(Side::Second) => white.push(p),
            None => {}
        }
    }
    (black, white)
}

fn line(out: &mut dyn Write, text: &str) -> io::Result<()> {
    // An answer may quote the bad line: its control characters are shown escaped.
    writeln!(out, "{}", game_core::text::escape_controls(text))?;
    out.flush()
}

/// The first word of `line` is `word` (any case).
fn is_command(line: &str, word: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case(word))
}

/// `STOP` (any case, blanks around ignored): the line that stops the search of the command
/// before it. `END` does not stop a search: a script piping `BEGIN` and `END` gets its move.
fn is_stop(line: &str) -> bool {
    is_command(line, "STOP")
}

/// Runs the protocol: reads commands from `input` until `END` or end of input, writes replies
/// to `output` (flushed after every line). The commands are handled on a second thread while
/// this one keeps reading, so that `STOP` stops a search.
///
/// # Errors
/// Only I/O errors of `input` / `output`; protocol errors are answered with `ERROR` lines.
pub fn run<R: BufRead, W: Write + Send>(input: R, mut output: W) -> io::Result<()> {
    let mut brain = Brain::new();
    let signal = Arc::clone(&brain.signal);
    let (tx, rx) = mpsc::channel::<(String, Instant)>();
    std::thread::scope(|scope| {
        let worker = scope.spawn(move || -> io::Result<()> {
            for (text, at) in rx {
                if !brain.handle(&text, at, &mut output)? {
                    break;
                }
            }
            output.flush()
        });
        let read = game_core::protocol::read_lines(input, |line| {
            if is_stop(line) {
                signal.request();
            }
            let end = is_command(line, "END");
            // The brain has ended (END handled or an output error): stop reading.
            let sent = tx.send((line.to_string(), Instant::now())).is_ok();
            Ok(sent && !end)
        });
        drop(tx);
        let handled = worker
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        read.and(handled)
    })
}
