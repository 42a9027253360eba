//! Every position and depth of `reference/xiangqi/perft.txt` (chessprogramming.org and
//! Fairy-Stockfish values). Counts above 5 M leaves are in the ignored test
//! `perft_reference_deep` (`cargo test -p xiangqi --release -- --ignored`).

use xiangqi::Position;

mod common;

const LIMIT: u64 = 5_000_000;

fn run(deep: bool) {
    let cases = common::perft_cases();
    assert_eq!(cases.len(), 13, "13 reference positions");
    let mut checked = 0;
    for common::PerftCase { id, fen, depths } in cases {
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{id}: {e}"));
        for (depth, nodes) in depths {
            if (nodes > LIMIT) != deep {
                continue;
            }
            assert_eq!(pos.perft(depth), nodes, "{id} perft {depth}");
            checked += 1;
        }
        assert_eq!(
            pos.to_fen(),
            fen,
            "{id}: perft leaves the position unchanged"
        );
    }
    assert!(checked > 0);
}

#[test]
fn perft_reference_shallow() {
    run(false);
}

#[test]
#[ignore = "slow: counts above 5 M leaves (about 10 s in release)"]
fn perft_reference_deep() {
    run(true);
}

#[test]
fn perft_without_bulk_counting_agrees() {
    let mut pos = Position::startpos();
    assert_eq!(pos.perft_full(3), 79_666);
    let mut p4 = Position::from_fen("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1").unwrap();
    assert_eq!(p4.perft_full(3), 9_850);
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let d = pos.divide(3);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 79_666);
    let h2e2 = d
        .iter()
        .find(|(m, _)| m.to_string() == "h2e2")
        .expect("h2e2 is legal");
    assert!(h2e2.1 > 0);
}

/// Ignored: prints start-position perft 5 speed with and without bulk counting.
#[test]
#[ignore = "measurement, run in release: cargo test -p xiangqi --release --test perft -- --ignored --nocapture speed"]
fn speed_start_perft5() {
    let mut pos = Position::startpos();
    let t = std::time::Instant::now();
    let n = pos.perft(5);
    let s = t.elapsed().as_secs_f64();
    assert_eq!(n, 133_312_995);
    println!(
        "bulk: {n} leaves in {s:.3} s = {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
    let t = std::time::Instant::now();
    let n = pos.perft_full(5);
    let s = t.elapsed().as_secs_f64();
    println!(
        "no bulk: {n} leaves in {s:.3} s = {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
}
