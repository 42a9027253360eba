//! Connect Four through the game frame, as `qi` drives it: perft from the registry entry
//! against published counts, turns from text, the end of the game, the board view and the
//! engine.

use std::sync::atomic::AtomicBool;

use connect4::frame::CONNECT4;
use game_core::{Outcome, Side};
use game_frame::{Budget, EngineConfig, GameSpec, Setup};

fn game(moves: &str) -> Box<dyn game_frame::Game> {
    CONNECT4
        .build(&Setup::moves(moves), &EngineConfig::small())
        .unwrap()
}

/// Leaf counts of the 7x6 board: 7^d up to ply 6 (no game ends before the 7th stone), then
/// 823,536 and 5,673,234 (OEIS A212693, "number of distinct Connect Four games of n plies").
#[test]
fn perft_matches_the_published_counts() {
    let perft = |d| CONNECT4.perft(&Setup::default(), d, false).unwrap()[0].1;
    for d in 0..=6 {
        assert_eq!(perft(d), 7u64.pow(d), "depth {d}");
    }
    assert_eq!(perft(7), 823_536);
    assert_eq!(perft(8), 5_673_234);
    let divide = CONNECT4.perft(&Setup::default(), 2, true).unwrap();
    let roots: Vec<&str> = divide.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(roots, ["1", "2", "3", "4", "5", "6", "7"]);
    assert!(divide.iter().all(|&(_, n)| n == 7));
}

#[test]
fn turns_are_columns_and_a_full_column_is_refused_without_change() {
    let mut g = game("444444");
    assert_eq!(g.side_to_move(), Side::First);
    let err = g.play_text("4").unwrap_err();
    assert!(err.contains('4'), "{err}");
    assert_eq!(g.turn_sides().len(), 6);
    assert_eq!(g.legal_moves(), ["1", "2", "3", "5", "6", "7"]);
    assert!(g.play_text("8").is_err());
    assert_eq!(g.play_text("c").unwrap(), "3");
    assert_eq!(g.undo_turn(), Some(Side::First));
    assert_eq!(g.turn_sides().len(), 6);
}

#[test]
fn four_in_a_column_ends_the_game() {
    let g = game("1212121");
    let end = g.ending().expect("X has four in column 1");
    assert_eq!(end.outcome, Outcome::Win(Side::First));
    assert_eq!(end.reason, "four in a row");
    assert_eq!(end.result_tag(), "1-0");
    assert!(g.legal_moves().is_empty());
    let bad = CONNECT4.build(&Setup::moves("12121212"), &EngineConfig::small());
    assert!(bad.is_err());
}

#[test]
fn the_board_view_stacks_stones_from_the_bottom() {
    let view = game("443").board();
    assert_eq!((view.files, view.rows), (7, 6));
    assert_eq!(view.file_labels, ["1", "2", "3", "4", "5", "6", "7"]);
    assert_eq!(view.row_labels[0], "6");
    // Column 4 holds X at the bottom (row 5 from the top) and O above it.
    assert_eq!(view.piece((3, 5)).map(|p| p.side), Some(Side::First));
    assert_eq!(view.piece((3, 4)).map(|p| p.side), Some(Side::Second));
    assert_eq!(view.last, vec![(2, 5)]);
}

/// X to move after 4 4 5 5: 3 or 6 makes an open three on the bottom row, a win in 2.
#[test]
fn the_engine_finds_the_double_threat() {
    let mut g = game("4455");
    let stop = AtomicBool::new(false);
    let budget = Budget {
        depth: Some(6),
        ..Budget::default()
    };
    let t = g.think(&budget, &stop, &mut |_| {});
    assert!(matches!(t.bestmove.as_deref(), Some("3" | "6")), "{t:?}");
    assert_eq!(t.mate, Some(2), "{t:?}");
}
