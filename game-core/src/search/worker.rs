//! One search thread: iterative deepening over a principal variation search with a
//! transposition table, aspiration windows, null move, late-move reductions, check
//! extension and quiescence.

use std::mem;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::options::{CHECK_INTERVAL, MAX_PLY, Pruning, SearchOptions};
use super::ordering::{
    HISTORY_MAX, Heuristics, KILLER_SCORES, TACTICAL_BASE, TT_MOVE_SCORE, pick_next,
};
use super::tt::{Bound, TranspositionTable, TtEntry};
use crate::score::{INFINITY, MAX_EVAL, is_mate_score, mate_in, mated_in};
use crate::{Evaluate, Move, Outcome, Position, Score, Side};

/// State every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    /// The caller's stop flag.
    pub stop: &'a AtomicBool,
    /// Set when the main thread has finished: helper threads stop.
    pub finished: AtomicBool,
    /// Nodes flushed by every thread.
    pub nodes: AtomicU64,
    pub start: Instant,
    pub hard_deadline: Option<Instant>,
    pub node_limit: Option<u64>,
}

/// The score of a decided game seen `ply` plies from the root, for the side to move there.
#[inline]
pub(crate) fn outcome_score<P: Position>(pos: &P, outcome: Outcome, ply: usize) -> Score {
    match outcome {
        Outcome::Draw => crate::score::DRAW,
        Outcome::Win(side) if side == pos.side_to_move() => mate_in(ply as u32),
        Outcome::Win(_) => mated_in(ply as u32),
    }
}

/// The score of [`Position::forced_result`]'s `plies` at `ply`: a win or a loss that far on.
#[inline]
fn forced_score(plies: i32, ply: usize) -> Score {
    if plies > 0 {
        mate_in(ply as u32 + plies as u32)
    } else {
        mated_in(ply as u32 + plies.unsigned_abs())
    }
}

/// `100 * ln(depth) * ln(move_number)` for logarithmic late-move reductions, `move_number` =
/// `index + 1` (both clamped to 1..=63).
#[inline]
fn lmr_table(depth: i32, index: usize) -> i32 {
    static TABLE: std::sync::OnceLock<Box<[[i32; 64]; 64]>> = std::sync::OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = Box::new([[0; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (100.0 * (d as f64).ln() * (n as f64).ln()) as i32;
            }
        }
        t
    });
    t[depth.clamp(1, 63) as usize][(index + 1).min(63)]
}

/// Late-move pruning's kept move count for each depth `0..64`:
/// `lmp_base + lmp_scale / 100 * depth^(lmp_power / 100)`, rounded down.
fn lmp_counts(p: &Pruning) -> [usize; 64] {
    let mut counts = [0; 64];
    for (d, c) in counts.iter_mut().enumerate() {
        let grow = f64::from(p.lmp_scale) / 100.0 * (d as f64).powf(f64::from(p.lmp_power) / 100.0);
        *c = (f64::from(p.lmp_base) + grow).max(0.0) as usize;
    }
    counts
}

/// The score of a table entry that settles the window `(alpha, beta)` at `ply`, if it does.
#[inline]
fn table_cutoff(entry: TtEntry, alpha: Score, beta: Score, ply: usize) -> Option<Score> {
    let score = score_from_tt(entry.score, ply);
    match entry.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= beta => Some(score),
        Bound::Upper if score <= alpha => Some(score),
        _ => None,
    }
}

