//! The fixed benchmark `qi bench xiangqi` runs: a few positions searched to a fixed depth,
//! each with a fresh transposition table, one thread.
//!
//! The node count is a signature: any change to move generation, ordering, pruning or the
//! evaluation changes it, while it stays the same from run to run and machine to machine.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use game_core::search::{Limits, Searcher};

use crate::{Eval, Position};

/// The benchmark positions (FEN): the start, four middle games after common openings, two
/// endgames.
pub const BENCH_FENS: [&str; 7] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3n1c/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 0 1",
    "r1bakabr1/9/1cn1c1n2/p3p2Rp/2p3p2/2P6/P3P1P1P/1CN1C1N2/9/R1BAKAB2 w - - 0 1",
    "1rbakabr1/9/c1n4cn/p1p1p3p/6p2/2P6/P3P1P1P/N1C1C1N2/9/1RBAKAB1R w - - 0 1",
    "r1bakabr1/9/1cn3R2/p1p1p3p/6p2/9/P1P1P1PcP/1C2C1N2/9/RNBAKAB2 b - - 0 1",
    "2bak4/4a4/4b4/p3N3p/2p6/6R2/P1P3P1P/4B4/9/4KA3 w - - 0 1",
    "4kab2/4a4/4b4/3R5/9/2n6/9/4B4/4A4/3AK4 b - - 0 1",
];

/// The default benchmark depth.
pub const DEFAULT_DEPTH: u32 = 10;

/// Searches every [`BENCH_FENS`] position to `depth` plies (1..=120) with [`Eval`], a fresh
/// 16 MiB table and one thread; returns the total nodes (quiescence included: the node
/// signature) and the nodes per second over the whole run.
#[must_use]
pub fn run(depth: u32) -> (u64, u64) {
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    let start = Instant::now();
    for fen in BENCH_FENS {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        let mut searcher = Searcher::new(Eval, crate::search_options(16, 1));
        let result = searcher.search(&pos, &Limits::depth(depth.clamp(1, 120)), &stop, |_| {});
        nodes += result.nodes;
    }
    let micros = start.elapsed().as_micros().max(1) as u64;
    (nodes, nodes * 1_000_000 / micros)
}

#[cfg(test)]
mod tests {
    /// The node count is a signature: the same from run to run.
    #[test]
    fn signature_is_deterministic() {
        let (a, _) = super::run(4);
        let (b, _) = super::run(4);
        assert!(a > 1000);
        assert_eq!(a, b);
    }
}
