//! The connect6 engine: immediate win, threat-space search for us, forced defence, the
//! opponent's threat-space search for the defence, then iterative-deepening alpha-beta over
//! candidate turns (pairs of stones).
//!
//! The alpha-beta is a small local negamax over single stones (one ply each, negating only
//! when the side to move changes) driven by [`game_core::Position`]'s
//! `generate_search_moves`, with its own transposition table. It stands in for the shared
//! `game_core::search` until that lands on main; the decisions before it are connect6's own.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game_core::score::{INFINITY, MATE, MAX_MATE_PLY, mate_in, mated_in};
use game_core::{Evaluate, Outcome, Position, Score};

use crate::board::{Connect6, Stone};
use crate::eval::ThreatEval;
use crate::notation::Point;
use crate::tss::ThreatSearch;

/// First stones tried at the root (a wider beam than inside the tree).
pub const ROOT_FIRST: usize = 14;
/// Second stones tried at the root for each first stone.
pub const ROOT_SECOND: usize = 8;
/// Turns the threat-space search looks ahead.
pub const TSS_TURNS: u32 = 10;

/// Limits of one [`Engine::think`]. Unset fields do not limit; with none set the engine
/// searches 4 turns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    /// Maximum alpha-beta depth in turns (the root turn counts as 1).
    pub depth: Option<u32>,
    /// Time for this turn (wall clock). The search starts no new iteration after 40% of it
    /// and stops at 100%.
    pub time: Option<Duration>,
    /// Maximum alpha-beta nodes (stones played).
    pub nodes: Option<u64>,
}

/// How the engine chose its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Black's first stone on an empty board: the centre.
    Opening,
    /// A six this turn.
    Win,
    /// A win by continuous threats in this many of our turns.
    ThreatWin(u32),
    /// The only turn that stops the opponent's threats (or every turn loses).
    Forced,
    /// Alpha-beta search among the candidate turns.
    Search,
}

/// The engine's answer: the turn to play and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The stones to place (1 on Black's first turn or mid-turn, else 2).
    pub turn: Vec<Point>,
    /// Score for the side to move (game-core scale; mate scores count stones).
    pub score: Score,
    /// Alpha-beta depth completed, in turns (0 when no search ran).
    pub depth: u32,
    /// Stones played by the alpha-beta search and threat-search nodes.
    pub nodes: u64,
    /// How the turn was chosen.
    pub decision: Decision,
    /// Principal variation in stones, starting with `turn`.
    pub pv: Vec<Point>,
    /// Elapsed time.
    pub time: Duration,
}

#[derive(Copy, Clone, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    depth: i8,
    flag: u8,
    mv: u16,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The connect6 engine. Keep one per game: its tables carry over between turns.
pub struct Engine {
    tss: ThreatSearch,
    tt: Vec<TtEntry>,
    eval: ThreatEval,
    bufs: Vec<Vec<Stone>>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stopped: bool,
    stop: Arc<AtomicBool>,
    threat_search: bool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Engine {{ tt entries: {} }}", self.tt.len())
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new(16)
    }
}

fn to_tt(score: Score, ply: u32) -> Score {
    if score > MATE - MAX_MATE_PLY {
        score + ply as Score
    } else if score < -MATE + MAX_MATE_PLY {
        score - ply as Score
    } else {
        score
    }
}

