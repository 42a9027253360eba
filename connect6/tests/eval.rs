//! Window counts, threat counting and the evaluation against naive recomputation.

mod common;

use connect6::tune::{TEMPO, window};
use connect6::{Cell, Connect6, Point, ThreatEval, WEIGHTS};
use game_core::{Evaluate, Position, Side};
use proptest::prelude::*;

/// Window values by stone count, from the evaluation's weights (0 for none and for six).
const WEIGHT: [i32; 7] = [
    0,
    WEIGHTS[window(1)].value,
    WEIGHTS[window(2)].value,
    WEIGHTS[window(3)].value,
    WEIGHTS[window(4)].value,
    WEIGHTS[window(5)].value,
    0,
];
/// The tempo per stone in hand.
const TEMPO_VALUE: i32 = WEIGHTS[TEMPO].value;

use common::windows;

fn counts(pos: &Connect6, w: &[Point]) -> (usize, usize) {
    let b = w
        .iter()
        .filter(|&&p| pos.cell(p) == Some(Cell::Black))
        .count();
    let wh = w
        .iter()
        .filter(|&&p| pos.cell(p) == Some(Cell::White))
        .count();
    (b, wh)
}

fn naive_sums(pos: &Connect6) -> (i32, i32) {
    let mut s = (0, 0);
    for w in windows(pos.size()) {
        let (b, wh) = counts(pos, &w);
        if wh == 0 {
            s.0 += WEIGHT[b];
        }
        if b == 0 {
            s.1 += WEIGHT[wh];
        }
    }
    s
}

/// Minimum number of empty points hitting every threat window of `side`, capped at 3, by
/// brute force over all sets of up to 2 points.
fn naive_threats(pos: &Connect6, side: Side) -> u8 {
    let own = Cell::of(side);
    let opp = Cell::of(side.opponent());
    let threats: Vec<Vec<Point>> = windows(pos.size())
        .into_iter()
        .filter(|w| {
            w.iter().filter(|&&p| pos.cell(p) == Some(own)).count() >= 4
                && !w.iter().any(|&p| pos.cell(p) == Some(opp))
        })
        .collect();
    if threats.is_empty() {
        return 0;
    }
    let empties: Vec<Point> = {
        let mut e: Vec<Point> = threats
            .iter()
            .flatten()
            .copied()
            .filter(|&p| pos.cell(p) == Some(Cell::Empty))
            .collect();
        e.sort();
        e.dedup();
        e
    };
    let hits = |set: &[Point]| threats.iter().all(|w| w.iter().any(|p| set.contains(p)));
    for &a in &empties {
        if hits(&[a]) {
            return 1;
        }
    }
    for (i, &a) in empties.iter().enumerate() {
        for &b in &empties[i + 1..] {
            if hits(&[a, b]) {
                return 2;
            }
        }
    }
    3
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn incremental_matches_naive(size in 7usize..=12, seq in proptest::collection::vec((0u8..12, 0u8..12), 1..60)) {
        let mut pos = Connect6::new(size).unwrap();
        let mut played = Vec::new();
        for (x, y) in seq {
            let p = Point::new(x % size as u8, y % size as u8);
            if pos.game_end().is_some() { break; }
            if let Ok(stone) = pos.play_point(p) {
                played.push(stone);
                prop_assert_eq!(pos.window_sums(), naive_sums(&pos));
                for side in Side::BOTH {
                    prop_assert_eq!(pos.threat_count(side), naive_threats(&pos, side));
                    for cell in 0..size * size {
                        prop_assert_eq!(pos.stone_score(cell, side), pos.stone_score_from_scratch(cell, side));
                    }
                }
                let e = ThreatEval.evaluate(&pos);
                prop_assert!(e.abs() <= 20_000);
            }
        }
        let empty = Connect6::new(size).unwrap();
        while let Some(s) = played.pop() {
            pos.undo(s);
        }
        prop_assert_eq!(&pos, &empty);
        prop_assert_eq!(pos.key(), empty.key());
        prop_assert_eq!(pos.window_sums(), (0, 0));
        for cell in 0..size * size {
            for side in Side::BOTH {
                prop_assert_eq!(pos.stone_score(cell, side), empty.stone_score_from_scratch(cell, side));
            }
        }
    }
}

#[test]
fn evaluation_is_zero_sum() {
    let pos = Connect6::from_moves(19, "j10 j9l11 k9l8 k10k11 h8i9").unwrap();
    let black: Vec<Point> = (0..19u8)
        .flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.cell(p) == Some(Cell::Black))
        .collect();
    let white: Vec<Point> = (0..19u8)
        .flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.cell(p) == Some(Cell::White))
        .collect();
    let b = Connect6::from_stones(19, &black, &white, Side::First).unwrap();
    let w = Connect6::from_stones(19, &black, &white, Side::Second).unwrap();
    // Window sums are antisymmetric; only the tempo (per stone in hand, 2 stones each)
    // belongs to whoever moves.
    assert_eq!(
        ThreatEval.evaluate(&b) + ThreatEval.evaluate(&w),
        2 * 2 * TEMPO_VALUE
    );
    let (sb, sw) = b.window_sums();
    assert_eq!(ThreatEval.evaluate(&b), sb - sw + 2 * TEMPO_VALUE);
    assert_eq!(ThreatEval.evaluate(&w), ThreatEval.evaluate(&pos));
    // A side that can complete a six this turn scores decisively.
    let win = Connect6::from_moves(19, "j10 a1s19 j11j12 a19s1 j13j14 b1b2").unwrap();
    assert!(win.can_win_now());
    assert_eq!(ThreatEval.evaluate(&win), 20_000);
}
