//! Perft benchmarks: start position, with bulk counting (leaves counted at the last ply) and
//! without (every leaf played and taken back). `cargo bench -p xiangqi`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use xiangqi::Position;

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi perft");
    group.sample_size(10);
    let mut pos = Position::startpos();
    group.throughput(Throughput::Elements(3_290_240));
    group.bench_function("start depth 4 bulk", |b| {
        b.iter(|| assert_eq!(pos.perft(4), 3_290_240))
    });
    group.bench_function("start depth 4 no bulk", |b| {
        b.iter(|| assert_eq!(pos.perft_full(4), 3_290_240))
    });
    let mut p2 = Position::from_fen(
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    )
    .expect("valid FEN");
    group.throughput(Throughput::Elements(1_339_047));
    group.bench_function("p2 depth 4 bulk", |b| {
        b.iter(|| assert_eq!(p2.perft(4), 1_339_047))
    });
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
