//! Speed of the shared search on a small k-in-a-row game with a random evaluation: nodes per
//! second of the search machinery itself (ordering, table, PVS), independent of any real game.

use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use game_core::Position;
use game_core::search::{Limits, SearchOptions, Searcher};

#[path = "../tests/common/k_in_a_row.rs"]
mod k_in_a_row;
use k_in_a_row::{Cell, KInARow, RandomEval};

fn bench_search(c: &mut Criterion) {
    let mut pos = KInARow::new(6, 6, 4, 1, 1);
    for cell in [14, 15, 21, 20] {
        pos.play(Cell(cell));
    }
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("k_in_a_row_6x6_depth6", |b| {
        b.iter(|| {
            let mut searcher = Searcher::new(RandomEval, SearchOptions::default());
            searcher
                .search(&pos, &Limits::depth(6), &AtomicBool::new(false), |_| {})
                .nodes
        })
    });
    group.finish();
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
