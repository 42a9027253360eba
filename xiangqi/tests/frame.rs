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

/// The no-capture draw names the limit in force: `--no-capture-plies 4` ends after two
/// quiet moves each (no check, no capture) with "2 moves without a capture", an odd limit
/// in plies.
#[test]
fn the_no_capture_draw_names_the_limit_in_force() {
    let ending_after = |limit: u16, moves: &[&str]| {
        let setup = Setup {
            no_capture_plies: Some(limit),
            ..Setup::fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
        };
        let mut game = xiangqi::frame::XIANGQI
            .build(&setup, &EngineConfig::small())
            .unwrap();
        for (i, mv) in moves.iter().enumerate() {
            assert!(game.ending().is_none(), "over before ply {i}");
            game.play_text(mv).unwrap();
        }
        game.ending().map(|e| (e.outcome, e.reason))
    };
    let quiet = ["a0a1", "d9d8", "a1a0", "d8d9", "a0a1"];
    assert_eq!(
        ending_after(4, &quiet[..4]),
        Some((
            game_core::Outcome::Draw,
            "2 moves without a capture".to_string()
        ))
    );
    assert_eq!(
        ending_after(5, &quiet),
        Some((
            game_core::Outcome::Draw,
            "5 plies without a capture".to_string()
        ))
    );
}