fn from_tt(score: Score, ply: u32) -> Score {
    if score > MATE - MAX_MATE_PLY {
        score - ply as Score
    } else if score < -MATE + MAX_MATE_PLY {
        score + ply as Score
    } else {
        score
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mib` MiB (at least 1).
    #[must_use]
    pub fn new(hash_mib: usize) -> Self {
        let entries = (hash_mib.max(1) << 20) / std::mem::size_of::<TtEntry>();
        let entries = entries.next_power_of_two() / 2;
        Engine {
            tss: ThreatSearch::new(),
            tt: vec![TtEntry::default(); entries.max(1024)],
            eval: ThreatEval,
            bufs: (0..128).map(|_| Vec::with_capacity(64)).collect(),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stopped: false,
            stop: Arc::new(AtomicBool::new(false)),
            threat_search: true,
        }
    }

    /// A flag that stops the running [`think`](Engine::think) when set (from any thread); the
    /// engine clears it at the start of every call.
    #[must_use]
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Switches the threat-space searches (ours and the defensive one) on or off (default on;
    /// the ConnectMore `vcf` / `unvcf` commands).
    pub fn set_threat_search(&mut self, on: bool) {
        self.threat_search = on;
    }

    /// Forgets the transposition and threat tables (a new game).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
        self.tss.clear();
    }

    /// Chooses a turn for the side to move of `pos`; `None` when the game is over.
    pub fn think(&mut self, pos: &Connect6, limits: &EngineLimits) -> Option<Analysis> {
        self.think_with(pos, limits, |_| {})
    }

    /// Like [`think`](Engine::think), calling `report` after every completed iteration of the
    /// alpha-beta search with the best turn so far.
    pub fn think_with(
        &mut self,
        pos: &Connect6,
        limits: &EngineLimits,
        mut report: impl FnMut(&Analysis),
    ) -> Option<Analysis> {
        pos.game_end().is_none().then_some(())?;
        let start = Instant::now();
        self.stop.store(false, Ordering::Relaxed);
        self.stopped = false;
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.time.map(|t| start + t);
        let size = pos.size();
        let mut pos = pos.clone();
        let left = pos.stones_left() as usize;
        let done = |stones: Vec<Stone>, score, decision, nodes| {
            let turn: Vec<Point> = stones.iter().map(|s| s.point(size)).collect();
            Some(Analysis {
                pv: turn.clone(),
                turn,
                score,
                depth: 0,
                nodes,
                decision,
                time: start.elapsed(),
            })
        };

        if pos.stone_count() == 0 {
            let c = size / 2;
            return done(
                vec![Stone::from_index(c * size + c)],
                0,
                Decision::Opening,
                0,
            );
        }
        if let Some(w) = pos.winning_window() {
            let mut stones: Vec<Stone> = pos.window_empties(w).map(Stone::from_index).collect();
            stones.truncate(left);
            if stones.len() < left {
                pos.play(stones[0]);
                let mut extra = Vec::new();
                pos.generate_moves(&mut extra);
                pos.undo(stones[0]);
                let other = extra
                    .into_iter()
                    .find(|&s| s != stones[0])
                    .unwrap_or(stones[0]);
                stones.push(other);
            }
            return done(stones, mate_in(1), Decision::Win, 0);
        }
        let tss_budget = self.tss_budget(limits);
        let tss_deadline = limits.time.map(|t| start + t.mul_f32(0.2));
        if let Some(win) = self
            .tss
            .find_win(&mut pos, TSS_TURNS, tss_budget, tss_deadline)
        {
            let nodes = win.nodes;
            return done(
                win.turn,
                mate_in(4 * win.turns),
                Decision::ThreatWin(win.turns),
                nodes,
            );
        }

        let mut roots = self.root_turns(&mut pos, ROOT_FIRST, ROOT_SECOND);
        let forced = pos.in_check();
        if roots.len() == 1 {
            return done(roots.pop().expect("one root"), 0, Decision::Forced, 0);
        }
        if !forced && left == 2 && self.threat_search {
            let deadline = limits.time.map(|t| start + t.mul_f32(0.3));
            self.defend_against_threat_search(&mut pos, &mut roots, tss_budget / 4, deadline);
        }

        // Iterative deepening over the root turns; no new iteration after 40% of the time left.
        let search_start = Instant::now();
        let soft = limits
            .time
            .map(|t| t.saturating_sub(start.elapsed()).mul_f32(0.4));
        if roots.is_empty() {
            let mut any = Vec::new();
            pos.generate_moves(&mut any);
            any.truncate(left);
            roots.push(any);
        }
        let max_depth = limits
            .depth
            .unwrap_or(if limits.time.is_some() || limits.nodes.is_some() {
                64
            } else {
                4
            })
            .max(1);
        let mut scores: Vec<Score> = vec![-INFINITY; roots.len()];
        let mut best: Option<(usize, Score, u32)> = None;
        for depth in 1..=max_depth {
            let stones = (left + 2 * (depth as usize - 1)) as i32;
            let mut alpha = -INFINITY;
            let mut iter_best: Option<(usize, Score)> = None;
            for (i, turn) in roots.iter().enumerate() {
                for &s in turn {
                    pos.play(s);
                }
                let score = -self.negamax(
                    &mut pos,
                    stones - turn.len() as i32,
                    -INFINITY,
                    -alpha,
                    turn.len() as u32,
                );
                for &s in turn.iter().rev() {
                    pos.undo(s);
                }
                if self.stopped {
                    break;
                }
                scores[i] = score;
                if score > alpha {
                    alpha = score;
                    iter_best = Some((i, score));
                }
            }
            if let Some((i, score)) = iter_best {
                // A move that beat the earlier ones stands even from an unfinished iteration.
                if !self.stopped || best.is_none_or(|(b, _, _)| b != i) {
                    best = Some((i, score, if self.stopped { depth - 1 } else { depth }));
                }
            }
            if self.stopped {
                break;
            }
            // Best first next time; the rest by their scores.
            let mut order: Vec<usize> = (0..roots.len()).collect();
            order.sort_by_key(|&i| std::cmp::Reverse(scores[i]));
            roots = order.iter().map(|&i| roots[i].clone()).collect();
            scores = order.iter().map(|&i| scores[i]).collect();
            best = Some((0, scores[0], depth));
            let analysis = self.analysis(&mut pos, &roots[0], scores[0], depth, start, forced);
            report(&analysis);
            if scores[0].abs() > MATE - MAX_MATE_PLY {
                break;
            }
            if let Some(t) = soft
                && search_start.elapsed() > t
            {
                break;
            }
        }
        let (i, score, depth) = best.unwrap_or((0, 0, 0));
        let turn = roots[i].clone();
        Some(self.analysis(&mut pos, &turn, score, depth, start, forced))
    }

    fn tss_budget(&self, limits: &EngineLimits) -> u64 {
        match (limits.time, limits.nodes) {
            (_, Some(n)) => (n / 4).clamp(200, 400_000),
            (Some(t), None) => (t.as_millis() as u64 * 40).clamp(2_000, 400_000),
            (None, None) => 100_000,
        }
    }

    fn analysis(
        &mut self,
        pos: &mut Connect6,
        turn: &[Stone],
        score: Score,
        depth: u32,
        start: Instant,
        forced: bool,
    ) -> Analysis {
        let size = pos.size();
        let mut pv: Vec<Stone> = turn.to_vec();
        for &s in turn {
            pos.play(s);
        }
        // Follow the table for the rest of the principal variation.
        let mut extra = Vec::new();
        for _ in 0..(2 * depth as usize).saturating_sub(turn.len()) {
            let e = self.tt[self.slot(pos.key())];
            if e.key != pos.key() || e.flag == 0 {
                break;
            }
            let mut moves = Vec::new();
            if pos.generate_moves(&mut moves).is_some() {
                break;
            }
            let Some(&m) = moves.iter().find(|m| m.0 == e.mv) else {
                break;
            };
            pos.play(m);
            extra.push(m);
        }
        for &m in extra.iter().rev() {
            pos.undo(m);
        }
        for &s in turn.iter().rev() {
            pos.undo(s);
        }
        pv.extend(extra);
        Analysis {
            turn: turn.iter().map(|s| s.point(size)).collect(),
            score,
            depth,
            nodes: self.nodes + self.tss.nodes(),
            decision: if forced {
                Decision::Forced
            } else {
                Decision::Search
            },
            pv: pv.iter().map(|s| s.point(size)).collect(),
            time: start.elapsed(),
        }
    }

    /// Candidate turns at the root: first stones (a beam, or the forced replies) times second
    /// stones given the first, without duplicate pairs.
    fn root_turns(&mut self, pos: &mut Connect6, first: usize, second: usize) -> Vec<Vec<Stone>> {
        let mut firsts = Vec::new();
        pos.search_stones(&mut firsts, (first, second));
        if pos.stones_left() == 1 {
            return firsts.into_iter().map(|s| vec![s]).collect();
        }
        let mut out: Vec<Vec<Stone>> = Vec::new();
        let mut seconds = Vec::new();
        for &f in &firsts {
            pos.play(f);
            pos.search_stones(&mut seconds, (first, second));
            if seconds.is_empty() {
                // The first stone ended the game (cannot happen: wins are found earlier).
                pos.generate_moves(&mut seconds);
                seconds.truncate(1);
            }
            pos.undo(f);
            for &s in &seconds {
                if s != f && !out.iter().any(|t| t.contains(&f) && t.contains(&s)) {
                    out.push(vec![f, s]);
                }
            }
        }
        out
    }

    /// When the opponent, given the move, would win by continuous threats, keep only the root
    /// turns after which it no longer does (adding turns through the stones of its winning
    /// line); all of them when none does (lost anyway).
    fn defend_against_threat_search(
        &mut self,
        pos: &mut Connect6,
        roots: &mut Vec<Vec<Stone>>,
        budget: u64,
        deadline: Option<Instant>,
    ) {
        let state = pos.pass_turn();
        let threat = self.tss.find_win(pos, TSS_TURNS, budget, deadline);
        pos.set_turn_state(state);
        let Some(threat) = threat else { return };
        // Turns through the opponent's key points.
        let mut extra = Vec::new();
        let mut beam = Vec::new();
        pos.search_stones(&mut beam, (ROOT_FIRST, ROOT_SECOND));
        for &k in &threat.turn {
            if pos.cells[k.index()] != 0 {
                continue;
            }
            pos.play(k);
            let mut seconds = Vec::new();
            pos.search_stones(&mut seconds, (ROOT_FIRST, ROOT_FIRST));
            pos.undo(k);
            for s in seconds.into_iter().chain(threat.turn.iter().copied()) {
                if s != k
                    && !roots
                        .iter()
                        .chain(extra.iter())
                        .any(|t: &Vec<Stone>| t.contains(&k) && t.contains(&s))
                {
                    extra.push(vec![k, s]);
                }
            }
        }
        roots.splice(0..0, extra);
        let keep: Vec<Vec<Stone>> = roots
            .iter()
            .filter(|turn| {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    // Out of time: keep the turns not examined.
                    return true;
                }
                for &s in turn.iter() {
                    pos.play(s);
                }
                let refuted = self
                    .tss
                    .find_win(pos, TSS_TURNS, budget, deadline)
                    .is_none();
                for &s in turn.iter().rev() {
                    pos.undo(s);
                }
                refuted
            })
            .cloned()
            .collect();
        if !keep.is_empty() {
            *roots = keep;
        }
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn negamax(
        &mut self,
        pos: &mut Connect6,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: u32,
    ) -> Score {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.stopped = true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let p = ply as usize;
        if p + 1 >= self.bufs.len() {
            return self.eval.evaluate(pos);
        }
        if let Some((outcome, _)) = pos.game_end() {
            return match outcome {
                Outcome::Win(s) if s == pos.side_to_move() => mate_in(ply),
                Outcome::Win(_) => mated_in(ply),
                Outcome::Draw => 0,
            };
        }
        if depth <= 0 {
            return self.eval.evaluate(pos);
        }
        let mut moves = std::mem::take(&mut self.bufs[p]);
        pos.generate_search_moves(&mut moves);
        let key = pos.key();
        let slot = self.slot(key);
        let e = self.tt[slot];
        let mut tt_move = None;
        if e.key == key && e.flag != 0 {
            let s = from_tt(e.score, ply);
            if e.depth as i32 >= depth
                && (e.flag == EXACT
                    || (e.flag == LOWER && s >= beta)
                    || (e.flag == UPPER && s <= alpha))
            {
                self.bufs[p] = moves;
                return s;
            }
            tt_move = Some(e.mv);
        }
        if let Some(mv) = tt_move
            && let Some(i) = moves.iter().position(|m| m.0 == mv)
        {
            moves[..=i].rotate_right(1);
        }
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        let side = pos.side_to_move();
        for &m in &moves {
            pos.play(m);
            let score = if pos.side_to_move() != side {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1)
            } else {
                self.negamax(pos, depth - 1, alpha, beta, ply + 1)
            };
            pos.undo(m);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.bufs[p] = moves;
        if !self.stopped {
            let flag = if best >= beta {
                LOWER
            } else if best > alpha0 {
                EXACT
            } else {
                UPPER
            };
            self.tt[slot] = TtEntry {
                key,
                score: to_tt(best, ply),
                depth: depth.min(127) as i8,
                flag,
                mv: best_move.0,
            };
        }
        best
    }
}