/// Mate scores are stored relative to the node, so that the same position reached at another
/// ply reads the right distance.
#[inline]
fn score_to_tt(score: Score, ply: usize) -> Score {
    if score > MAX_EVAL {
        score + ply as Score
    } else if score < -MAX_EVAL {
        score - ply as Score
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: Score, ply: usize) -> Score {
    if score > MAX_EVAL {
        score - ply as Score
    } else if score < -MAX_EVAL {
        score + ply as Score
    } else {
        score
    }
}

/// What the stages of [`Worker`]'s negamax need to know about the node they work on.
#[derive(Copy, Clone)]
struct Node {
    /// Plies above the horizon.
    depth: i32,
    /// Plies from the root.
    ply: usize,
    /// Searched with an open window (a principal-variation node).
    pv_node: bool,
    /// A non-PV node expected to fail high.
    cut_node: bool,
    /// The side to move is in check.
    in_check: bool,
    /// The move a singular-extension test leaves out here, by code.
    excluded: Option<u32>,
}

impl Node {
    /// Whether selective pruning may cut this node short in the window `(alpha, beta)`: not
    /// at a PV node, in check, in a singular test, or in a window with a mate score.
    fn may_prune(&self, alpha: Score, beta: Score) -> bool {
        !self.pv_node
            && !self.in_check
            && self.excluded.is_none()
            && !is_mate_score(alpha)
            && !is_mate_score(beta)
    }
}

pub(crate) struct Worker<'a, P: Position, E> {
    pub pos: P,
    eval: &'a E,
    shared: &'a Shared<'a>,
    options: &'a SearchOptions,
    heuristics: &'a mut Heuristics<P::Move>,
    /// Per-ply move and ordering-score buffers, allocated once per search.
    moves: Vec<Vec<P::Move>>,
    scores: Vec<Vec<i32>>,
    /// Triangular principal-variation table.
    pv: Vec<Vec<P::Move>>,
    /// The root moves, best first after every iteration.
    pub root_moves: Vec<P::Move>,
    nodes: u64,
    unflushed: u64,
    pub seldepth: u32,
    pub aborted: bool,
    pub is_main: bool,
    /// Whether a root search stores its result as the root's table entry (not for the
    /// second and later lines of a MultiPV iteration, which leave the best move out).
    pub store_root: bool,
    /// Late-move pruning's kept move count by depth (`Pruning::lmp_*`).
    lmp_counts: [usize; 64],
    /// Per ply: the code of the move a singular-extension test search leaves out.
    excluded: Vec<Option<u32>>,
    /// Per ply: whether the move into this node was the same side's (the first stone of a
    /// two-stone turn): the side to move may then have won already, on the spot.
    same_side: Vec<bool>,
}

