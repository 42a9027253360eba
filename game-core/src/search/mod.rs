//! The shared negamax alpha-beta search.
//!
//! One search serves every game: principal variation search inside iterative deepening with
//! aspiration windows, a shared lock-free transposition table, move ordering (table move, the
//! game's hints, killer moves, history heuristic), check extension, quiescence, null-move
//! pruning and late-move reductions where the game allows them, distance-adjusted win and loss
//! scores, time, node and depth limits, and Lazy SMP over several threads.
//!
//! A move may leave the side to move unchanged (a connect6 turn is two stones, each one ply):
//! the search negates a child's score and window only when the side changed, so the window
//! `(alpha, beta)` passes through unchanged otherwise. The tests prove the search returns the
//! plain minimax value ([`minimax`]) on such a game.
//!
//! ```
//! # use game_core::search::{Limits, SearchOptions, Searcher};
//! # use game_core::{Evaluate, Position};
//! # use std::sync::atomic::AtomicBool;
//! // Any `P: Position` with an `E: Evaluate<P>`; see the crate docs for a complete game.
//! fn best<P: Position, E: Evaluate<P>>(pos: &P, eval: E) -> Option<P::Move> {
//!     let mut searcher = Searcher::new(eval, SearchOptions::default());
//!     let stop = AtomicBool::new(false);
//!     searcher.search(pos, &Limits::depth(6), &stop, |_| {}).best_move
//! }
//! ```

mod limits;
mod options;
mod ordering;
mod report;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub use limits::Limits;
pub use options::{
    CHECK_INTERVAL, MAX_DEPTH, MAX_HASH_MIB, MAX_PLY, MAX_THREADS, MIN_HASH_MIB, Pruning,
    SearchOptions,
};
pub use report::{PvLine, Report, SearchResult};
pub use tt::{Bound, TranspositionTable, TtEntry};

use ordering::Heuristics;
use worker::{Shared, Worker, outcome_score};

use crate::score::{INFINITY, is_mate_score};
use crate::{Evaluate, Move, Position, Score};

/// A searcher for positions of game `P` with evaluation `E`: owns the transposition table
/// and the ordering heuristics, which persist from one search to the next until
/// [`clear`](Searcher::clear).
pub struct Searcher<P: Position, E: Evaluate<P>> {
    evaluator: E,
    options: SearchOptions,
    tt: TranspositionTable,
    heuristics: Vec<Heuristics<P::Move>>,
}

impl<P: Position, E: Evaluate<P>> Searcher<P, E> {
    /// A searcher with `options` (the table is allocated now: `options.hash_mib` MiB).
    #[must_use]
    pub fn new(evaluator: E, options: SearchOptions) -> Self {
        let threads = options.threads.max(1);
        Searcher {
            evaluator,
            tt: TranspositionTable::new(options.hash_mib),
            heuristics: (0..threads).map(|_| Heuristics::new(MAX_PLY)).collect(),
            options: SearchOptions { threads, ..options },
        }
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The evaluator.
    #[must_use]
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// Reallocates the transposition table with `mib` MiB (its contents are lost).
    pub fn set_hash_mib(&mut self, mib: usize) {
        self.options.hash_mib = mib;
        self.tt = TranspositionTable::new(mib);
    }

    /// Sets the number of search threads (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        self.options.threads = threads;
        self.heuristics
            .resize_with(threads, || Heuristics::new(MAX_PLY));
    }

    /// Switches the check extension ([`SearchOptions::check_extension`]) on or off; the
    /// table stays (its entries were searched to at least their stored depth either way).
    pub fn set_check_extension(&mut self, on: bool) {
        self.options.check_extension = on;
    }

