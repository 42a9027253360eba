//! The engine: immediate wins and forced blocks, VCF at the root (ours, then the defence
//! against the opponent's), a short VCT, then the main alpha-beta search.
//!
//! The main search is the shared `game_core::search::Searcher`, called from one function,
//! [`Engine::main_search`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use game_core::score::{mate_in, mated_in};
use game_core::{Position, Score};

use game_core::search::{Limits, Pruning, PvLine, Report, SearchOptions, Searcher};

use game_frame::{LevelPick, LevelSettings, Rules};

use crate::board::Board;
use crate::eval::Evaluator;
use crate::pattern::Class;
use crate::point::Point;
use crate::threat::ThreatSolver;

/// The main search's selectivity, in [`Board::evaluate`] units (an open three is worth about
/// 200), after Rapfi's classical search:
/// - reverse futility to depth 8, 120 a ply;
/// - late-move (move-count) pruning at every depth and at PV nodes, keeping `5 + depth^1.32`
///   moves (Rapfi keeps `3 + ...`), and in mate windows once a searched move does not lose
///   ([`Pruning::lmp_mate`], Rapfi's rule), so the search proves threat sequences the root
///   solvers miss;
/// - logarithmic late-move reductions of `ln(depth) · ln(move number)` plies, one ply more
///   for a quiet move at a cut node (Rapfi adds 1.8), and a fail-high reduction at a cut node
///   whose evaluation is at least `beta + 30 · depth` (Rapfi's `-9 + 15 · depth` in its
///   units, about half of ours);
/// - mate razoring to depth 2 ([`Pruning::mate_razor_depth`], Rapfi's razoring with VCF where
///   alpha is a win) with the quick win check (`Position::forced_result`).
///
/// Each setting was kept by self-play SPRT and matches against Rapfi; the figures, and the
/// variants that lost, are in `docs/experiments.md`.
pub const PRUNING: Pruning = Pruning {
    futility_depth: 8,
    futility_margin: 120,
    razor_depth: 0,
    razor_margin: 0,
    lmp_depth: MAX_DEPTH as i32,
    lmp_base: 5,
    lmp_scale: 100,
    lmp_power: 132,
    lmp_pv: true,
    lmp_mate: true,
    mate_razor_depth: 2,
    singular_depth: 7,
    singular_margin: 2,
    fail_high_margin: 30,
    cut_node_reduction: 1,
    lmr_divisor: 100,
    ..Pruning::OFF
};

/// Quiescence (our fours and their blocks) stops after this many plies: a VCF longer than
/// that is the root solver's job.
pub const QUIESCENCE_PLIES: u32 = 12;

/// Node limit of the root VCT (about 0.2 s here): a deeper VCT costs the main search more
/// than it finds.
const VCT_NODES: u64 = 200_000;

/// Deepest main-search iteration.
pub const MAX_DEPTH: u32 = game_core::search::MAX_DEPTH;

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
    /// The main search's principal variations, best first ([`Engine::set_multipv`]); empty
    /// when no main search decided.
    pub lines: Vec<PvLine<Point>>,
}