impl<'a, P: Position, E: Evaluate<P>> Worker<'a, P, E> {
    pub fn new(
        pos: P,
        eval: &'a E,
        shared: &'a Shared<'a>,
        options: &'a SearchOptions,
        heuristics: &'a mut Heuristics<P::Move>,
        root_moves: Vec<P::Move>,
        is_main: bool,
    ) -> Self {
        Worker {
            pos,
            eval,
            shared,
            options,
            heuristics,
            moves: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..MAX_PLY + 1).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY + 1))
                .collect(),
            root_moves,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            aborted: false,
            is_main,
            store_root: true,
            lmp_counts: lmp_counts(&options.pruning),
            excluded: vec![None; MAX_PLY + 1],
            same_side: vec![false; MAX_PLY + 1],
        }
    }

    /// Nodes this thread searched.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// When the search started.
    pub fn start(&self) -> Instant {
        self.shared.start
    }

    /// Nodes searched but not yet added to the shared total.
    pub fn unflushed_nodes(&self) -> u64 {
        self.unflushed
    }

    /// Adds the nodes not yet counted in the shared total.
    pub fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// The principal variation of the last completed root search.
    pub fn root_pv(&self) -> &[P::Move] {
        &self.pv[0]
    }

    /// Counts a node; every `CHECK_INTERVAL` nodes flushes the count and checks the stop flag,
    /// the deadline and the node limit. Returns true once the search must unwind.
    #[inline]
    fn enter_node(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.unflushed += 1;
        self.seldepth = self.seldepth.max(ply as u32);
        if self.unflushed >= CHECK_INTERVAL {
            self.flush_nodes();
            let s = self.shared;
            if s.stop.load(Ordering::Relaxed)
                || (!self.is_main && s.finished.load(Ordering::Relaxed))
                || s.hard_deadline.is_some_and(|d| Instant::now() >= d)
                || s.node_limit
                    .is_some_and(|n| s.nodes.load(Ordering::Relaxed) >= n)
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    #[inline]
    fn static_eval(&self) -> Score {
        self.eval.evaluate(&self.pos).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Searches a child: negates only when the side to move changed with the move.
    /// `cut_node` tells whether the child is expected to fail high.
    #[inline]
    fn child(
        &mut self,
        same_side: bool,
        depth: i32,
        alpha: Score,
        beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        self.same_side[ply] = same_side;
        if same_side {
            self.negamax(depth, alpha, beta, ply, cut_node)
        } else {
            -self.negamax(depth, -beta, -alpha, ply, cut_node)
        }
    }

    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// Fills `scores` with ordering scores for `moves`.
    fn score_moves(
        &self,
        moves: &[P::Move],
        scores: &mut Vec<i32>,
        tt_code: Option<u32>,
        ply: usize,
    ) {
        let side = self.pos.side_to_move();
        let killers = if self.options.killers {
            self.heuristics.killers[ply]
        } else {
            [None, None]
        };
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if Some(mv.code()) == tt_code {
                TT_MOVE_SCORE
            } else if self.pos.is_tactical(mv) {
                TACTICAL_BASE + self.pos.order_hint(mv)
            } else if killers[0] == Some(mv) {
                KILLER_SCORES[0]
            } else if killers[1] == Some(mv) {
                KILLER_SCORES[1]
            } else {
                let history = if self.options.history {
                    self.heuristics.history(side, mv)
                } else {
                    0
                };
                history + self.pos.order_hint(mv)
            }
        }));
    }

    /// One iteration at the root over `root_moves`, which it reorders best first.
    pub fn search_root(&mut self, depth: i32, mut alpha: Score, beta: Score) -> Score {
        self.pv[0].clear();
        self.enter_node(0);
        let side = self.pos.side_to_move();
        let mut best = -INFINITY;
        let mut best_index = 0;
        for i in 0..self.root_moves.len() {
            let mv = self.root_moves[i];
            self.pos.play(mv);
            let same_side = self.pos.side_to_move() == side;
            let gives_check = self.options.check_extension && self.pos.forcing();
            let new_depth = depth - 1 + i32::from(gives_check);
            let score = if i == 0 {
                self.child(same_side, new_depth, alpha, beta, 1, false)
            } else {
                let mut s = self.child(same_side, new_depth, alpha, alpha + 1, 1, true);
                if s > alpha && s < beta {
                    s = self.child(same_side, new_depth, alpha, beta, 1, false);
                }
                s
            };
            self.pos.undo(mv);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        // Best move first for the next iteration, the others keep their order.
        self.root_moves[..=best_index].rotate_right(1);
        if self.options.transposition_table && self.store_root {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.shared.tt.store(
                self.pos.key(),
                TtEntry {
                    move_code: Some(self.root_moves[0].code()),
                    score: score_to_tt(best, 0),
                    depth: depth.clamp(0, 255) as u8,
                    bound,
                },
            );
        }
        best
    }

    /// A node `depth` plies above the horizon at `ply`; `cut_node` marks a non-PV node
    /// expected to fail high (Knuth and Moore's node types, as Stockfish tracks them).
    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        self.pv[ply].clear();
        if self.enter_node(ply) {
            return 0;
        }
        if let Some(outcome) = self.pos.rule_outcome(ply as u32) {
            return outcome_score(&self.pos, outcome, ply);
        }
        if self.options.forced_results
            && let Some(plies) = self.pos.forced_result()
        {
            return forced_score(plies, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let pv_node = beta - alpha > 1;
        // Mate distance pruning: no result here can beat a win at the next ply (on the spot
        // when the same side moved into this node: its first stone may have won) or lose
        // faster than a loss on the spot.
        alpha = alpha.max(mated_in(ply as u32));
        let soonest_win = if self.same_side[ply] { ply } else { ply + 1 };
        beta = beta.min(mate_in(soonest_win as u32));
        if alpha >= beta {
            return alpha;
        }
        if depth <= 0 {
            return if P::QUIESCENCE && self.options.quiescence {
                self.quiescence(alpha, beta, ply, 0)
            } else {
                self.leaf(ply)
            };
        }

        let key = self.pos.key();
        let excluded = self.excluded[ply];
        let mut tt_entry = None;
        if self.options.transposition_table
            && excluded.is_none()
            && let Some(entry) = self.shared.tt.probe(key)
        {
            tt_entry = Some(entry);
            let deep_enough = if self.options.equal_depth_cutoffs {
                i32::from(entry.depth) == depth
            } else {
                i32::from(entry.depth) >= depth
            };
            if !pv_node
                && deep_enough
                && let Some(score) = table_cutoff(entry, alpha, beta, ply)
            {
                return score;
            }
        }
        let node = Node {
            depth,
            ply,
            pv_node,
            cut_node,
            in_check: self.pos.in_check(),
            excluded,
        };
        if let Some(score) = self.prune_node(&node, alpha, beta, tt_entry.is_some()) {
            return score;
        }
        let singular_code = match self.singular_test(&node, alpha, beta, tt_entry) {
            Ok(code) => code,
            Err(score) => return score,
        };
        let tt_code = tt_entry.and_then(|e| e.move_code);
        self.search_moves(&node, alpha, beta, tt_code, singular_code, key)
    }

    /// The pruning tried before a node's moves: mate razoring, reverse futility, razoring
    /// and the null move. `Some` with the node's score when one of them settles it (0 once
    /// the search is aborted); `has_entry` tells whether the table knew the position.
    fn prune_node(
        &mut self,
        node: &Node,
        alpha: Score,
        beta: Score,
        has_entry: bool,
    ) -> Option<Score> {
        let Node {
            depth,
            ply,
            pv_node,
            cut_node,
            in_check,
            excluded,
        } = *node;
        let pruning = self.options.pruning;
        // Mate razoring: a shallow non-PV node that must prove a win and has no table entry
        // tries only its tactical moves (quiescence: fours, a VCF) on this first visit.
        if depth <= pruning.mate_razor_depth
            && alpha > MAX_EVAL
            && !pv_node
            && !in_check
            && excluded.is_none()
            && !has_entry
            && P::QUIESCENCE
            && self.options.quiescence
        {
            return Some(self.quiescence(alpha, alpha + 1, ply, 0));
        }
        let may_prune = node.may_prune(alpha, beta);
        if may_prune && (depth <= pruning.futility_depth || depth <= pruning.razor_depth) {
            let eval = self.static_eval();
            // Reverse futility: so far above beta that a quiet move will not fall below it.
            if depth <= pruning.futility_depth && eval - pruning.futility_margin * depth >= beta {
                return Some(eval);
            }
            // Razoring: so far below alpha that only tactics can help; quiescence checks.
            if depth <= pruning.razor_depth && eval + pruning.razor_margin * depth <= alpha {
                let score = if P::QUIESCENCE && self.options.quiescence {
                    self.quiescence(alpha, alpha + 1, ply, 0)
                } else {
                    eval
                };
                if self.aborted {
                    return Some(0);
                }
                if score <= alpha {
                    return Some(score);
                }
            }
        }

        // Null-move pruning (a game switches it off where zugzwang is likely).
        if self.options.null_move
            && !pv_node
            && excluded.is_none()
            && !in_check
            && depth >= 3
            && !is_mate_score(beta)
            && self.pos.null_move_allowed()
            && let eval = self.static_eval()
            && eval >= beta
        {
            let by_eval = if pruning.null_move_eval_divisor > 0 {
                ((eval - beta) / pruning.null_move_eval_divisor).min(3)
            } else {
                0
            };
            let reduction =
                pruning.null_move_base + depth / pruning.null_move_divisor.max(1) + by_eval;
            self.pos.play_null();
            self.same_side[ply + 1] = false;
            let score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, !cut_node);
            self.pos.undo_null();
            if self.aborted {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_mate_score(score) { beta } else { score });
            }
        }
        None
    }

    /// Singular extension's test: is the table move the only good one? The test searches
    /// this node again (same ply, the table move left out) before its move buffers are
    /// taken. `Ok(Some(code))`: the table move is singular and gets a ply more; `Err` with the
    /// node's score on a multi-cut (another move also beats beta) or an abort.
    fn singular_test(
        &mut self,
        node: &Node,
        alpha: Score,
        beta: Score,
        tt_entry: Option<TtEntry>,
    ) -> Result<Option<u32>, Score> {
        let pruning = self.options.pruning;
        let (depth, ply) = (node.depth, node.ply);
        if pruning.singular_depth > 0
            && depth >= pruning.singular_depth
            && node.excluded.is_none()
            && ply < MAX_PLY / 2
            && !is_mate_score(alpha)
            && !is_mate_score(beta)
            && let Some(entry) = tt_entry
            && let Some(code) = entry.move_code
            && entry.bound != Bound::Upper
            && i32::from(entry.depth) >= depth - 3
            && !is_mate_score(entry.score)
        {
            let tt_score = score_from_tt(entry.score, ply);
            let singular_beta = tt_score - pruning.singular_margin * depth;
            self.excluded[ply] = Some(code);
            let score = self.negamax(
                (depth - 1) / 2,
                singular_beta - 1,
                singular_beta,
                ply,
                node.cut_node,
            );
            self.excluded[ply] = None;
            if self.aborted {
                return Err(0);
            }
            if score < singular_beta {
                return Ok(Some(code));
            } else if singular_beta >= beta {
                // Multi-cut: another move also beats beta.
                return Err(singular_beta);
            }
        }
        Ok(None)
    }

    /// The node's moves, best first, with late-move pruning, futility pruning of moves,
    /// extensions and late-move reductions; stores the result in the table (`key`) and
    /// rewards the move that cut off.
    fn search_moves(
        &mut self,
        node: &Node,
        mut alpha: Score,
        beta: Score,
        tt_code: Option<u32>,
        singular_code: Option<u32>,
        key: u64,
    ) -> Score {
        let Node {
            depth,
            ply,
            pv_node,
            cut_node,
            in_check,
            excluded,
        } = *node;
        let pruning = self.options.pruning;
        let side = self.pos.side_to_move();
        let mut moves = mem::take(&mut self.moves[ply]);
        let mut scores = mem::take(&mut self.scores[ply]);
        if let Some(outcome) = self.pos.generate_search_moves(&mut moves) {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            return outcome_score(&self.pos, outcome, ply);
        }
        self.score_moves(&moves, &mut scores, tt_code, ply);
        let killers = self.heuristics.killers[ply];

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut cutoff_index = None;
        let may_prune = node.may_prune(alpha, beta);
        let may_prune_moves = !in_check
            && (pruning.lmp_mate || (!is_mate_score(alpha) && !is_mate_score(beta)))
            && (!pv_node || pruning.lmp_pv);
        // Fail-high reduction: a cut node far above beta searches its quiet moves shallower.
        let likely_fail_high = pruning.fail_high_margin > 0
            && cut_node
            && may_prune
            && self.static_eval() >= beta + pruning.fail_high_margin * depth;
        // Futility pruning of moves: this node's quiet moves cannot lift it to alpha.
        let futile = may_prune
            && depth <= pruning.move_futility_depth
            && self.static_eval() + pruning.move_futility_margin * depth <= alpha;
        let lmp_limit = if may_prune_moves && depth <= pruning.lmp_depth {
            self.lmp_counts[depth.clamp(0, 63) as usize]
        } else {
            usize::MAX
        };

        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, i);
            if excluded == Some(mv.code()) {
                continue;
            }
            // In a mate window, pruning waits for a searched move that does not lose.
            let late = i >= lmp_limit.max(1)
                && (!pruning.lmp_mate
                    || best_score > -MAX_EVAL
                    || !(is_mate_score(alpha) || is_mate_score(beta)));
            // Moves come best first and every tactical move and killer scores above every
            // other move: once late-move pruning has started, the first plain quiet move
            // means that only plain quiet moves remain, and none of them is searched.
            if late && scores[i] < KILLER_SCORES[1] {
                break;
            }
            // Only late moves, reductions and the fail-high reduction ask whether a move is
            // tactical (the ordering has already put tactical moves first).
            let tactical = (late || likely_fail_high || futile || (depth >= 3 && i >= 3))
                && self.pos.is_tactical(mv);
            let killer = killers.contains(&Some(mv));
            // Late-move pruning: past the move-count limit, quiet moves are not searched.
            if late && !tactical && !killer {
                continue;
            }
            let adjustment = if depth >= 3 && i >= 3 && !tactical {
                self.pos.reduction_adjustment(mv)
            } else {
                0
            };

            // A child that only gets evaluated (no quiescence, no extension deepens it) may
            // skip the updates move generation needs. A check extension is known only once the
            // move is on the board: a leaf that gives check is taken back and played in full.
            let mut horizon_child = !(P::QUIESCENCE && self.options.quiescence)
                && depth <= 1
                && singular_code != Some(mv.code());
            if horizon_child {
                self.pos.play_leaf(mv);
            } else {
                self.pos.play(mv);
            }
            let same_side = self.pos.side_to_move() == side;
            let gives_check = self.pos.forcing();
            if horizon_child && self.options.check_extension && gives_check {
                self.pos.undo_leaf(mv);
                self.pos.play(mv);
                horizon_child = false;
            }
            let take_back = |pos: &mut P| {
                if horizon_child {
                    pos.undo_leaf(mv);
                } else {
                    pos.undo(mv);
                }
            };
            if futile && i > 0 && !tactical && !gives_check && best_score > -MAX_EVAL && !killer {
                take_back(&mut self.pos);
                continue;
            }
            let extension = i32::from(
                (self.options.check_extension && gives_check) || singular_code == Some(mv.code()),
            );
            let new_depth =
                depth - 1 + extension - i32::from(likely_fail_high && !tactical && !gives_check);
            // The children's node types: a PV node's first child is PV, its later ones are
            // probed as cut nodes; below a non-PV node the types alternate.
            let child_cut = if same_side { cut_node } else { !cut_node };
            let score = if i == 0 {
                self.child(
                    same_side,
                    new_depth,
                    alpha,
                    beta,
                    ply + 1,
                    !pv_node && child_cut,
                )
            } else {
                let reduction = if depth >= 3 && i >= 3 && !tactical && !gives_check && !killer {
                    self.late_move_reduction(node, i, mv, side, adjustment)
                        .min(new_depth - 1)
                        .max(0)
                } else {
                    0
                };
                // Null-window probes: a reduced one is expected to fail high (Stockfish).
                let zero_cut = pv_node || child_cut;
                let mut s = self.child(
                    same_side,
                    new_depth - reduction,
                    alpha,
                    alpha + 1,
                    ply + 1,
                    reduction > 0 || zero_cut,
                );
                if reduction > 0 && s > alpha {
                    s = self.child(same_side, new_depth, alpha, alpha + 1, ply + 1, zero_cut);
                }
                if s > alpha && s < beta {
                    s = self.child(same_side, new_depth, alpha, beta, ply + 1, false);
                }
                s
            };
            take_back(&mut self.pos);
            if self.aborted {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if alpha >= beta {
                        cutoff_index = Some(i);
                        break;
                    }
                }
            }
        }

        if let Some(i) = cutoff_index {
            self.reward_cutoff(ply, depth, side, &moves[..=i]);
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;

        if best_move.is_none() && excluded.is_some() {
            // Only the left-out move was there: the test says nothing against it.
            return alpha;
        }
        if self.options.transposition_table && excluded.is_none() {
            self.store_result(key, best_score, best_move, original_alpha, beta, depth, ply);
        }
        best_score
    }

    /// The late-move reduction of the quiet move `mv`, the `i`-th of `node` (before the
    /// clamp to the child's depth): logarithmic or fixed, one ply less at PV nodes, with the
    /// game's adjustment, the history's and the cut-node reduction.
    fn late_move_reduction(
        &self,
        node: &Node,
        i: usize,
        mv: P::Move,
        side: Side,
        adjustment: i32,
    ) -> i32 {
        if !(self.options.late_move_reductions && P::LATE_MOVE_REDUCTIONS) || node.in_check {
            return 0;
        }
        let pruning = &self.options.pruning;
        let depth = node.depth;
        let base = if pruning.lmr_divisor > 0 {
            lmr_table(depth, i) / pruning.lmr_divisor - i32::from(node.pv_node)
        } else {
            1 + i32::from(i >= 6) + i32::from(depth >= 6 && i >= 12)
        };
        let by_history = if pruning.lmr_history_divisor > 0 {
            (self.heuristics.history(side, mv) / pruning.lmr_history_divisor).clamp(-2, 2)
        } else {
            0
        };
        base.saturating_add(adjustment)
            .saturating_sub(by_history)
            .saturating_add(if node.cut_node {
                pruning.cut_node_reduction
            } else {
                0
            })
    }

    /// A quiet move that cut off (the last of `tried`) becomes a killer and gains history;
    /// the quiet moves tried before it lose as much.
    fn reward_cutoff(&mut self, ply: usize, depth: i32, side: Side, tried: &[P::Move]) {
        let Some((&mv, before)) = tried.split_last() else {
            return;
        };
        if self.pos.is_tactical(mv) {
            return;
        }
        if self.options.killers {
            self.heuristics.store_killer(ply, mv);
        }
        if self.options.history {
            let bonus = (depth * depth).min(HISTORY_MAX);
            self.heuristics.update_history(side, mv, bonus);
            for &other in before {
                if !self.pos.is_tactical(other) {
                    self.heuristics.update_history(side, other, -bonus);
                }
            }
        }
    }

    /// Stores a node's result: a lower bound at or above `beta`, exact inside the window it
    /// was searched with, an upper bound (and no move) at or below `original_alpha`.
    #[allow(clippy::too_many_arguments)]
    fn store_result(
        &self,
        key: u64,
        best: Score,
        best_move: Option<P::Move>,
        original_alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let move_code = if bound == Bound::Upper {
            None
        } else {
            best_move.map(Move::code)
        };
        self.shared.tt.store(
            key,
            TtEntry {
                move_code,
                score: score_to_tt(best, ply),
                depth: depth.clamp(0, 255) as u8,
                bound,
            },
        );
    }

    /// The horizon of a game without quiescence: the outcome if the game is over, else the
    /// static evaluation.
    fn leaf(&mut self, ply: usize) -> Score {
        let mut moves = mem::take(&mut self.moves[ply]);
        let outcome = self.pos.leaf_outcome(&mut moves);
        self.moves[ply] = moves;
        match outcome {
            Some(outcome) => outcome_score(&self.pos, outcome, ply),
            None => self.static_eval(),
        }
    }

    /// Quiescence search: stand pat on the static evaluation and try the game's tactical
    /// moves; in check, every search move and no stand pat.
    /// `qply` counts the plies since the horizon: from
    /// [`SearchOptions::quiescence_plies`] on, a node not in check stands pat.
    fn quiescence(&mut self, mut alpha: Score, beta: Score, ply: usize, qply: u32) -> Score {
        self.pv[ply].clear();
        if self.enter_node(ply) {
            return 0;
        }
        if let Some(outcome) = self.pos.rule_outcome(ply as u32) {
            return outcome_score(&self.pos, outcome, ply);
        }
        if self.options.forced_results
            && let Some(plies) = self.pos.forced_result()
        {
            return forced_score(plies, ply);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval();
        }
        let use_tt = self.options.quiescence_tt && self.options.transposition_table;
        let key = self.pos.key();
        let mut tt_code = None;
        if use_tt && let Some(entry) = self.shared.tt.probe(key) {
            tt_code = entry.move_code;
            if let Some(score) = table_cutoff(entry, alpha, beta, ply) {
                return score;
            }
        }
        let original_alpha = alpha;
        let side = self.pos.side_to_move();
        let in_check = self.pos.in_check();
        let mut moves = mem::take(&mut self.moves[ply]);
        let mut scores = mem::take(&mut self.scores[ply]);
        let outcome = if in_check {
            self.pos.generate_search_moves(&mut moves)
        } else {
            self.pos.generate_tactical(&mut moves)
        };
        if let Some(outcome) = outcome {
            self.moves[ply] = moves;
            self.scores[ply] = scores;
            return outcome_score(&self.pos, outcome, ply);
        }
        let mut best = -INFINITY;
        if !in_check {
            let stand_pat = self.static_eval();
            let horizon = self.options.quiescence_plies;
            if stand_pat >= beta || moves.is_empty() || (horizon > 0 && qply >= horizon) {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if Some(mv.code()) == tt_code {
                TT_MOVE_SCORE
            } else {
                self.pos.order_hint(mv)
                    + if self.pos.is_tactical(mv) {
                        TACTICAL_BASE
                    } else {
                        0
                    }
            }
        }));
        let mut best_move = None;
        for i in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, i);
            self.pos.play(mv);
            let score = if self.pos.side_to_move() == side {
                self.quiescence(alpha, beta, ply + 1, qply + 1)
            } else {
                -self.quiescence(-beta, -alpha, ply + 1, qply + 1)
            };
            self.pos.undo(mv);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        if use_tt {
            self.store_result(key, best, best_move, original_alpha, beta, 0, ply);
        }
        best
    }
}
