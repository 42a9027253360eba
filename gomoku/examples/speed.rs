//! Quick speed probe: place + remove with full pattern update.
use game_core::Side;
use gomoku::{Board, Rule};
use std::time::Instant;

fn main() {
    let b0 = Board::from_moves(15, Rule::Renju, "h8i9g9i7i8g7j10k11h10j9h9").unwrap();
    let mut b = b0.clone();
    let pts: Vec<_> = b.points().filter(|&p| b.is_empty(p)).collect();
    let n = 3_000_000usize;
    let t = Instant::now();
    let mut acc = 0i64;
    for i in 0..n {
        let p = pts[i % pts.len()];
        let s = if i & 1 == 0 {
            Side::First
        } else {
            Side::Second
        };
        b.place(p, s);
        acc += b.total_value(Side::First) as i64;
        b.remove(p);
    }
    let dt = t.elapsed().as_secs_f64();
    println!("place+remove: {:.2} M/s (acc {acc})", n as f64 / dt / 1e6);
}
