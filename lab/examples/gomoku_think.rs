//! Engine probe: `cargo run --release -p lab --example gomoku_think -- <rule> <moves> <ms>`.
use gomoku::*;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = Rule::from_str(args.get(1).map_or("freestyle", |s| s)).unwrap();
    let moves = args.get(2).map_or("h8", |s| s);
    let ms: u64 = args.get(3).map_or(1000, |s| s.parse().unwrap());
    let b = Board::from_moves(15, rule, moves).unwrap();
    println!("{b}");
    let mut e = Engine::new(64);
    let stop = AtomicBool::new(false);
    let r = e.think(&b, &Limits::time(Duration::from_millis(ms)), &stop, |p| {
        println!(
            "depth {} score {} nodes {} time {} nps {} pv {}",
            p.depth,
            p.score,
            p.nodes,
            p.time_ms,
            p.nodes * 1000 / p.time_ms.max(1),
            p.pv.iter()
                .map(|&m| b.format_point(m))
                .collect::<Vec<_>>()
                .join(" ")
        )
    });
    println!(
        "best {:?} score {} source {:?} nodes {}",
        r.best_move.map(|m| b.format_point(m)),
        r.score,
        r.source,
        r.nodes
    );
}
