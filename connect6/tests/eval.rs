//! Window counts, threat counting and the evaluation against naive recomputation.

mod common;

use connect6::tune::{TEMPO, opp, own};
use connect6::{Cell, Connect6, Point, ThreatEval, WEIGHTS};
use game_core::{Evaluate, Position, Side};
use proptest::prelude::*;

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

/// Windows by stone count for (black, white): entry n counts the windows holding n (1..=5)
/// stones of that colour and none of the other.
fn naive_counts(pos: &Connect6) -> ([i32; 7], [i32; 7]) {
    let mut c = ([0; 7], [0; 7]);
    for w in windows(pos.size()) {
        let (b, wh) = counts(pos, &w);
        if wh == 0 && (1..=5).contains(&b) {
            c.0[b] += 1;
        }
        if b == 0 && (1..=5).contains(&wh) {
            c.1[wh] += 1;
        }
    }
    c
}

/// Live windows for (black, white): 2 or more stones of that colour (a six included) and
/// none of the other.
fn naive_live(pos: &Connect6) -> (usize, usize) {
    let mut live = (0, 0);
    for w in windows(pos.size()) {
        let (b, wh) = counts(pos, &w);
        live.0 += usize::from(wh == 0 && b >= 2);
        live.1 += usize::from(b == 0 && wh >= 2);
    }
    live
}

fn window_counts(pos: &Connect6) -> ([i32; 7], [i32; 7]) {
    (
        pos.window_counts(Side::First),
        pos.window_counts(Side::Second),
    )
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
                prop_assert_eq!(window_counts(&pos), naive_counts(&pos));
                prop_assert_eq!(
                    (pos.live_window_count(Side::First), pos.live_window_count(Side::Second)),
                    naive_live(&pos)
                );
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
        prop_assert_eq!(window_counts(&pos), ([0; 7], [0; 7]));
        prop_assert_eq!(pos.live_window_count(Side::First), 0);
        for cell in 0..size * size {
            for side in Side::BOTH {
                prop_assert_eq!(pos.stone_score(cell, side), empty.stone_score_from_scratch(cell, side));
            }
        }
    }
}

#[test]
fn evaluation_weighs_each_sides_windows() {
    let pos = Connect6::from_moves(19, "j10 j9l11 k9l8 k10k11 h8i9").unwrap();
    let black: Vec<Point> = (0..19u8)
        .flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.cell(p) == Some(Cell::Black))
        .collect();
    let white: Vec<Point> = (0..19u8)
        .flat_map(|y| (0..19u8).map(move |x| Point::new(x, y)))
        .filter(|&p| pos.cell(p) == Some(Cell::White))
        .collect();
    // No threats on the board: the score is the two sides' weighted windows and the tempo.
    let expected = |to_move: Side| {
        let (b, w) = naive_counts(&pos);
        let (mine, theirs) = if to_move == Side::First {
            (b, w)
        } else {
            (w, b)
        };
        let mut score = 2 * WEIGHTS[TEMPO].value;
        for n in 1..=3 {
            score += WEIGHTS[own(2, n)].value * mine[n];
        }
        for n in 1..=5 {
            score -= WEIGHTS[opp(2, n)].value * theirs[n];
        }
        score
    };
    for to_move in Side::BOTH {
        let setup = Connect6::from_stones(19, &black, &white, to_move).unwrap();
        assert_eq!(setup.threat_count(Side::First), 0);
        assert_eq!(setup.threat_count(Side::Second), 0);
        assert_eq!(ThreatEval.evaluate(&setup), expected(to_move));
    }
    let w = Connect6::from_stones(19, &black, &white, Side::Second).unwrap();
    assert_eq!(ThreatEval.evaluate(&w), ThreatEval.evaluate(&pos));
    // A side that can complete a six this turn scores decisively.
    let win = Connect6::from_moves(19, "j10 a1s19 j11j12 a19s1 j13j14 b1b2").unwrap();
    assert!(win.can_win_now());
    assert_eq!(ThreatEval.evaluate(&win), 20_000);
}
