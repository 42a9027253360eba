//! Measures perft speed: `cargo run --release -p xiangqi --example xiangqi_perft -- [depth] [fen]`.
//! Prints leaves, time and leaves/s with bulk counting, then without (every leaf played).

use std::time::Instant;

use xiangqi::Position;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen: Vec<String> = args.collect();
    let mut pos = if fen.is_empty() {
        Position::startpos()
    } else {
        Position::from_fen(&fen.join(" ")).unwrap_or_else(|e| panic!("{e}"))
    };
    let t = Instant::now();
    let n = pos.perft(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "bulk    perft {depth}: {n} leaves in {s:.3} s = {:.2} M leaves/s",
        n as f64 / s / 1e6
    );
    let t = Instant::now();
    let n2 = pos.perft_full(depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "no bulk perft {depth}: {n2} leaves in {s:.3} s = {:.2} M leaves/s",
        n2 as f64 / s / 1e6
    );
}
