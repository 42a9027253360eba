//! The tuning interface: the evaluation equals the weighted features wherever they are given,
//! the features match a naive window count, the weights are well-formed, and the text form
//! reads back to the same position.

mod common;

use std::collections::HashSet;

use connect6::tune::{TEMPO, max_own, opp, opp_threats, own, own_threats};
use connect6::{Cell, Connect6, DECISIVE, Point, ThreatEval, WEIGHTS};
use game_core::tune::{Features, Tunable, dot};
use game_core::zobrist::SplitMix64;
use game_core::{Evaluate, Position, Side};

use common::windows;

/// The dense feature vector by weight index, from the side to move's view, counted naively
/// through the public API: windows by stone count for each side, the opponent's threats (and
/// the side to move's own with one stone left), the stones in hand.
fn naive_features(pos: &Connect6, windows: &[Vec<Point>]) -> Vec<i32> {
    let side = pos.to_move();
    let left = pos.stones_left();
    let own_cell = Cell::of(side);
    let opp_cell = Cell::of(side.opponent());
    let mut f = vec![0; WEIGHTS.len()];
    for w in windows {
        let count = |cell| w.iter().filter(|&&p| pos.cell(p) == Some(cell)).count();
        let (a, b) = (count(own_cell), count(opp_cell));
        if b == 0 && (1..=max_own(left)).contains(&a) {
            f[own(left, a)] += 1;
        }
        if a == 0 && (1..=5).contains(&b) {
            f[opp(left, b)] -= 1;
        }
    }
    let threats = pos.threat_count(side.opponent());
    if threats > 0 {
        f[opp_threats(left, threats)] -= 1;
    }
    if left == 1 && pos.threat_count(side) > 0 {
        f[own_threats(pos.threat_count(side).min(2))] += 1;
    }
    f[TEMPO] += i32::from(left);
    f
}

fn dense(features: &Features) -> Vec<i32> {
    let mut f = vec![0; WEIGHTS.len()];
    for &(i, c) in features {
        f[usize::from(i)] += c;
    }
    f
}

fn values() -> Vec<i32> {
    Connect6::weights().iter().map(|w| w.value).collect()
}

/// The contract's right-hand side: the weighted sum over the scale, clamped as the
/// evaluation clamps.
fn linear_eval(features: &Features) -> i32 {
    let sum = dot(&values(), features).div_euclid(i64::from(Connect6::FEATURE_SCALE));
    sum.clamp(i64::from(-DECISIVE + 1), i64::from(DECISIVE - 1)) as i32
}

