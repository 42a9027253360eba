//! Xiangqi through the game frame: self-play games recorded faithfully, and the board view's
//! pieces, river, palaces and check mark.

use game_core::Side;
use game_frame::selfplay::check_games;
use game_frame::{EngineConfig, GameSpec, Setup};

#[test]
fn xiangqi_games_are_recorded_faithfully() {
    check_games(&xiangqi::Position::startpos(), 8, 2);
}

#[test]
fn the_board_view_has_the_river_the_palaces_and_the_king_in_check() {
    let start = xiangqi::frame::XIANGQI
        .build(&Setup::default(), &EngineConfig::small())
        .unwrap();
    let view = start.board();
    assert_eq!((view.files, view.rows), (9, 10));
    assert_eq!(view.river.as_ref().map(|r| r.rows_above), Some(5));
    assert_eq!(view.palaces.len(), 2);
    // Red's king on e0: file 4, the bottom row.
    let king = view.piece((4, 9)).unwrap();
    assert_eq!(
        (king.side, king.name, king.letter, king.symbol),
        (Side::First, "king", 'K', '帅')
    );
    assert!(view.checks.is_empty());
    // A rook gives check along the e-file.
    let check = xiangqi::frame::XIANGQI
        .build(
            &Setup::fen("4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1"),
            &EngineConfig::small(),
        )
        .unwrap();
    let mut check = check;
    check.play_text("f0f9").unwrap();
    let view = check.board();
    assert_eq!(view.checks, vec![(4, 0)]);
    assert_eq!(view.notes, ["Black is in check."]);
    assert_eq!(view.last, vec![(5, 9), (5, 0)]);
}
