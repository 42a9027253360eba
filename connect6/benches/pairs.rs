//! Criterion benches: threat counting after a placement, search-move (pair) generation,
//! root pair generation and a fixed-depth engine search, on a middle-game 19x19 position.

use std::hint::black_box;

use connect6::engine::{Engine, EngineLimits};
use connect6::{Connect6, Point};
use criterion::{Criterion, criterion_group, criterion_main};
use game_core::{Position, Side};

/// An opening from engine self-play (White to move, 2 stones).
const GAME: &str = "j10 l8k7 h8h10";

fn bench(c: &mut Criterion) {
    let pos = Connect6::from_moves(19, GAME).unwrap();
    let mut empties = Vec::new();
    pos.generate_moves(&mut empties);

    c.bench_function(
        "threat count after a placement (place + count both sides + remove)",
        |b| {
            let mut p = pos.clone();
            let mut i = 0;
            b.iter(|| {
                let m = empties[i % empties.len()];
                i += 1;
                p.play(m);
                let t = p.threat_count(Side::First) + p.threat_count(Side::Second);
                p.undo(m);
                black_box(t)
            })
        },
    );

    c.bench_function("play + undo one stone", |b| {
        let mut p = pos.clone();
        let mut i = 0;
        b.iter(|| {
            let m = empties[i % empties.len()];
            i += 1;
            p.play(m);
            p.undo(m);
        })
    });

    c.bench_function("search stones (first-stone beam)", |b| {
        let mut moves = Vec::with_capacity(64);
        b.iter(|| black_box(pos.generate_search_moves(&mut moves)))
    });

    c.bench_function("pairs: first beam x second beam given the first", |b| {
        let mut p = pos.clone();
        let mut firsts = Vec::with_capacity(64);
        let mut seconds = Vec::with_capacity(64);
        b.iter(|| {
            let mut n = 0;
            p.generate_search_moves(&mut firsts);
            for &f in &firsts {
                p.play(f);
                p.generate_search_moves(&mut seconds);
                n += seconds.len();
                p.undo(f);
            }
            black_box(n)
        })
    });

    let forced = Connect6::from_stones(
        19,
        &[
            Point::new(9, 11),
            Point::new(3, 3),
            Point::new(15, 15),
            Point::new(2, 16),
            Point::new(16, 2),
        ],
        &[
            Point::new(6, 9),
            Point::new(7, 9),
            Point::new(8, 9),
            Point::new(9, 9),
            Point::new(3, 15),
            Point::new(15, 3),
        ],
        Side::First,
    )
    .unwrap();
    c.bench_function("search stones (forced replies to two threats)", |b| {
        let mut moves = Vec::with_capacity(64);
        b.iter(|| black_box(forced.generate_search_moves(&mut moves)))
    });

    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    group.bench_function("depth 3 turns, no threat search", |b| {
        b.iter(|| {
            let mut e = Engine::new(16);
            e.set_threat_search(false);
            black_box(e.think(
                &pos,
                &EngineLimits {
                    depth: Some(3),
                    time: None,
                    nodes: None,
                },
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