    /// Forgets everything learnt: the table, killers and history (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.iter_mut().for_each(Heuristics::clear);
    }

    /// Transposition table fill, per mille.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `position` within `limits` until done or until `stop` becomes true (set it
    /// from any thread), calling `on_report` after every completed iteration of the main
    /// thread. Returns the best move of the last completed iteration; if no iteration
    /// completed, the first move in the search's order.
    pub fn search<F>(
        &mut self,
        position: &P,
        limits: &Limits<P::Move>,
        stop: &AtomicBool,
        mut on_report: F,
    ) -> SearchResult<P::Move>
    where
        F: FnMut(&Report<P::Move>),
    {
        let start = Instant::now();
        self.tt.new_search();
        self.heuristics.iter_mut().for_each(Heuristics::age);

        let mut root_moves = Vec::new();
        let outcome = if limits.root_moves.is_empty() {
            position.generate_search_moves(&mut root_moves)
        } else {
            let outcome = position.generate_moves(&mut root_moves);
            root_moves.retain(|m| limits.root_moves.contains(m));
            outcome
        };
        root_moves.retain(|m| !limits.excluded_moves.contains(m));
        if outcome.is_some() || root_moves.is_empty() {
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score: outcome.map_or(0, |o| outcome_score(position, o, 0)),
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time_ms: elapsed_ms(start),
                pv: Vec::new(),
                lines: Vec::new(),
                outcome,
            };
        }
        // Initial order: table move, then the game's hints (tactical moves first).
        let tt_code = self.tt.probe(position.key()).and_then(|e| e.move_code);
        root_moves.sort_by_cached_key(|&m| {
            let tactical = i64::from(position.is_tactical(m)) << 32;
            let first = i64::from(Some(m.code()) == tt_code) << 40;
            std::cmp::Reverse(first + tactical + i64::from(position.order_hint(m)))
        });

        let shared = Shared {
            tt: &self.tt,
            stop,
            finished: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            start,
            hard_deadline: limits.hard_time.map(|t| start + t),
            node_limit: limits.nodes,
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let options = &self.options;
        let evaluator = &self.evaluator;
        let (main_heuristics, helper_heuristics) = self
            .heuristics
            .split_first_mut()
            .expect("at least one thread");

        std::thread::scope(|scope| {
            for (id, heuristics) in helper_heuristics.iter_mut().enumerate() {
                let shared = &shared;
                let root_moves = root_moves.clone();
                let pos = position.clone();
                scope.spawn(move || {
                    let mut worker = Worker::new(
                        pos, evaluator, shared, options, heuristics, root_moves, false,
                    );
                    // Lazy SMP: half the helpers run one ply ahead, so threads spread over
                    // depths and fill the shared table with different subtrees.
                    let offset = (id as u32 + 1) % 2 * limits.depth_step.max(1);
                    iterate(
                        &mut worker,
                        max_depth + offset,
                        offset,
                        limits,
                        options,
                        |_, _| {},
                    );
                    worker.flush_nodes();
                });
            }
            let mut main = Worker::new(
                position.clone(),
                evaluator,
                &shared,
                options,
                main_heuristics,
                root_moves.clone(),
                true,
            );
            let mut result = iterate(&mut main, max_depth, 0, limits, options, |worker, it| {
                let nodes = shared.nodes.load(Ordering::Relaxed) + worker.unflushed_nodes();
                let time_ms = elapsed_ms(start);
                on_report(&Report {
                    depth: it.depth,
                    seldepth: it.seldepth,
                    score: it.lines[0].score,
                    nodes,
                    nps: nodes * 1000 / time_ms.max(1),
                    time_ms,
                    hashfull: shared.tt.hashfull(),
                    pv: it.lines[0].pv.clone(),
                    lines: it.lines.clone(),
                });
            });
            main.flush_nodes();
            shared.finished.store(true, Ordering::Relaxed);
            result.time_ms = elapsed_ms(start);
            result
        })
        .with_total_nodes(shared.nodes.load(Ordering::Relaxed))
    }
}

impl<M> SearchResult<M> {
    fn with_total_nodes(mut self, nodes: u64) -> Self {
        self.nodes = nodes;
        self
    }
}

fn elapsed_ms(start: Instant) -> u64 {
    start.elapsed().as_millis() as u64
}

/// The result of one completed iteration: its principal variations, best first.
struct Iteration<M> {
    depth: u32,
    seldepth: u32,
    lines: Vec<PvLine<M>>,
}