/// The gomoku engine: threat solver and main search, with their tables.
pub struct Engine {
    solver: ThreatSolver,
    searcher: Searcher<Board, Evaluator>,
    start: Instant,
    stop: Option<Arc<AtomicBool>>,
    /// Principal variations the main search finds (1: the best only).
    multipv: u32,
    /// Whether the VCF and VCT searches run before the main search.
    threat_search: bool,
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
        Engine {
            solver: ThreatSolver::new(),
            searcher: Searcher::new(
                Evaluator,
                SearchOptions {
                    hash_mib: hash_mib.max(1),
                    pruning: PRUNING,
                    quiescence_tt: true,
                    quiescence_plies: QUIESCENCE_PLIES,
                    ..SearchOptions::default()
                },
            ),
            start: Instant::now(),
            stop: None,
            multipv: 1,
            threat_search: true,
        }
    }

    /// The number of principal variations the main search finds (MultiPV; at least 1):
    /// [`EngineResult::lines`]. A weakened level chooses among them.
    pub fn set_multipv(&mut self, lines: u32) {
        self.multipv = lines.max(1);
    }

    /// Whether our VCF and VCT and the check of the opponent's VCF run before the main
    /// search (default on). Off, the engine plays as a person who sees a five and an open
    /// four but no longer threat sequence: the weak levels.
    pub fn set_threat_search(&mut self, on: bool) {
        self.threat_search = on;
    }

    /// Resizes the transposition table to about `hash_mib` MiB (clears it).
    pub fn set_hash_mib(&mut self, hash_mib: usize) {
        let threads = self.searcher.options().threads;
        let stop = self.stop.take();
        let (multipv, threat_search) = (self.multipv, self.threat_search);
        *self = Engine::new(hash_mib);
        self.searcher.set_threads(threads);
        self.set_stop_flag(stop);
        self.multipv = multipv;
        self.threat_search = threat_search;
    }

    /// A flag that, set from another thread, also aborts the root threat searches of every
    /// following [`Engine::think`] (the `stop` argument of `think` reaches the main search
    /// only). A protocol that stops searches from its input reader passes the same flag to
    /// both. `None` removes it.
    pub fn set_stop_flag(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.solver.set_stop(stop.clone());
        self.stop = stop;
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.solver.clear();
        self.searcher.clear();
    }

    /// Sets the number of main-search threads (Lazy SMP; 1 is deterministic).
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads);
    }

    /// [`Engine::think`] with `multipv` principal variations (0 and 1: one) at a strength
    /// `level` (`None`: full strength): the level's settings
    /// ([`game_frame::Rules::level_settings`]) cap the limits and may
    /// leave out the threat searches, and the move, score and principal variation are those of
    /// the line the level's skill chooses among the main search's. The engine's own MultiPV
    /// and threat-search settings are restored afterwards.
    pub fn think_at(
        &mut self,
        board: &Board,
        limits: &Limits<Point>,
        multipv: u32,
        level: Option<LevelPick>,
        stop: &AtomicBool,
        progress: impl FnMut(&Report<Point>),
    ) -> EngineResult {
        let settings = level.map(<Board as Rules>::level_settings);
        let skill = settings.and_then(|s| s.skill);
        let mut limits = limits.clone();
        if let Some(s) = &settings {
            limits.depth = LevelSettings::cap(limits.depth, s.depth);
            limits.nodes = LevelSettings::cap(limits.nodes, s.nodes);
        }
        let saved = (self.multipv, self.threat_search);
        self.multipv = multipv.max(skill.map_or(1, |s| s.multipv)).max(1);
        self.threat_search = saved.1 && settings.is_none_or(|s| s.threat_search);
        let mut result = self.think(board, &limits, stop, progress);
        (self.multipv, self.threat_search) = saved;
        let chosen = skill.map_or(0, |s| s.choose(&result.lines, board.key()));
        if chosen > 0
            && let Some(line) = result.lines.get(chosen)
        {
            result.best_move = line.pv.first().copied();
            result.score = line.score;
            result.pv = line.pv.clone();
        }
        result
    }

    /// Chooses a move for the side to move of `board` within `limits` (depth and nodes bound
    /// the main search, the times the whole decision; the root moves and principal variations
    /// are the engine's: every move, [`Engine::set_multipv`]); `stop` (set from any thread)
    /// ends the search early; `progress` is called after every main-search iteration.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits<Point>,
        stop: &AtomicBool,
        mut progress: impl FnMut(&Report<Point>),
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
                lines: Vec::new(),
            };
        if board.game_end().is_some() {
            return EngineResult {
                best_move: None,
                score: 0,
                pv: vec![],
                depth: 0,
                nodes: 0,
                source: Source::GameOver,
                lines: Vec::new(),
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
                lines: Vec::new(),
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
        if !self.threat_search {
            return self.main_search(board, &[], limits, stop, &mut progress);
        }
        let hard = limits.hard_time;
        // Threat searches get shares of the time: our VCF a quarter, the opponent's VCF an
        // eighth and its defences another eighth, our VCT an eighth.
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
            // Our VCT (short, at most an eighth of the time: the main search finds most
            // threat wins itself), unless the opponent answers its first move with a VCF.
            self.solver.set_node_limit(VCT_NODES);
            self.solver.set_deadline(share(1, 8));
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

    /// The main search: the shared `game_core::search::Searcher` (PVS, iterative deepening,
    /// aspiration, TT, killers, history, four extension, four quiescence, LMR) over
    /// `root_moves` (all search moves when empty). The time limits count from the start of
    /// [`Engine::think`] (or of this call when called directly).
    pub fn main_search(
        &mut self,
        board: &Board,
        root_moves: &[Point],
        limits: &Limits<Point>,
        stop: &AtomicBool,
        progress: &mut impl FnMut(&Report<Point>),
    ) -> EngineResult {
        let spent = self.start.elapsed();
        let direct = spent > Duration::from_secs(3600) || limits.hard_time.is_none();
        let left = |t: Option<Duration>| {
            t.map(|t| {
                if direct {
                    t
                } else {
                    t.saturating_sub(spent).max(Duration::from_millis(1))
                }
            })
        };
        let search_limits = Limits {
            soft_time: left(limits.soft_time),
            hard_time: left(limits.hard_time),
            root_moves: root_moves.to_vec(),
            multipv: self.multipv,
            ..limits.clone()
        };
        let r = self.searcher.search(board, &search_limits, stop, progress);
        EngineResult {
            best_move: r.best_move,
            score: r.score,
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
            source: Source::Search,
            lines: r.lines,
        }
    }
}

/// One-call engine entry point: a fresh [`Engine`] (16 MiB table) thinks about `board` within
/// `limits`.
#[must_use]
pub fn best_move(board: &Board, limits: &Limits<Point>) -> EngineResult {
    let stop = AtomicBool::new(false);
    Engine::new(16).think(board, limits, &stop, |_| {})
}
