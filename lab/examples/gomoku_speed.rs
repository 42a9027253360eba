//! Speed probe (CPU time of this thread, so a loaded machine does not distort it):
//! place + remove with full pattern update, main-search nodes per second, VCF times.
//! `cargo run --release -p lab --example gomoku_speed`
use game_core::Side;
use gomoku::{Board, Engine, Limits, Rule, ThreatSolver};
use std::sync::atomic::AtomicBool;

/// CPU time of this thread in seconds (Linux `/proc/thread-self/schedstat`), wall time elsewhere.
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .next()
                .and_then(|v| v.parse::<f64>().ok())
        })
        .map_or_else(
            || {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_secs_f64()
            },
            |ns| ns / 1e9,
        )
}

fn main() {
    let b0 = Board::from_moves(15, Rule::Renju, "h8i9g9i7i8g7j10k11h10j9h9").unwrap();
    let mut b = b0.clone();
    let pts: Vec<_> = b.points().filter(|&p| b.is_empty(p)).collect();
    let n = 5_000_000usize;
    let t = cpu();
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
    let dt = cpu() - t;
    println!("place+remove: {:.2} M/s (check {acc})", n as f64 / dt / 1e6);

    for (rule, moves) in [
        (Rule::Freestyle, "h8i9g9"),
        (Rule::Renju, "h8i9g9i7i8g7j10k11h10j9h9"),
        (Rule::Standard, "h8i9j8"),
    ] {
        let b = Board::from_moves(15, rule, moves).unwrap();
        let mut e = Engine::new(64);
        let stop = AtomicBool::new(false);
        {
            let t = cpu();
            let r = e.main_search(&b, &[], &Limits::depth(8), &stop, &mut |_| {});
            let dt = cpu() - t;
            println!(
                "main search {rule} {moves}: depth {} nodes {} in {:.3} s cpu: {:.2} M nodes/s, best {:?}",
                r.depth,
                r.nodes,
                dt,
                r.nodes as f64 / dt / 1e6,
                r.best_move.map(|m| b.format_point(m))
            );
        }
    }

    let file = include_str!("../../reference/gomoku/vcf.txt");
    for line in file
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let probe = Board::new(15, Rule::Renju).unwrap();
        let side = if f[1] == "black" {
            Side::First
        } else {
            Side::Second
        };
        let b = Board::from_stones(
            15,
            Rule::Renju,
            &probe.parse_points(f[2]).unwrap(),
            &probe.parse_points(f[3]).unwrap(),
            Some(side),
        )
        .unwrap();
        // Short: wall time of 20 fresh solves (new tables each time), the slowest reported.
        let mut worst = 0f64;
        let mut line = Vec::new();
        let mut nodes = 0;
        for _ in 0..20 {
            let mut solver = ThreatSolver::new();
            let t = std::time::Instant::now();
            line = solver.vcf(&b, 30).expect("vcf");
            worst = worst.max(t.elapsed().as_secs_f64());
            nodes = solver.nodes();
        }
        println!(
            "vcf {}: {} plies, first {}, {} nodes, slowest of 20: {:.2} ms wall (incl. 2 MiB table allocation)",
            f[0],
            line.len(),
            b.format_point(line[0]),
            nodes,
            worst * 1e3
        );
    }
}