fn check_round_trip(pos: &Connect6) {
    let text = pos.to_text();
    assert!(!text.contains(['\t', '\n']), "{text:?}");
    let back = Connect6::from_text(&text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    assert_eq!(back.key(), pos.key(), "{text:?}");
    assert_eq!(back.key(), back.key_from_scratch(), "{text:?}");
    assert_eq!(back.to_move(), pos.to_move(), "{text:?}");
    assert_eq!(back.stones_left(), pos.stones_left(), "{text:?}");
    assert_eq!(back.size(), pos.size(), "{text:?}");
    assert_eq!(&back, pos, "{text:?}");
    assert_eq!(back.to_text(), text);
}

/// Seeded random games on 19x19: random empty points within `radius` of the centre, stopping
/// at `length` stones or before the stone that would end the game. Calls `visit` on every
/// position from the empty board on.
fn random_games(games: u64, mut visit: impl FnMut(&Connect6)) {
    let mut rng = SplitMix64::new(0x007E_57C6);
    let mut next = |n: u64| {
        let (r, g) = rng.next();
        rng = g;
        r % n
    };
    for _ in 0..games {
        let mut pos = Connect6::standard();
        let radius = 3 + next(5) as u8; // 3..=7
        // At most half the square, so that an empty point is always found.
        let side = 2 * u64::from(radius) + 1;
        let length = next(80).min(side * side / 2);
        visit(&pos);
        for _ in 0..length {
            let p = loop {
                let x = 9 - radius + next(side) as u8;
                let y = 9 - radius + next(side) as u8;
                let p = Point::new(x, y);
                if pos.cell(p) == Some(Cell::Empty) {
                    break p;
                }
            };
            let stone = pos
                .play_point(p)
                .expect("an empty point of an unfinished game");
            if pos.game_end().is_some() {
                pos.undo(stone);
                break;
            }
            visit(&pos);
        }
    }
}

#[test]
fn eval_is_the_weighted_features_in_random_games() {
    let windows = windows(19);
    let mut features = Features::new();
    let (mut linear, mut decisive, mut positions) = (0, 0, 0);
    // Per weight: linear positions where its feature is nonzero.
    let mut seen = vec![0; WEIGHTS.len()];
    random_games(300, |pos| {
        positions += 1;
        let eval = pos.static_eval();
        assert_eq!(eval, ThreatEval.evaluate(pos));
        let is_linear = pos.features(&mut features);
        assert_eq!(is_linear, eval.abs() != DECISIVE, "{pos:?}");
        if is_linear {
            linear += 1;
            assert_eq!(eval, linear_eval(&features), "{pos:?}\n{features:?}");
            let f = dense(&features);
            assert_eq!(f, naive_features(pos, &windows), "{pos:?}");
            for (i, &c) in f.iter().enumerate() {
                seen[i] += usize::from(c != 0);
            }
        } else {
            decisive += 1;
        }
        check_round_trip(pos);
    });
    // The games must exercise both kinds of position and every weight.
    assert!(positions >= 5000, "{positions} positions");
    assert!(linear >= 4000, "{linear} linear positions");
    assert!(decisive >= 300, "{decisive} decisive positions");
    for (w, &n) in WEIGHTS.iter().zip(&seen) {
        assert!(n >= 10, "{} is nonzero in only {n} positions", w.name);
    }
}

#[test]
fn features_of_known_positions() {
    let mut features = Features::new();
    // One black stone at the centre, White to place 2: 24 one-stone windows against White.
    let pos = Connect6::from_text("19 j10").unwrap();
    assert!(pos.features(&mut features));
    let mut f = dense(&features);
    assert_eq!(f[opp(2, 1)], -24);
    assert_eq!(f[TEMPO], 2);
    f[opp(2, 1)] = 0;
    f[TEMPO] = 0;
    assert!(f.iter().all(|&c| c == 0), "{features:?}");
    assert_eq!(
        pos.static_eval(),
        -24 * WEIGHTS[opp(2, 1)].value + 2 * WEIGHTS[TEMPO].value
    );
    // Black has placed one of its two stones next to its first: from Black's view with one
    // stone left, 5 windows hold both stones, 19 + 19 hold one of them.
    let pos = Connect6::from_text("19 j10 a1a2 j11").unwrap();
    assert!(pos.features(&mut features));
    let f = dense(&features);
    assert_eq!(f[own(1, 2)], 5);
    assert_eq!(f[own(1, 1)], 38);
    assert_eq!(f[TEMPO], 1);
    assert_eq!(f[own(2, 2)], 0);
    // White's four on the edge row is one threat against Black's two stones to place.
    let pos = Connect6::from_text("19 j10 a1b1 j11k11 c1d1").unwrap();
    assert!(pos.features(&mut features));
    let f = dense(&features);
    assert_eq!(f[opp_threats(2, 1)], -1);
    assert_eq!(f[opp(2, 4)], -1);
    // Black can six this turn: decisive, no features.
    let win = Connect6::from_text("19 g10 a1s19 h10i10 a19s1 j10s10 b1b19").unwrap();
    assert!(win.can_win_now());
    assert!(!win.features(&mut features));
    assert_eq!(win.static_eval(), DECISIVE);
    // White to move cannot stop Black's two separate fours: decisive the other way.
    let lost = Connect6::from_stones(
        19,
        &[
            Point::new(0, 0),
            Point::new(1, 0),
            Point::new(2, 0),
            Point::new(3, 0),
            Point::new(0, 10),
            Point::new(1, 10),
            Point::new(2, 10),
            Point::new(3, 10),
            Point::new(0, 18),
            Point::new(1, 18),
            Point::new(2, 18),
            Point::new(3, 18),
        ],
        &[Point::new(18, 5), Point::new(18, 7), Point::new(18, 9)],
        Side::Second,
    )
    .unwrap();
    assert_eq!(lost.threat_count(Side::First), 3);
    assert!(!lost.features(&mut features));
    assert_eq!(lost.static_eval(), -DECISIVE);
}

#[test]
fn weights_are_well_formed() {
    assert_eq!(Connect6::GAME, "connect6");
    const { assert!(Connect6::FEATURE_SCALE >= 1) };
    assert_eq!(Connect6::weights(), &WEIGHTS[..]);
    let mut names = HashSet::new();
    for w in Connect6::weights() {
        assert!(names.insert(w.name), "{} twice", w.name);
        assert!(w.name.is_ascii() && !w.name.contains(char::is_whitespace));
        let (group, item) = w.name.split_once('.').expect("group.item");
        assert!(!group.is_empty() && !item.is_empty(), "{}", w.name);
        assert!(
            w.min <= w.value && w.value <= w.max,
            "{} = {} outside {}..={}",
            w.name,
            w.value,
            w.min,
            w.max
        );
    }
    for left in 1..=2u8 {
        for n in 1..=max_own(left) {
            assert_eq!(WEIGHTS[own(left, n)].name, format!("turn{left}_own.{n}"));
        }
        for n in 1..=5 {
            assert_eq!(WEIGHTS[opp(left, n)].name, format!("turn{left}_opp.{n}"));
        }
        for k in 1..=left {
            assert_eq!(
                WEIGHTS[opp_threats(left, k)].name,
                format!("turn{left}_opp_threats.{k}")
            );
        }
    }
    for k in 1..=2 {
        assert_eq!(
            WEIGHTS[own_threats(k)].name,
            format!("turn1_own_threats.{k}")
        );
    }
    assert_eq!(WEIGHTS[TEMPO].name, "tempo.stone");
    // Every index is used exactly once.
    let mut used = HashSet::new();
    for left in 1..=2u8 {
        used.extend((1..=max_own(left)).map(|n| own(left, n)));
        used.extend((1..=5).map(|n| opp(left, n)));
        used.extend((1..=left).map(|k| opp_threats(left, k)));
    }
    used.extend([own_threats(1), own_threats(2), TEMPO]);
    assert_eq!(used.len(), WEIGHTS.len());
}

#[test]
fn text_round_trips_setups_and_partial_turns() {
    let p = |s: &str| connect6::notation::parse_littlegolem(s, 19).unwrap();
    // Mid-turn from the empty board: White has placed one of its two stones.
    let pos = Connect6::from_moves(19, "j10 j9").unwrap();
    assert_eq!(pos.to_text(), "19 j10 j9");
    assert_eq!(pos.stones_left(), 1);
    check_round_trip(&pos);
    check_round_trip(&Connect6::standard());
    check_round_trip(&Connect6::new(7).unwrap());
    // Set-up positions, with and without stones, then moves.
    let mut pos =
        Connect6::from_stones_in_turn(19, &p("j10k11"), &p("j9"), Side::Second, 1).unwrap();
    check_round_trip(&pos);
    for point in p("l11l12m3") {
        pos.play_point(point).unwrap();
        check_round_trip(&pos);
    }
    let empty_white = Connect6::from_stones(19, &[], &[], Side::Second).unwrap();
    assert_eq!(empty_white.to_move(), Side::Second);
    assert_eq!(empty_white.stones_left(), 2);
    check_round_trip(&empty_white);
    let only_white = Connect6::from_stones(13, &[], &p("a1"), Side::First).unwrap();
    assert_eq!(only_white.to_text(), "13 setup - a1 black 2");
    check_round_trip(&only_white);
}

#[test]
fn text_errors_say_what_was_wrong() {
    let err = |text: &str| Connect6::from_text(text).expect_err(text);
    assert!(err("").contains("no text"));
    assert!(err("nineteen j10").contains("`nineteen` is not a number"));
    assert!(err("5 a1").contains("board size 5"));
    assert!(err("19 j10 z1").contains("move 2"));
    assert!(err("19 j10 k10j10").contains("occupied"));
    assert!(err("19 setup j10").contains("4 words"));
    assert!(err("19 setup j10 - red 2").contains("`red`"));
    assert!(err("19 setup j10 - white 3").contains("stones left `3`"));
    assert!(err("19 setup j10 j10 white 2").contains("twice"));
    assert!(err("19 setup t1 - white 2").contains("black setup stones"));
}
