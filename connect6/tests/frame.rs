//! Connect6 through the game frame: self-play games recorded faithfully, turns grouped in the
//! board view's notes.

use game_frame::selfplay::check_games;
use game_frame::{EngineConfig, GameSpec, Setup};

#[test]
fn connect6_games_are_recorded_faithfully() {
    check_games(&connect6::Connect6::standard(), 3, 2);
}

#[test]
fn the_board_view_marks_the_last_turn_and_says_who_places_how_many() {
    let game = connect6::frame::CONNECT6
        .build(&Setup::moves("j10 i9k11"), &EngineConfig::small())
        .unwrap();
    let view = game.board();
    assert_eq!((view.files, view.rows), (19, 19));
    let mut last = view.last.clone();
    last.sort_unstable();
    // i9 is file 8, row 19 - 9 = 10; k11 is file 10, row 8.
    assert_eq!(last, vec![(8, 10), (10, 8)]);
    assert_eq!(view.notes, ["Black places 2 stones this turn."]);
}
