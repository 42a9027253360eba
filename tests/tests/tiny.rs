//! The conformance suite and search checks on the tiny game (subtraction Nim).

use std::sync::atomic::AtomicBool;

use game_core::search::{Limits, SearchOptions, Searcher};
use game_core::{Position, ScoreView};
use tests::Conformance;
use tests::tiny::{Nim, NimError, NoKnowledge, Take};

#[test]
fn nim_conforms() {
    let starts = vec![Nim::new(1), Nim::new(10), Nim::new(63)];
    let checked = Conformance::new("nim", starts, 50, 63)
        .reference_moves(|p: &Nim| (1..=3).filter(|&t| t <= p.pile()).map(Take).collect())
        .snapshot(|p: &Nim| format!("{p:?}"))
        .key_from_scratch(Nim::key_from_scratch)
        .search_equivalence(6, 3)
        .run();
    assert!(checked > 500, "only {checked} positions");
}

#[test]
fn search_solves_nim_exactly() {
    // The side to move loses exactly when the pile is a multiple of 4; the winning move
    // leaves a multiple of 4; the game lasts until the last counter.
    let mut searcher = Searcher::new(NoKnowledge, SearchOptions::default());
    for pile in 1..=20u8 {
        let result = searcher.search(
            &Nim::new(pile),
            &Limits::depth(24),
            &AtomicBool::new(false),
            |_| {},
        );
        let ScoreView::MatePlies(plies) = result.score_view() else {
            panic!("pile {pile}: no forced result found");
        };
        if pile % 4 == 0 {
            assert!(plies < 0, "pile {pile} should be lost, got {plies}");
        } else {
            assert!(plies > 0, "pile {pile} should be won, got {plies}");
            assert_eq!(result.best_move, Some(Take(pile % 4)), "pile {pile}");
        }
    }
}

#[test]
fn bad_moves_are_typed_errors() {
    let pos = Nim::new(2);
    assert_eq!(
        pos.parse_move("3"),
        Err(NimError::TooMany { take: 3, pile: 2 })
    );
    assert_eq!(
        pos.parse_move("four"),
        Err(NimError::NotATake("four".into()))
    );
    assert_eq!(pos.parse_move(" 2 "), Ok(Take(2)));
}
