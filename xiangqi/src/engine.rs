//! The engine: the shared negamax search (`game_core::search`) with xiangqi's selectivity.
//! Every front end (UCCI, UCI, `qi play` and `qi analyze`, the bench) searches with
//! [`search_options`].

use game_core::search::{Pruning, SearchOptions};

/// The main search's selectivity (margins in evaluation units, a pawn about 40, a rook about
/// 300): reverse futility to depth 7 (30 a ply), move-count pruning to depth 6 keeping
/// `3 + depth²` moves (not at PV nodes; captures, checks and killers never pruned),
/// futility pruning of quiet moves that give no check to depth 6 where the static
/// evaluation is a pawn a ply below alpha (Stockfish's futility pruning at the parent), and
/// logarithmic late-move reductions of `ln(depth) · ln(move number) / 2` plies, one ply less
/// per 512 of the move's history above zero (more below it), at most two either way.
pub const PRUNING: Pruning = Pruning {
    futility_depth: 7,
    futility_margin: 30,
    lmp_depth: 6,
    lmp_base: 3,
    lmp_scale: 100,
    lmp_power: 200,
    lmr_divisor: 200,
    lmr_history_divisor: 512,
    move_futility_depth: 6,
    move_futility_margin: 40,
    ..Pruning::OFF
};

/// The options of xiangqi's main search: [`PRUNING`] and the shared defaults, with a table of
/// about `hash_mib` MiB and `threads` Lazy SMP threads. Every front end (UCCI, UCI, `qi play`
/// and `qi analyze`, the bench) searches with these.
#[must_use]
pub fn search_options(hash_mib: usize, threads: usize) -> SearchOptions {
    SearchOptions {
        hash_mib,
        threads,
        pruning: PRUNING,
        ..SearchOptions::default()
    }
}
