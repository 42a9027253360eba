//! The search's settings and bounds: [`SearchOptions`] (which parts are on, the table and the
//! threads), [`Pruning`] (the selective pruning a game turns on) and the bounds every
//! interface shares (plies, depth, table size, threads, how often the stop flag is read).

#[cfg(doc)]
use crate::Position;
use crate::Score;

/// The deepest ply the search reaches (iterations, extensions and quiescence included).
pub const MAX_PLY: usize = 128;

/// The deepest iteration.
pub const MAX_DEPTH: u32 = MAX_PLY as u32 - 8;

/// The smallest transposition table every interface accepts, in MiB (UCI `Hash`, UCCI
/// `hashsize`, Gomocup `hash_size`, `--hash`).
pub const MIN_HASH_MIB: usize = 1;

/// The largest transposition table every interface accepts, in MiB (16 GiB). A larger request
/// is refused or clamped by the interface; [`TranspositionTable::new`](super::TranspositionTable::new) clamps to it too and
/// halves the table until the memory can be had.
pub const MAX_HASH_MIB: usize = 16_384;

/// The most search threads every interface accepts (UCI `Threads`, UCCI `threads`, Gomocup
/// `thread_num`, `--threads`).
pub const MAX_THREADS: usize = 256;

/// Nodes a thread searches between two checks of the stop flag, deadline and node limit.
/// At the slowest game's speed (about 1 M nodes/s) this is a quarter of a millisecond.
pub const CHECK_INTERVAL: u64 = 256;

/// Which parts of the search are on, and its resources.
///
/// The defaults turn everything on; a game's unsound aids (null move, late-move reductions)
/// still run only where the game allows them ([`Position::null_move_allowed`],
/// [`Position::LATE_MOVE_REDUCTIONS`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Transposition table size in MiB (UCI `Hash`). Default 16.
    pub hash_mib: usize,
    /// Search threads (Lazy SMP); 1 is deterministic. Default 1.
    pub threads: usize,
    /// Use the transposition table for cut-offs and move ordering.
    pub transposition_table: bool,
    /// Aspiration windows around the previous iteration's score from depth 4 on.
    pub aspiration_windows: bool,
    /// Killer-move ordering.
    pub killers: bool,
    /// History-heuristic ordering.
    pub history: bool,
    /// Null-move pruning where the game allows it.
    pub null_move: bool,
    /// Late-move reductions where the game allows them.
    pub late_move_reductions: bool,
    /// One ply more for moves after which the side to move is in check.
    pub check_extension: bool,
    /// Quiescence search at the horizon for games that provide it.
    pub quiescence: bool,
    /// Score the wins and losses a game proves without search
    /// ([`Position::forced_result`]) as mates at every node but the root.
    pub forced_results: bool,
    /// Cut off on a table entry only when it was searched to exactly the depth needed, not
    /// deeper. Normal play wants deeper entries (they are better information); the proof
    /// against fixed-depth [`minimax`](super::minimax) needs equal depth, because a position reached by paths
    /// of different lengths has different fixed-depth values. Default false.
    pub equal_depth_cutoffs: bool,
    /// Probe and store the transposition table in quiescence too (depth-0 entries): a game
    /// whose quiescence moves commute (gomoku's fours) reaches the same positions by many
    /// orders. Default false.
    pub quiescence_tt: bool,
    /// Plies of quiescence after the horizon beyond which a node not in check stands pat
    /// (0: unbounded).
    pub quiescence_plies: u32,
    /// Shallow-depth selectivity a game opts into, with margins in its own evaluation units
    /// (off by default: [`Pruning::OFF`]).
    pub pruning: Pruning,
}

