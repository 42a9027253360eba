//! Self-play: `cargo run --release -p gomoku --example gomoku_selfplay -- <rule> <size> <ms>`.
use gomoku::*;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rule = Rule::from_str(args.get(1).map_or("renju", |s| s)).unwrap();
    let size: usize = args.get(2).map_or(15, |s| s.parse().unwrap());
    let ms: u64 = args.get(3).map_or(200, |s| s.parse().unwrap());
    let mut b = Board::new(size, rule).unwrap();
    let mut engines = [Engine::new(32), Engine::new(32)];
    let stop = AtomicBool::new(false);
    let mut slowest = Duration::ZERO;
    while b.game_end().is_none() {
        let t = Instant::now();
        let i = b.side_to_move().index();
        let r = engines[i].think(
            &b,
            &EngineLimits::time(Duration::from_millis(ms)),
            &stop,
            |_| {},
        );
        slowest = slowest.max(t.elapsed());
        let mv = r.best_move.expect("move");
        print!("{}({:?} {}) ", b.format_point(mv), r.source, r.score);
        b.play_checked(mv).unwrap();
    }
    println!(
        "\n{b}\n{:?} after {} moves, slowest move {:?}",
        b.game_end(),
        b.history().len(),
        slowest
    );
    println!("{}", b.move_string());
}
