//! Depth probe: the depth the engine reaches on [`gomoku::bench::MIDDLE_GAME`] in a given time,
//! or, with `d<N>`, the nodes and time of a fixed-depth main search (no root threat search) on
//! the same positions: equal node totals before and after a change mean the same search, so
//! the time compares speed alone.
//! `cargo run --release -p lab --example gomoku_depth -- [ms | dN]` (default 1000).
use gomoku::{Board, Engine, Limits, bench::MIDDLE_GAME};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "1000".into());
    if let Some(depth) = arg.strip_prefix('d') {
        fixed_depth(depth.parse().expect("depth in plies"));
        return;
    }
    let ms: u64 = arg.parse().expect("milliseconds");
    let (mut depths, mut nodes, mut secs) = (0u32, 0u64, 0f64);
    for (rule, moves) in MIDDLE_GAME {
        let b = Board::from_moves(15, rule, moves).expect("bench position");
        let mut e = Engine::new(64);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let mut seldepth = 0;
        // Time before the main search's clock started: the root threat searches.
        let mut threats_ms = None;
        let r = e.think(&b, &Limits::time(Duration::from_millis(ms)), &stop, |p| {
            seldepth = p.seldepth;
            threats_ms.get_or_insert(t.elapsed().as_millis() as u64 - p.time_ms);
        });
        let spent = t.elapsed().as_secs_f64();
        println!(
            "{:<9} {:<42} {:<4} depth {:>2}/{:<2} score {:>6} nodes {:>9} time {:>5.0} ms \
             (threats {:>3} ms) {:?}",
            format!("{rule:?}"),
            moves,
            r.best_move.map_or("-".into(), |m| b.format_point(m)),
            r.depth,
            seldepth,
            r.score,
            r.nodes,
            spent * 1e3,
            threats_ms.unwrap_or(0),
            r.source
        );
        depths += r.depth;
        nodes += r.nodes;
        secs += spent;
    }
    println!(
        "mean depth {:.1}, {:.0} nodes/s",
        f64::from(depths) / MIDDLE_GAME.len() as f64,
        nodes as f64 / secs
    );
}

/// The main search alone to `depth` on every position: nodes, best move, time.
fn fixed_depth(depth: u32) {
    let (mut nodes, mut secs) = (0u64, 0f64);
    for (rule, moves) in MIDDLE_GAME {
        let b = Board::from_moves(15, rule, moves).expect("bench position");
        let mut e = Engine::new(64);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let r = e.main_search(&b, &[], &Limits::depth(depth), &stop, &mut |_| {});
        let spent = t.elapsed().as_secs_f64();
        println!(
            "{:<9} {:<4} score {:>6} nodes {:>9} time {:>6.0} ms",
            format!("{rule:?}"),
            r.best_move.map_or("-".into(), |m| b.format_point(m)),
            r.score,
            r.nodes,
            spent * 1e3,
        );
        nodes += r.nodes;
        secs += spent;
    }
    println!(
        "depth {depth}: {nodes} nodes in {:.2} s, {:.0} nodes/s",
        secs,
        nodes as f64 / secs
    );
}
