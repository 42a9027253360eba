//! The engine: immediate wins and forced blocks, VCF at the root (ours, then the defence
//! against the opponent's), a short VCT, then the main alpha-beta search.
//!
//! The main search is one function, [`Engine::main_search`]; it runs a local negamax until the
//! shared `game_core::search` lands on main, which will replace its body.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game_core::score::{INFINITY, MATE, is_mate_score, mate_in, mated_in};
use game_core::{Outcome, Position, Score};

use crate::board::Board;
use crate::pattern::Class;
use crate::point::Point;
use crate::threat::ThreatSolver;

/// What bounds one engine decision. Every limit left `None` is off (then the depth defaults to
/// [`MAX_DEPTH`]).
#[derive(Clone, Debug, Default)]
pub struct EngineLimits {
    /// Time to aim for (no new iteration starts after half of it).
    pub soft_time: Option<Duration>,
    /// Deadline never passed by more than a few milliseconds.
    pub hard_time: Option<Duration>,
    /// Deepest main-search iteration, in plies.
    pub depth: Option<u32>,
    /// About this many main-search nodes.
    pub nodes: Option<u64>,
}

impl EngineLimits {
    /// A decision of about `time` (soft = hard = `time`).
    #[must_use]
    pub fn time(time: Duration) -> Self {
        EngineLimits {
            soft_time: Some(time),
            hard_time: Some(time),
            ..Default::default()
        }
    }

    /// A fixed-depth decision.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        EngineLimits {
            depth: Some(depth),
            ..Default::default()
        }
    }
}

/// Deepest main-search iteration.
pub const MAX_DEPTH: u32 = 64;

/// How the engine found its move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is already over: no move.
    GameOver,
    /// A five to play.
    Five,
    /// The only block of the opponent's four.
    ForcedBlock,
    /// Our VCF.
    Vcf,
    /// Our VCT.
    Vct,
    /// The main search.
    Search,
}

/// One completed iteration of the main search (what `MESSAGE`/`info` lines show).
#[derive(Clone, Debug)]
pub struct Progress {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Principal variation.
    pub pv: Vec<Point>,
}

/// The engine's decision.
#[derive(Clone, Debug)]
pub struct EngineResult {
    /// The move to play (`None` only when the game is over).
    pub best_move: Option<Point>,
    /// Score for the side to move (a mate score `±(MATE - plies)` when the result is forced).
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<Point>,
    /// Depth of the last completed main-search iteration (0 when no search ran).
    pub depth: u32,
    /// Nodes (main search plus threat search).
    pub nodes: u64,
    /// How the move was found.
    pub source: Source,
}

#[derive(Copy, Clone, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    flag: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const MAX_PLY: usize = 128;