/// One root search at `depth` with aspiration windows around `previous` (the last
/// iteration's score for this line) from depth 4 on, widening on a fail; a full window
/// otherwise. The score is meaningless when the worker aborted.
fn aspiration_search<P: Position, E: Evaluate<P>>(
    worker: &mut Worker<'_, P, E>,
    depth: u32,
    previous: Option<Score>,
    options: &SearchOptions,
) -> Score {
    match previous {
        Some(prev) if options.aspiration_windows && depth >= 4 && !is_mate_score(prev) => {
            let mut delta = 25;
            let (mut alpha, mut beta) = (prev - delta, prev + delta);
            loop {
                let score = worker.search_root(depth as i32, alpha, beta);
                if worker.aborted {
                    return score;
                }
                if score <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (score - delta).max(-INFINITY);
                } else if score >= beta {
                    beta = (score + delta).min(INFINITY);
                } else {
                    return score;
                }
                delta *= 2;
                if delta > 1000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            }
        }
        _ => worker.search_root(depth as i32, -INFINITY, INFINITY),
    }
}

/// The principal variation the worker's last root search found (its first root move when
/// the search found none, as after a fail-low).
fn root_line<P: Position, E: Evaluate<P>>(
    worker: &Worker<'_, P, E>,
    score: Score,
) -> PvLine<P::Move> {
    let mut pv = worker.root_pv().to_vec();
    if pv.is_empty() {
        pv.push(worker.root_moves[0]);
    }
    PvLine { score, pv }
}

/// Searches the `count` best root moves at `depth` one after the other, each root search
/// without the moves of the lines before it (Stockfish's MultiPV). Returns the lines best
/// first, or `None` when the worker aborted before the iteration was complete. The worker's
/// root moves are left in the lines' order, the rest after them.
fn multipv_iteration<P: Position, E: Evaluate<P>>(
    worker: &mut Worker<'_, P, E>,
    depth: u32,
    count: usize,
    previous: Option<&[PvLine<P::Move>]>,
    options: &SearchOptions,
) -> Option<Vec<PvLine<P::Move>>> {
    let all = worker.root_moves.clone();
    let count = count.min(all.len());
    let mut lines: Vec<PvLine<P::Move>> = Vec::with_capacity(count);
    for index in 0..count {
        worker.root_moves = all
            .iter()
            .copied()
            .filter(|m| lines.iter().all(|l| l.pv[0] != *m))
            .collect();
        // Only the first line is the position's true best: the others must not be stored
        // as the root's table entry.
        worker.store_root = index == 0;
        let prev = previous.and_then(|p| p.get(index)).map(|l| l.score);
        let score = aspiration_search(worker, depth, prev, options);
        if worker.aborted {
            worker.store_root = true;
            worker.root_moves = all;
            return None;
        }
        lines.push(root_line(worker, score));
    }
    worker.store_root = true;
    // Later lines can score above earlier ones (search instability): best first.
    lines.sort_by_key(|l| std::cmp::Reverse(l.score));
    let mut order: Vec<P::Move> = lines.iter().map(|l| l.pv[0]).collect();
    let rest: Vec<P::Move> = all.into_iter().filter(|m| !order.contains(m)).collect();
    order.extend(rest);
    worker.root_moves = order;
    Some(lines)
}

