//! Opening rules (`gomoku::opening`): Taraguchi-10 and the RIF rule for renju, swap2 for
//! gomoku, played through the game frame as a person types them and as the engine answers
//! them. The rulings: stones outside their central squares are refused, symmetric 5th-move
//! offers are refused, a pick must be one of the offered moves, a swap exchanges the
//! players' colours.

use std::sync::atomic::AtomicBool;

use game_core::Side;
use game_frame::opening_rule::Role;
use game_frame::{Budget, EngineConfig, Game, GameSpec, Setup};
use gomoku::frame::{GOMOKU, RENJU};
use gomoku::opening::symmetric;
use gomoku::{Board, Point, Rule};

fn game(spec: &dyn GameSpec, opening: &str) -> Box<dyn Game> {
    let mut g = spec
        .build(&Setup::default(), &EngineConfig::small())
        .unwrap();
    g.set_opening(opening).unwrap();
    g
}

fn answer(g: &mut dyn Game, text: &str) -> String {
    g.opening_answer(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn refused(g: &mut dyn Game, text: &str) -> String {
    let before = (g.turn_texts(), g.opening_ask());
    let e = g.opening_answer(text).expect_err(text);
    assert_eq!(
        (g.turn_texts(), g.opening_ask()),
        before,
        "{text} changed the game"
    );
    e
}

fn stones(g: &dyn Game) -> usize {
    g.turn_texts().len()
}

#[test]
fn taraguchi_10_squares_swaps_and_ten_offers() {
    let mut g = game(&RENJU, "taraguchi-10");
    let ask = g.opening_ask().unwrap();
    assert_eq!(
        (ask.kind, ask.role, ask.allowed.clone()),
        ("place", Role::First, vec!["h8".to_string()])
    );
    assert!(refused(g.as_mut(), "a1").contains("centre point, h8"));
    answer(g.as_mut(), "h8");
    // The other player may swap after each stone.
    let ask = g.opening_ask().unwrap();
    assert_eq!((ask.kind, ask.role), ("choose", Role::Second));
    assert!(refused(g.as_mut(), "maybe").contains("'stay' or 'swap'"));
    answer(g.as_mut(), "swap");
    assert!(g.swapped());
    // White's 2nd stone within 3x3, by the player now holding White: the first.
    let ask = g.opening_ask().unwrap();
    assert_eq!(
        (ask.kind, ask.role, ask.allowed.len()),
        ("place", Role::First, 8)
    );
    assert!(refused(g.as_mut(), "h10").contains("central 3x3 square"));
    answer(g.as_mut(), "i9");
    answer(g.as_mut(), "stay");
    assert!(refused(g.as_mut(), "k8").contains("central 5x5 square"));
    answer(g.as_mut(), "j8");
    answer(g.as_mut(), "stay");
    assert!(refused(g.as_mut(), "l8").contains("central 7x7 square"));
    answer(g.as_mut(), "g10");
    answer(g.as_mut(), "stay");
    // Black chooses to offer ten 5th moves.
    let ask = g.opening_ask().unwrap();
    assert_eq!((ask.kind, ask.role), ("choose", Role::Second));
    answer(g.as_mut(), "offer");
    let ask = g.opening_ask().unwrap();
    assert_eq!((ask.kind, ask.count), ("offer", 10));
    assert!(refused(g.as_mut(), "a1 b1").contains("2 moves offered: expected 10"));
    assert!(refused(g.as_mut(), "a1 a2 a3 a4 a5 a6 a7 a8 a9 a9").contains("a9 is offered twice"));
    let e = refused(g.as_mut(), "h8 a2 a3 a4 a5 a6 a7 a8 a9 a10");
    assert!(e.contains("h8") && e.contains("occupied"), "{e}");
    answer(g.as_mut(), "f8 k7 k11 e4 m12 b2 o15 a15 a14 a13");
    let ask = g.opening_ask().unwrap();
    assert_eq!(
        (ask.kind, ask.role, ask.offered.len()),
        ("pick", Role::First, 10)
    );
    assert!(refused(g.as_mut(), "c3").contains("was not offered"));
    answer(g.as_mut(), "k7");
    // The opening is over: White (the first player, after the swap) plays the 6th.
    assert!(g.opening_ask().is_none());
    assert_eq!(stones(g.as_ref()), 5);
    assert_eq!(g.side_to_move(), Side::Second);
    assert!(g.swapped());
    // The opening's stones stay.
    assert_eq!(g.undo_turn(), None);
    let record = g.record(["a", "b"], None);
    assert!(record.contains("[Opening \"taraguchi-10\"]"), "{record}");
    assert!(record.contains("swap; i9; stay"), "{record}");
}

#[test]
fn symmetric_fifth_moves_are_refused() {
    // h8 i9 (diagonal opening) j7: the diagonal through h8 and i9... no symmetry except the
    // reflection in that diagonal when the 3rd stone lies on it; here h8 i9 j10 is.
    let mut board = Board::new(15, Rule::Renju).unwrap();
    for p in ["h8", "i9", "j10", "g8"] {
        let p = board.parse_point(p).unwrap();
        board.play(p);
    }
    // Stones on the long diagonal and one beside it: no symmetry maps g8 elsewhere.
    let p = |s: &str| board.parse_point(s).unwrap();
    assert!(!symmetric(&board, p("k8"), p("h11")));
    // With the stones on one diagonal only, its reflection maps k8 to h11.
    let mut line = Board::new(15, Rule::Renju).unwrap();
    for s in ["h8", "i9", "j10", "g7"] {
        let q = line.parse_point(s).unwrap();
        line.play(q);
    }
    let q = |s: &str| line.parse_point(s).unwrap();
    assert!(symmetric(&line, q("k8"), q("h11")));
    assert!(symmetric(&line, q("k8"), q("k8")));
    assert!(!symmetric(&line, q("k8"), q("k9")));

    // The RIF rule: Black offers two 5th moves; symmetric ones are refused.
    let mut g = game(&RENJU, "rif");
    assert!(refused(g.as_mut(), "i9").contains("centre point"));
    for s in ["h8", "i9", "j10"] {
        answer(g.as_mut(), s);
    }
    answer(g.as_mut(), "stay");
    answer(g.as_mut(), "g7");
    let ask = g.opening_ask().unwrap();
    assert_eq!((ask.kind, ask.count, ask.role), ("offer", 2, Role::First));
    let e = refused(g.as_mut(), "k8 h11");
    assert!(e.contains("h11 is symmetric to k8"), "{e}");
    answer(g.as_mut(), "k8 k9");
    answer(g.as_mut(), "k9");
    assert!(g.opening_ask().is_none());
    assert_eq!(g.side_to_move(), Side::Second);
    assert!(!g.swapped());
    let _ = Point::new(0, 0);
}

#[test]
fn swap2_with_two_more_stones_and_a_colour_choice() {
    let mut g = game(&GOMOKU, "swap2");
    for s in ["h8", "i9", "j8"] {
        assert_eq!(g.opening_ask().unwrap().role, Role::First);
        answer(g.as_mut(), s);
    }
    let ask = g.opening_ask().unwrap();
    assert_eq!(
        (ask.kind, ask.role, ask.options.len()),
        ("choose", Role::Second, 3)
    );
    answer(g.as_mut(), "two");
    for s in ["g7", "k10"] {
        assert_eq!(g.opening_ask().unwrap().role, Role::Second);
        answer(g.as_mut(), s);
    }
    let ask = g.opening_ask().unwrap();
    assert_eq!((ask.kind, ask.role), ("choose", Role::First));
    answer(g.as_mut(), "white");
    assert!(g.opening_ask().is_none());
    assert!(g.swapped());
    assert_eq!(g.side_to_move(), Side::Second);
    // Swap2's White holder may take Black at once.
    let mut g = game(&GOMOKU, "swap2");
    for s in ["h8", "i9", "j8"] {
        answer(g.as_mut(), s);
    }
    answer(g.as_mut(), "black");
    assert!(g.swapped() && g.opening_ask().is_none());
    // Unknown rules are named.
    let mut g = GOMOKU
        .build(&Setup::default(), &EngineConfig::small())
        .unwrap();
    let e = g.set_opening("taraguchi-10").unwrap_err();
    assert!(e.contains("it offers free, swap2"), "{e}");
    g.set_opening("free").unwrap();
    assert!(g.opening_ask().is_none());
}

#[test]
fn the_engine_takes_every_role() {
    let budget = Budget {
        nodes: Some(4_000),
        ..Budget::default()
    };
    let stop = AtomicBool::new(false);
    for (spec, rule) in [
        (&RENJU as &dyn GameSpec, "taraguchi-10"),
        (&RENJU, "rif"),
        (&GOMOKU, "swap2"),
    ] {
        let mut g = game(spec, rule);
        let mut steps = Vec::new();
        while g.opening_ask().is_some() {
            let said = g.opening_engine(&budget, &stop);
            assert!(!said.is_empty(), "{rule}: no answer");
            steps.push(said);
            assert!(steps.len() < 20, "{rule}: {steps:?}");
        }
        let n = stones(g.as_ref());
        assert!((3..=6).contains(&n), "{rule}: {n} stones after {steps:?}");
        if rule != "swap2" {
            assert!(
                steps.iter().any(|s| s.starts_with("offer")),
                "{rule}: {steps:?}"
            );
            assert_eq!(n, 5, "{rule}: {steps:?}");
        }
    }
}