/// The gomoku engine: threat solver and main search, with their tables.
pub struct Engine {
    solver: ThreatSolver,
    tt: Vec<TtEntry>,
    nodes: u64,
    start: Instant,
    hard: Option<Duration>,
    node_limit: u64,
    aborted: bool,
    moves: Vec<Vec<Point>>,
    hints: Vec<Vec<i32>>,
    pv: Vec<Vec<Point>>,
    seldepth: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(16)
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mib` MiB (at least 1).
    #[must_use]
    pub fn new(hash_mib: usize) -> Engine {
        let entries = (hash_mib.max(1) << 20) / std::mem::size_of::<TtEntry>();
        let entries = entries.next_power_of_two() / 2;
        Engine {
            solver: ThreatSolver::new(),
            tt: vec![TtEntry::default(); entries.max(1024)],
            nodes: 0,
            start: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            aborted: false,
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            hints: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            seldepth: 0,
        }
    }

    /// Resizes the transposition table to about `hash_mib` MiB (clears it).
    pub fn set_hash_mib(&mut self, hash_mib: usize) {
        *self = Engine::new(hash_mib);
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.fill(TtEntry::default());
        self.solver.clear();
    }

    /// Chooses a move for the side to move of `board` within `limits`; `stop` (set from any
    /// thread) ends the search early; `progress` is called after every main-search iteration.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &EngineLimits,
        stop: &AtomicBool,
        mut progress: impl FnMut(&Progress),
    ) -> EngineResult {
        self.start = Instant::now();
        let me = board.side_to_move();
        let opp = me.opponent();
        let done =
            |mv: Point, score: Score, pv: Vec<Point>, source: Source, nodes: u64| EngineResult {
                best_move: Some(mv),
                score,
                pv,
                depth: 0,
                nodes,
                source,
            };
        if board.game_end().is_some() {
            return EngineResult {
                best_move: None,
                score: 0,
                pv: vec![],
                depth: 0,
                nodes: 0,
                source: Source::GameOver,
            };
        }
        if let Some(p) = board.five_point(me) {
            return done(p, mate_in(1), vec![p], Source::Five, 0);
        }
        let mut legal = Vec::new();
        board.generate_moves(&mut legal);
        if legal.is_empty() {
            // Renju: every empty point forbidden for Black.
            return EngineResult {
                best_move: None,
                score: mated_in(0),
                pv: vec![],
                depth: 0,
                nodes: 0,
                source: Source::GameOver,
            };
        }
        if board.has_five_point(opp) {
            let blocks: Vec<Point> = board
                .points()
                .filter(|&p| {
                    board.is_empty(p) && board.class(p, opp) == Class::Five && board.is_legal(p)
                })
                .collect();
            if board.class_count(opp, Class::Five) >= 2 || blocks.is_empty() {
                let p = blocks.first().copied().unwrap_or(legal[0]);
                return done(p, mated_in(2), vec![p], Source::ForcedBlock, 0);
            }
            if blocks.len() == 1 && limits.depth.is_none() {
                let p = blocks[0];
                let mut b = board.clone();
                b.play(p);
                let score = -b.evaluate();
                return done(p, score, vec![p], Source::ForcedBlock, 0);
            }
        }
        let hard = limits.hard_time;
        // Threat searches get shares of the time: our VCF a quarter, the opponent's VCF and its
        // defences a quarter, our VCT an eighth.
        let share = |num: u32, den: u32| hard.map(|h| self.start + h * num / den);
        let vcf_nodes = 3_000_000;
        self.solver.set_node_limit(vcf_nodes);
        self.solver.set_deadline(share(1, 4));
        let mut threat_nodes = 0;
        if let Some(line) = self.solver.vcf(board, 40) {
            let n = self.solver.nodes();
            return done(line[0], mate_in(line.len() as u32), line, Source::Vcf, n);
        }
        threat_nodes += self.solver.nodes();
        // The opponent's VCF: only the defences are searched.
        let mut root_moves = Vec::new();
        let mut b = board.clone();
        b.pass();
        self.solver.set_node_limit(vcf_nodes);
        self.solver.set_deadline(share(3, 8));
        let opp_vcf = self.solver.vcf(&b, 40).is_some();
        threat_nodes += self.solver.nodes();
        if opp_vcf {
            self.solver.set_node_limit(vcf_nodes * 4);
            self.solver.set_deadline(share(1, 2));
            root_moves = self.solver.vcf_defences(board, 40);
            threat_nodes += self.solver.nodes();
        } else {
            // Our VCT (short), unless the opponent answers its first move with a VCF.
            self.solver.set_node_limit(vcf_nodes / 4);
            self.solver.set_deadline(share(1, 2));
            if let Some(line) = self.solver.vct(board, 8) {
                threat_nodes += self.solver.nodes();
                let mut check = board.clone();
                check.play(line[0]);
                self.solver.set_node_limit(vcf_nodes);
                self.solver.set_deadline(share(5, 8));
                let refuted = self.solver.vcf(&check, 40).is_some() || self.solver.aborted();
                if !refuted {
                    return done(
                        line[0],
                        mate_in(line.len() as u32 + 1),
                        line,
                        Source::Vct,
                        threat_nodes,
                    );
                }
            }
            threat_nodes += self.solver.nodes();
        }
        let mut result = self.main_search(board, &root_moves, limits, stop, &mut progress);
        result.nodes += threat_nodes;
        result
    }

    /// The main search: iterative-deepening negamax alpha-beta with a transposition table,
    /// check (four) extension and a four quiescence, over `root_moves` (all search moves when
    /// empty). To be replaced by `game_core::search::Searcher` when it lands on main.
    pub fn main_search(
        &mut self,
        board: &Board,
        root_moves: &[Point],
        limits: &EngineLimits,
        stop: &AtomicBool,
        progress: &mut impl FnMut(&Progress),
    ) -> EngineResult {
        let mut b = board.clone();
        self.nodes = 0;
        self.aborted = false;
        self.hard = limits.hard_time;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut roots: Vec<Point> = if root_moves.is_empty() {
            let mut v = Vec::new();
            b.generate_search_moves(&mut v);
            v
        } else {
            root_moves.to_vec()
        };
        roots.sort_by_cached_key(|&p| -b.move_hint(p));
        let mut best = EngineResult {
            best_move: roots.first().copied(),
            score: 0,
            pv: roots.first().copied().into_iter().collect(),
            depth: 0,
            nodes: 0,
            source: Source::Search,
        };
        if roots.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
            return best;
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            let mut alpha = -INFINITY;
            let beta = INFINITY;
            let mut iter_best = None;
            let mut iter_pv = Vec::new();
            for (i, &mv) in roots.clone().iter().enumerate() {
                b.play(mv);
                let score = if i == 0 {
                    -self.alpha_beta(&mut b, depth as i32 - 1, 1, -beta, -alpha, stop)
                } else {
                    let s = -self.alpha_beta(&mut b, depth as i32 - 1, 1, -alpha - 1, -alpha, stop);
                    if s > alpha && !self.aborted {
                        -self.alpha_beta(&mut b, depth as i32 - 1, 1, -beta, -alpha, stop)
                    } else {
                        s
                    }
                };
                b.undo(mv);
                if self.aborted {
                    break;
                }
                if score > alpha {
                    alpha = score;
                    iter_best = Some((mv, score));
                    iter_pv.clear();
                    iter_pv.push(mv);
                    iter_pv.extend_from_slice(&self.pv[1]);
                    // Move the new best to the front for the next iteration.
                    let pos = roots.iter().position(|&m| m == mv).expect("root move");
                    let m = roots.remove(pos);
                    roots.insert(0, m);
                }
            }
            if let Some((mv, score)) = iter_best {
                if !self.aborted || depth == 1 || mv == roots[0] {
                    best.best_move = Some(mv);
                    best.score = score;
                    best.pv = iter_pv;
                    best.depth = if self.aborted { depth - 1 } else { depth };
                }
            }
            if self.aborted {
                break;
            }
            let elapsed = self.start.elapsed();
            progress(&Progress {
                depth,
                score: best.score,
                nodes: self.nodes,
                time_ms: elapsed.as_millis() as u64,
                pv: best.pv.clone(),
            });
            if is_mate_score(best.score) && (MATE - best.score.abs()) as u32 <= depth {
                break;
            }
            if let Some(soft) = limits.soft_time {
                if elapsed * 2 >= soft {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        best
    }

    #[inline]
    fn check_abort(&mut self, stop: &AtomicBool) -> bool {
        if self.nodes & 1023 == 0 {
            if stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
                self.aborted = true;
            } else if let Some(h) = self.hard {
                if self.start.elapsed() >= h {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    fn outcome_score(b: &Board, outcome: Outcome, ply: usize) -> Score {
        match outcome {
            Outcome::Draw => 0,
            Outcome::Win(s) if s == b.side_to_move() => mate_in(ply as u32),
            Outcome::Win(_) => mated_in(ply as u32),
        }
    }

    fn alpha_beta(
        &mut self,
        b: &mut Board,
        depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        stop: &AtomicBool,
    ) -> Score {
        self.pv[ply].clear();
        self.nodes += 1;
        if self.check_abort(stop) {
            return 0;
        }
        if let Some((o, _)) = b.game_end() {
            return Self::outcome_score(b, o, ply);
        }
        let me = b.side_to_move();
        if b.has_five_point(me) {
            return mate_in(ply as u32 + 1);
        }
        let opp = me.opponent();
        if b.class_count(opp, Class::Five) >= 2 {
            return mated_in(ply as u32 + 2);
        }
        let in_check = b.has_five_point(opp);
        let depth = if in_check { depth + 1 } else { depth };
        if depth <= 0 || ply >= MAX_PLY - 8 {
            return self.quiescence(b, alpha, beta, ply, stop);
        }
        // Mate-distance pruning.
        let alpha0 = alpha;
        let key = b.key();
        let slot = key as usize & (self.tt.len() - 1);
        let e = self.tt[slot];
        let mut tt_move = None;
        if e.key == key {
            tt_move = Some(Point(e.mv));
            if e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                if e.flag == EXACT
                    || (e.flag == LOWER && s >= beta)
                    || (e.flag == UPPER && s <= alpha)
                {
                    return s;
                }
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut hints = std::mem::take(&mut self.hints[ply]);
        if let Some(o) = b.generate_search_moves(&mut moves) {
            self.moves[ply] = moves;
            self.hints[ply] = hints;
            return Self::outcome_score(b, o, ply);
        }
        hints.clear();
        hints.extend(moves.iter().map(|&m| {
            if Some(m) == tt_move {
                10_000_000
            } else {
                b.move_hint(m)
            }
        }));
        let mut best = -INFINITY;
        let mut best_move = moves[0];
        let width = if in_check || moves.len() <= 12 {
            moves.len()
        } else {
            (8 + 4 * depth as usize).min(moves.len())
        };
        for i in 0..width {
            let mut j = i;
            for k in i + 1..moves.len() {
                if hints[k] > hints[j] {
                    j = k;
                }
            }
            moves.swap(i, j);
            hints.swap(i, j);
            let mv = moves[i];
            b.play(mv);
            let mut score;
            if i == 0 {
                score = -self.alpha_beta(b, depth - 1, ply + 1, -beta, -alpha, stop);
            } else {
                let r = if i >= 6 && depth >= 3 && !in_check && hints[i] < 40_000 {
                    1
                } else {
                    0
                };
                score = -self.alpha_beta(b, depth - 1 - r, ply + 1, -alpha - 1, -alpha, stop);
                if score > alpha && !self.aborted {
                    score = -self.alpha_beta(b, depth - 1, ply + 1, -beta, -alpha, stop);
                }
            }
            b.undo(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.hints[ply] = hints;
        if !self.aborted {
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
                mv: best_move.0,
                depth: depth as i8,
                flag,
            };
        }
        best
    }

    fn quiescence(
        &mut self,
        b: &mut Board,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        stop: &AtomicBool,
    ) -> Score {
        self.pv[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort(stop) {
            return 0;
        }
        if let Some((o, _)) = b.game_end() {
            return Self::outcome_score(b, o, ply);
        }
        let me = b.side_to_move();
        if b.has_five_point(me) {
            return mate_in(ply as u32 + 1);
        }
        let opp = me.opponent();
        let opp_fives = b.class_count(opp, Class::Five);
        if opp_fives >= 2 {
            return mated_in(ply as u32 + 2);
        }
        if ply >= MAX_PLY - 2 {
            return b.evaluate();
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        if opp_fives == 1 {
            b.generate_search_moves(&mut moves);
        } else {
            let stand = b.evaluate();
            if stand >= beta {
                self.moves[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
            b.generate_tactical(&mut moves);
            if moves.is_empty() {
                self.moves[ply] = moves;
                return stand;
            }
            let mut best = stand;
            for i in 0..moves.len() {
                let mv = moves[i];
                b.play(mv);
                let s = -self.quiescence(b, -beta, -alpha, ply + 1, stop);
                b.undo(mv);
                if self.aborted {
                    break;
                }
                if s > best {
                    best = s;
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            break;
                        }
                    }
                }
            }
            self.moves[ply] = moves;
            return best;
        }
        let mut best = -INFINITY;
        for i in 0..moves.len() {
            let mv = moves[i];
            b.play(mv);
            let s = -self.quiescence(b, -beta, -alpha, ply + 1, stop);
            b.undo(mv);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        self.moves[ply] = moves;
        if best == -INFINITY {
            mated_in(ply as u32 + 2)
        } else {
            best
        }
    }
}

fn to_tt(score: Score, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score + ply as i32
    } else if score < -MATE + 1000 {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> Score {
    if score > MATE - 1000 {
        score - ply as i32
    } else if score < -MATE + 1000 {
        score + ply as i32
    } else {
        score
    }
}

/// One-call engine entry point: a fresh [`Engine`] (16 MiB table) thinks about `board` within
/// `limits`.
#[must_use]
pub fn best_move(board: &Board, limits: &EngineLimits) -> EngineResult {
    let stop = AtomicBool::new(false);
    Engine::new(16).think(board, limits, &stop, |_| {})
}
