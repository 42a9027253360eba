//! Gomoku benchmarks: place + remove with full pattern update, move generation, main-search
//! nodes, and the reference VCFs. `cargo bench -p gomoku`.

use std::hint::black_box;
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use game_core::{Position, Side};
use gomoku::{Board, Engine, Limits, Rule, ThreatSolver};

const VCF: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/gomoku/vcf.txt"
));

fn vcf_positions() -> Vec<(String, Board)> {
    VCF.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
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
            (f[0].to_string(), b)
        })
        .collect()
}

fn benches(c: &mut Criterion) {
    let board = Board::from_moves(15, Rule::Renju, "h8i9g9i7i8g7j10k11h10j9h9").unwrap();
    let points: Vec<_> = board.points().filter(|&p| board.is_empty(p)).collect();
    c.bench_function("place_remove_x100", |bench| {
        let mut b = board.clone();
        bench.iter(|| {
            for (i, &p) in points.iter().cycle().take(100).enumerate() {
                b.place(
                    p,
                    if i & 1 == 0 {
                        Side::First
                    } else {
                        Side::Second
                    },
                );
                black_box(b.total_value(Side::First));
                b.remove(p);
            }
        })
    });
    c.bench_function("generate_search_moves", |bench| {
        let mut moves = Vec::with_capacity(256);
        bench.iter(|| black_box(&board).generate_search_moves(&mut moves))
    });
    for (rule, moves) in [
        (Rule::Freestyle, "h8i9g9"),
        (Rule::Standard, "h8i9j8"),
        (Rule::Renju, "h8i9g9i7i8"),
    ] {
        let b = Board::from_moves(15, rule, moves).unwrap();
        c.bench_function(&format!("search_depth6_{rule}"), |bench| {
            bench.iter(|| {
                let mut e = Engine::new(16);
                let stop = AtomicBool::new(false);
                black_box(
                    e.main_search(&b, &[], &Limits::depth(6), &stop, &mut |_| {})
                        .nodes,
                )
            })
        });
    }
    for (id, b) in vcf_positions() {
        c.bench_function(&format!("vcf_{id}"), |bench| {
            bench.iter(|| black_box(ThreatSolver::new().vcf(&b, 30).expect("vcf").len()))
        });
    }
}

criterion_group! {
    name = group;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(group);