/// Iterative deepening with aspiration windows. `on_iteration` sees every completed
/// iteration (the main thread reports it).
fn iterate<P, E, F>(
    worker: &mut Worker<'_, P, E>,
    max_depth: u32,
    first_offset: u32,
    limits: &Limits<P::Move>,
    options: &SearchOptions,
    mut on_iteration: F,
) -> SearchResult<P::Move>
where
    P: Position,
    E: Evaluate<P>,
    F: FnMut(&Worker<'_, P, E>, &Iteration<P::Move>),
{
    let start = worker.start();
    let mut completed: Option<Iteration<P::Move>> = None;
    let mut pace = Pace::new(limits);
    let multipv = if worker.is_main {
        (limits.multipv.max(1) as usize).min(worker.root_moves.len())
    } else {
        1
    };
    // The first iteration: `first_offset` past the shallowest depth that differs from
    // the deepest by a multiple of the step.
    let step = limits.depth_step.max(1);
    let mut depth = (max_depth - first_offset - 1) % step + 1 + first_offset;
    while depth <= max_depth {
        let lines = if multipv > 1 {
            let previous = completed.as_ref().map(|it| it.lines.as_slice());
            multipv_iteration(worker, depth, multipv, previous, options)
        } else {
            let previous = completed.as_ref().map(|it| it.lines[0].score);
            let score = aspiration_search(worker, depth, previous, options);
            (!worker.aborted).then(|| vec![root_line(worker, score)])
        };
        let Some(lines) = lines else {
            // A root move searched in full in the unfinished iteration that beat the previous
            // best is the better move: its score came from a deeper search.
            if let Some(it) = completed.as_mut() {
                let partial = worker.root_pv();
                if multipv == 1 && !partial.is_empty() && partial[0] != it.lines[0].pv[0] {
                    it.lines[0].pv = partial.to_vec();
                }
            }
            break;
        };
        let score = lines[0].score;
        let iteration = Iteration {
            depth,
            seldepth: worker.seldepth,
            lines,
        };
        on_iteration(worker, &iteration);
        completed = Some(iteration);

        // A forced result proven within the horizon cannot change with more depth (for
        // MultiPV only once every line's result is proven).
        let proven = |s: Score| is_mate_score(s) && (crate::score::MATE - s.abs()) as u32 <= depth;
        let mate_found = completed
            .as_ref()
            .is_some_and(|it| it.lines.iter().all(|l| proven(l.score)));
        let soft_spent = worker.is_main && pace.spent(&iteration_best(&completed), start.elapsed());
        let only_move = worker.root_moves.len() == 1 && limits.soft_time.is_some();
        if (mate_found && proven(score)) || soft_spent || only_move {
            break;
        }
        depth += step;
    }
    let seldepth = worker.seldepth;
    let nodes = worker.nodes();
    match completed {
        Some(it) => SearchResult {
            best_move: it.lines[0].pv.first().copied(),
            ponder_move: it.lines[0].pv.get(1).copied(),
            score: it.lines[0].score,
            depth: it.depth,
            seldepth,
            nodes,
            time_ms: 0,
            pv: it.lines[0].pv.clone(),
            lines: it.lines,
            outcome: None,
        },
        None => SearchResult {
            best_move: Some(worker.root_moves[0]),
            ponder_move: None,
            score: 0,
            depth: 0,
            seldepth,
            nodes,
            time_ms: 0,
            pv: vec![worker.root_moves[0]],
            lines: vec![PvLine {
                score: 0,
                pv: vec![worker.root_moves[0]],
            }],
            outcome: None,
        },
    }
}

/// The best move and score of the last completed iteration (`None` before the first).
fn iteration_best<M: Copy>(completed: &Option<Iteration<M>>) -> Option<(M, Score)> {
    let line = &completed.as_ref()?.lines[0];
    Some((*line.pv.first()?, line.score))
}

/// Fraction of the (scaled) soft time after which no new iteration starts: the next one
/// costs about as much again as all before it, so iterations that end past this point end
/// on average near the soft time itself (measured against one half: `docs/experiments.md`).
pub const NEXT_ITERATION: f64 = 0.6;

/// When the main thread stops deepening, Stockfish's way: under a game clock (a soft time
/// below the hard one) the soft time is a target stretched while the search is in doubt and
/// shrunk while it is sure:
/// - the best move changed in recent iterations (each change counts 1, halved every
///   iteration): up to 2.5 times;
/// - the score fell against the iterations before (by up to 1.50 units): up to 1.5 times;
/// - the same best move for 6 iterations or more: 0.8 times.
///
/// With a fixed time per move (soft time at or above the hard deadline, or no soft time)
/// iterations start until the deadline, which cuts the last one short; its fully searched
/// better root moves still count ([`iterate`]).
struct Pace<M> {
    /// The soft time under a clock, else `None`.
    target: Option<Duration>,
    /// Best-move changes, each halved at every later iteration.
    changes: f64,
    /// The best move and the iterations it has stayed best.
    best: Option<(M, u32)>,
    /// The score of the previous iteration, and a running average of the ones before.
    scores: Option<(Score, f64)>,
}

impl<M: Copy + PartialEq> Pace<M> {
    fn new(limits: &Limits<M>) -> Pace<M> {
        let target = match (limits.soft_time, limits.hard_time) {
            (Some(soft), Some(hard)) if soft < hard => Some(soft),
            (Some(soft), None) => Some(soft),
            _ => None,
        };
        Pace {
            target,
            changes: 0.0,
            best: None,
            scores: None,
        }
    }

    /// The scale of the soft time after an iteration that chose `best` (its move and
    /// score).
    fn scale(&mut self, best: Option<(M, Score)>) -> f64 {
        let Some((mv, score)) = best else {
            return 1.0;
        };
        self.changes /= 2.0;
        match &mut self.best {
            Some((m, n)) if *m == mv => *n += 1,
            _ => {
                if self.best.is_some() {
                    self.changes += 1.0;
                }
                self.best = Some((mv, 1));
            }
        }
        let falling = match self.scores {
            Some((_, average)) if !is_mate_score(score) => {
                let drop = (average - f64::from(score)).clamp(0.0, 150.0);
                1.0 + drop / 300.0
            }
            _ => 1.0,
        };
        let average = match self.scores {
            Some((_, a)) if !is_mate_score(score) => (a + f64::from(score)) / 2.0,
            _ => f64::from(score),
        };
        self.scores = Some((score, average));
        let instability = 1.0 + 0.75 * self.changes.min(2.0);
        let stable = match self.best {
            Some((_, n)) if n >= 6 => 0.8,
            _ => 1.0,
        };
        instability * falling * stable
    }

    /// Whether the main thread starts no new iteration after one that chose `best`, at
    /// `elapsed` since the search began.
    fn spent(&mut self, best: &Option<(M, Score)>, elapsed: Duration) -> bool {
        let scale = self.scale(*best);
        self.target
            .is_some_and(|t| elapsed.as_secs_f64() >= t.as_secs_f64() * scale * NEXT_ITERATION)
    }
}

/// Plain full-width negamax to `depth` plies, without pruning, table or quiescence: the
/// reference the search is proven against. Exponential; for tests on small games.
///
/// Leaves are scored as the search scores them without quiescence: a finished game by its
/// outcome (wins and losses adjusted by ply distance), else the static evaluation clamped to
/// `-MAX_EVAL..=MAX_EVAL`. Like the search, it negates only when the side to move changes and
/// asks [`Position::rule_outcome`] at every node but the root.
pub fn minimax<P: Position, E: Evaluate<P>>(position: &mut P, evaluator: &E, depth: u32) -> Score {
    fn recurse<P: Position, E: Evaluate<P>>(
        pos: &mut P,
        eval: &E,
        depth: u32,
        ply: usize,
    ) -> Score {
        if ply > 0
            && let Some(outcome) = pos.rule_outcome(ply as u32)
        {
            return outcome_score(pos, outcome, ply);
        }
        let mut moves = Vec::new();
        if let Some(outcome) = pos.generate_search_moves(&mut moves) {
            return outcome_score(pos, outcome, ply);
        }
        if depth == 0 || ply >= MAX_PLY - 1 {
            return eval
                .evaluate(pos)
                .clamp(-crate::score::MAX_EVAL, crate::score::MAX_EVAL);
        }
        let side = pos.side_to_move();
        let mut best = -INFINITY;
        for mv in moves {
            pos.play(mv);
            let score = if pos.side_to_move() == side {
                recurse(pos, eval, depth - 1, ply + 1)
            } else {
                -recurse(pos, eval, depth - 1, ply + 1)
            };
            pos.undo(mv);
            best = best.max(score);
        }
        best
    }
    recurse(position, evaluator, depth, 0)
}

/// Duration helper for callers: `ms` milliseconds.
#[must_use]
pub const fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms)
}