/// Selective pruning at shallow depth (the Stockfish family's reverse futility, razoring and
/// late-move pruning, and logarithmic late-move reductions). Margins are in the game's
/// evaluation units, so each game sets its own; a depth limit of 0 switches a technique off.
/// Non-PV nodes only, never in check (a game's [`Position::in_check`]), never near a mate score
/// (late-move pruning may opt in: [`Pruning::lmp_mate`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Pruning {
    /// Reverse futility (static null move): at depth `<= futility_depth` a node whose static
    /// evaluation minus `futility_margin * depth` is still `>= beta` returns the evaluation.
    pub futility_depth: i32,
    /// Margin per ply of depth for reverse futility.
    pub futility_margin: Score,
    /// Razoring: at depth `<= razor_depth` a node whose static evaluation plus
    /// `razor_margin * depth` is `<= alpha` is verified by quiescence and returns its score
    /// when quiescence also fails low.
    pub razor_depth: i32,
    /// Margin per ply of depth for razoring.
    pub razor_margin: Score,
    /// Late-move (move-count) pruning: at depth `<= lmp_depth` only the first
    /// `lmp_base + lmp_scale / 100 * depth^(lmp_power / 100)` moves are searched; later quiet
    /// moves (not [`Position::is_tactical`], not killers) are skipped once a move has been
    /// searched. Rapfi prunes this way at every depth with `3 + depth^1.32`.
    pub lmp_depth: i32,
    /// Move count kept at any depth by late-move pruning.
    pub lmp_base: i32,
    /// Growth of the kept move count with depth (in hundredths: 100 = one move per
    /// `depth^(lmp_power / 100)`).
    pub lmp_scale: i32,
    /// Exponent of the depth in the kept move count, in hundredths (200: depth²).
    pub lmp_power: i32,
    /// Late-move pruning at PV nodes too (never at the root).
    pub lmp_pv: bool,
    /// Late-move pruning in a window with a mate score at either end too (Rapfi and
    /// Stockfish prune in any window), there only once a searched move does not lose: a node
    /// whose every searched move is mated searches on, so that a proof of a loss never rests
    /// on a skipped defence. Without it late-move pruning stops in mate windows, and
    /// the search that has to prove a threat sequence searches every move (gomoku's threat
    /// proofs nearly double with it: `docs/experiments.md`). Outside mate windows nothing
    /// changes, but note that mate distance pruning makes beta a mate score at every
    /// full-window PV node, so with `lmp_pv` those nodes count as mate windows and play
    /// changes even at depth 3.
    pub lmp_mate: bool,
    /// Mate razoring (Rapfi's razoring with VCF where alpha is a win): at depth
    /// `<= mate_razor_depth` a non-PV node not in check whose alpha is a mate score for the
    /// side to move (it has to prove a win) and that has no transposition-table entry yet
    /// returns its quiescence score (our tactical moves only); the next iteration, which finds
    /// the entry, searches it in full. It only fails low where a full search might prove a
    /// win, so no mate it reports is false. 0: off.
    pub mate_razor_depth: i32,

    /// Singular extension: from this depth on (0: off), a node whose table move failed high
    /// at nearly this depth searches the other moves at half depth against the table score
    /// less `singular_margin * depth`; when all of them fail low the table move is singular
    /// and gets one ply more, and when even that reduced window fails high at or above beta
    /// the node returns (multi-cut). Stockfish's and Rapfi's singular extension. Not tried in
    /// a window with a mate score at either end: a multi-cut on a reduced search would hide a
    /// forced win (`tests/search.rs` proves the mates stay exact).
    pub singular_depth: i32,
    /// Margin per ply of depth below the table score for the singular test.
    pub singular_margin: Score,

    /// Fail-high reduction (Rapfi): at a non-PV node expected to fail high (a cut node: the
    /// first move of an all node's child, or a reduced null-window probe) whose static
    /// evaluation is at least `beta + fail_high_margin * depth`, quiet moves are searched one
    /// ply shallower; 0: off. Not in check and not in a window with a mate score.
    pub fail_high_margin: Score,
    /// Extra late-move reduction in plies for a reduced move at a cut node (Rapfi's
    /// "no-killer cut-node reduction"; killers are never reduced); 0: off.
    pub cut_node_reduction: i32,

    /// Late-move reductions from a table `ln(depth) * ln(move number) * 100 / lmr_divisor`
    /// plies (rounded down) instead of the fixed 1-3 plies; 0 keeps the fixed reductions.
    pub lmr_divisor: i32,
    /// History in late-move reductions: a reduced quiet move's reduction shrinks by its
    /// history score over `lmr_history_divisor` (a move that often failed high is reduced
    /// less, one that often failed low more), at most two plies either way; 0: off.
    /// Stockfish's statistics-based reduction.
    pub lmr_history_divisor: i32,

    /// Null-move reduction: `null_move_base + depth / null_move_divisor` plies, plus one ply
    /// per `null_move_eval_divisor` of static evaluation above beta (at most three; 0: none).
    pub null_move_base: i32,
    /// Depth per extra ply of null-move reduction.
    pub null_move_divisor: i32,
    /// Evaluation above beta per extra ply of null-move reduction; 0: the evaluation adds none.
    pub null_move_eval_divisor: Score,

    /// Futility pruning of moves: at a non-PV node of depth `<= move_futility_depth` whose
    /// static evaluation plus `move_futility_margin * depth` is still `<= alpha`, quiet moves
    /// that give no check (not tactical, not killers) are skipped once a move has been
    /// searched; 0: off. Stockfish's futility pruning at the parent.
    pub move_futility_depth: i32,
    /// Margin per ply of depth for futility pruning of moves.
    pub move_futility_margin: Score,
}

impl Pruning {
    /// No selective pruning; the fixed late-move reductions; a null-move reduction of
    /// `2 + depth / 4` where the options allow null moves.
    pub const OFF: Pruning = Pruning {
        futility_depth: 0,
        futility_margin: 0,
        razor_depth: 0,
        razor_margin: 0,
        lmp_depth: 0,
        lmp_base: 0,
        lmp_scale: 0,
        lmp_power: 200,
        lmp_pv: false,
        lmp_mate: false,
        mate_razor_depth: 0,
        singular_depth: 0,
        singular_margin: 0,
        fail_high_margin: 0,
        cut_node_reduction: 0,
        lmr_divisor: 0,
        lmr_history_divisor: 0,
        null_move_base: 2,
        null_move_divisor: 4,
        null_move_eval_divisor: 0,
        move_futility_depth: 0,
        move_futility_margin: 0,
    };
}

impl Default for Pruning {
    fn default() -> Self {
        Pruning::OFF
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            hash_mib: 16,
            threads: 1,
            transposition_table: true,
            aspiration_windows: true,
            killers: true,
            history: true,
            null_move: true,
            late_move_reductions: true,
            check_extension: true,
            quiescence: true,
            forced_results: true,
            equal_depth_cutoffs: false,
            quiescence_tt: false,
            quiescence_plies: 0,
            pruning: Pruning::OFF,
        }
    }
}

impl SearchOptions {
    /// Only the sound enhancements: the table (with equal-depth cut-offs), aspiration, PVS and
    /// ordering, with null move, late-move reductions, check extension, quiescence and forced
    /// results off. A
    /// search with these options returns exactly the [`minimax`](super::minimax) value at the same depth (for
    /// games whose [`Position::rule_outcome`] does not depend on the path).
    #[must_use]
    pub fn exact() -> Self {
        SearchOptions {
            null_move: false,
            late_move_reductions: false,
            check_extension: false,
            quiescence: false,
            forced_results: false,
            equal_depth_cutoffs: true,
            ..SearchOptions::default()
        }
    }
}
