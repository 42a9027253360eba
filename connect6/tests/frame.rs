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

/// The caller's stop flag ends the main search (the frame's "move now"): set before the
/// call, an hour's budget still gives a legal turn from the first iterations.
#[test]
fn the_stop_flag_ends_a_long_search_with_a_legal_turn() {
    use std::sync::atomic::AtomicBool;
    let mut game = connect6::frame::CONNECT6
        .build(&Setup::moves("j10 i9k11"), &EngineConfig::small())
        .unwrap();
    let stop = AtomicBool::new(true);
    let budget = game_frame::Budget {
        time: Some(std::time::Duration::from_secs(3600)),
        ..game_frame::Budget::default()
    };
    let thought = game.think(&budget, &stop, &mut |_| {});
    assert!(thought.depth <= 2, "{thought:?}");
    let turn = thought.bestmove.expect("a turn");
    assert_eq!(turn.len(), game.play_text(&turn).unwrap().len());
}
