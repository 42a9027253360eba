//! Gomoku and renju through the game frame: the registry entries build what the options say
//! (and refuse what does not fit), the board view marks renju's forbidden points, and
//! self-play writes positions that read back as tuning data.

use game_core::Side;
use game_frame::selfplay::{self, Settings, check_games};
use game_frame::{Budget, EngineConfig, GameSpec, Setup};
use gomoku::frame::{GOMOKU, RENJU};
use gomoku::{Board, Rule};

#[test]
fn gomoku_games_are_recorded_faithfully() {
    check_games(&Board::default_board(), 4, 4);
    check_games(&Board::new(15, Rule::Renju).unwrap(), 4, 4);
}

#[test]
fn the_selfplay_output_names_its_command_and_reads_as_tuning_data() {
    let settings = Settings {
        games: 2,
        first_game: 0,
        budget: Budget {
            depth: Some(2),
            ..Budget::default()
        },
        threads: 1,
        hash_mib: 1,
        seed: 5,
        random_plies: 4,
        openings: None,
        max_plies: 400,
        command: "test".to_string(),
    };
    let mut out: Vec<u8> = Vec::new();
    let summary = selfplay::run(&Board::default_board(), &settings, &mut out).unwrap();
    assert_eq!(summary.games, 2);
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("# test\n"));
    let mut data = tune::Dataset::for_game::<Board>();
    data.read_text::<Board>("out", &text, 1).unwrap();
    assert_eq!(data.len(), summary.positions);
    assert_eq!(data.comments[0], "test");
}

#[test]
fn renju_refuses_another_rule_or_size_and_gomoku_reads_its_rules() {
    let renju = |rule: Option<&str>, size: Option<usize>| {
        RENJU
            .build(
                &Setup {
                    rule: rule.map(str::to_string),
                    size,
                    ..Setup::default()
                },
                &EngineConfig::small(),
            )
            .map(|g| g.name())
            .map_err(|e| e.to_string())
    };
    assert_eq!(renju(None, None), Ok("renju"));
    assert_eq!(renju(Some("renju"), Some(15)), Ok("renju"));
    let err = renju(Some("freestyle"), None).unwrap_err();
    assert!(err.contains("use gomoku --rule freestyle"), "{err}");
    let err = renju(None, Some(19)).unwrap_err();
    assert!(err.contains("use gomoku --rule renju --size 19"), "{err}");
    let bad = GOMOKU
        .build(
            &Setup {
                rule: Some("caro".to_string()),
                ..Setup::default()
            },
            &EngineConfig::small(),
        )
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        bad.as_deref(),
        Some("--rule: unknown rule 'caro': expected freestyle, standard or renju")
    );
}

#[test]
fn the_renju_board_view_marks_blacks_forbidden_points_and_the_last_stone() {
    // Black to move with two open twos crossing at h8: h8 is a double three.
    let setup = Setup {
        black: Some("f8 g8 h10 h9".to_string()),
        white: Some("a1 a3 a5 a7".to_string()),
        ..Setup::default()
    };
    let game = RENJU.build(&setup, &EngineConfig::small()).unwrap();
    let view = game.board();
    assert_eq!((view.files, view.rows), (15, 15));
    assert_eq!(view.file_labels[7], "h");
    assert_eq!(view.row_labels[0], "15");
    // h8 is file 7, row 15 - 8 = 7 from the top.
    assert!(view.hints.contains(&(7, 7)), "{:?}", view.hints);
    assert_eq!(view.piece((5, 7)).map(|p| p.side), Some(Side::First));
    assert_eq!(view.piece((0, 14)).map(|p| p.side), Some(Side::Second));
    let mut game = game;
    game.play_text("a14").unwrap();
    let view = game.board();
    assert_eq!(view.last, vec![(0, 1)]);
    // White to move: no forbidden points shown.
    assert!(view.hints.is_empty());
}

#[test]
fn a_forbidden_renju_move_loses_in_either_notation() {
    // Black to move with two open twos crossing at h8 (Gomocup 7,7): h8 is a double three.
    // An engine that answers in Gomocup coordinates plays it as `7,7`; a CI match once
    // reported that as an unreadable coordinate instead of the forbidden move it is.
    for text in ["h8", "7,7", " 7,7 "] {
        let setup = Setup {
            black: Some("f8 g8 h10 h9".to_string()),
            white: Some("a1 a3 a5 a7".to_string()),
            ..Setup::default()
        };
        let mut game = RENJU.build(&setup, &EngineConfig::small()).unwrap();
        game.play_text(text).unwrap();
        let end = game.ending().expect("the forbidden move ends the game");
        assert_eq!(end.outcome, game_core::Outcome::Win(Side::Second), "{text}");
        assert_eq!(end.reason, "forbidden move (double three)", "{text}");
    }
    // Bad coordinates are still refused, with the notation that was expected.
    let mut game = RENJU
        .build(&Setup::default(), &EngineConfig::small())
        .unwrap();
    let err = game.play_text("15,7").unwrap_err();
    assert!(err.contains("off the 15x15 board"), "{err}");
    assert!(game.ending().is_none());
}
