//! Runs the benchmark and a timed search from the start position:
//! `cargo run --release -p xiangqi --example xiangqi_bench -- [depth] [seconds]`.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use game_core::search::{Limits, SearchOptions, Searcher};
use xiangqi::{Eval, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(xiangqi::bench::DEFAULT_DEPTH);
    let seconds: f64 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5.0);
    let t = Instant::now();
    let (nodes, nps) = xiangqi::bench::run(depth);
    println!(
        "bench depth {depth}: {nodes} nodes, {nps} nodes/s, {:.2} s",
        t.elapsed().as_secs_f64()
    );

    let mut searcher = Searcher::new(
        Eval,
        SearchOptions {
            hash_mib: 64,
            ..SearchOptions::default()
        },
    );
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(30),
        hard_time: Some(Duration::from_secs_f64(seconds)),
        ..Limits::default()
    };
    let r = searcher.search(&Position::startpos(), &limits, &stop, |r| {
        let pv: Vec<String> = r.pv.iter().map(ToString::to_string).collect();
        println!(
            "depth {:2} seldepth {:3} score {:5} nodes {:10} nps {:8} time {:6} ms pv {}",
            r.depth,
            r.seldepth,
            r.score,
            r.nodes,
            r.nps,
            r.time_ms,
            pv.join(" ")
        );
    });
    println!(
        "start position, {seconds} s: depth {} best {:?}",
        r.depth, r.best_move
    );
}
