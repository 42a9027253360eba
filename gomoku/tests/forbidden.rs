//! Renju forbidden points against reference/gomoku/forbidden.txt.

use game_core::Side;
use gomoku::{Board, Rule};

const FILE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/gomoku/forbidden.txt"
));

fn cases() -> Vec<(String, Board, Vec<String>)> {
    let mut out = Vec::new();
    for line in FILE.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let probe = Board::new(15, Rule::Renju).unwrap();
        let black = probe.parse_points(f[1]).unwrap();
        let white = probe.parse_points(f[2]).unwrap();
        let board = Board::from_stones(15, Rule::Renju, &black, &white, Some(Side::First)).unwrap();
        let mut expected: Vec<String> = if f[3] == "none" {
            vec![]
        } else {
            f[3].split_whitespace().map(String::from).collect()
        };
        expected.sort();
        out.push((f[0].to_string(), board, expected));
    }
    out
}

fn found(board: &Board) -> Vec<String> {
    let mut v: Vec<String> = board
        .forbidden_points()
        .into_iter()
        .map(|(p, k)| format!("{}({})", board.format_point(p), k.digit()))
        .collect();
    v.sort();
    v
}

/// The board with forbidden points marked by their kind digit (3, 4, 6).
fn picture(board: &Board) -> String {
    let mut text = String::new();
    for y in 0..board.size() {
        text.push_str(&format!("{:>2} ", board.size() - y));
        for x in 0..board.size() {
            let p = gomoku::Point::new(x, y);
            let c = match (board.stone(p), board.forbidden_kind(p)) {
                (Some(Side::First), _) => 'X',
                (Some(Side::Second), _) => 'O',
                (None, Some(k)) => (b'0' + k.digit()) as char,
                (None, None) => '.',
            };
            text.push(' ');
            text.push(c);
        }
        text.push('\n');
    }
    text.push_str("    a b c d e f g h i j k l m n o\n");
    text
}

#[test]
fn every_reference_case_exact() {
    let cases = cases();
    assert_eq!(cases.len(), 5);
    for (id, board, expected) in &cases {
        assert_eq!(&found(board), expected, "case {id}");
    }
}

#[test]
fn snapshots_of_forbidden_points() {
    for (id, board, expected) in cases() {
        assert_eq!(found(&board), expected, "case {id}");
        insta::assert_snapshot!(format!("forbidden_{id}"), picture(&board));
    }
}

#[test]
fn forbidden_move_loses_and_is_not_generated() {
    use game_core::Position;
    let (_, board, expected) = cases().into_iter().next().unwrap();
    assert_eq!(expected, ["e14(4)", "f8(6)", "k5(3)"]);
    let f8 = board.parse_point("f8").unwrap();
    let mut moves = Vec::new();
    assert!(board.generate_moves(&mut moves).is_none());
    assert!(!moves.contains(&f8));
    assert!(board.parse_move("f8").is_err());
    let mut b = board.clone();
    let end = b.play_checked(f8).unwrap();
    assert_eq!(
        end,
        Some((
            game_core::Outcome::Win(Side::Second),
            gomoku::EndReason::Forbidden(gomoku::ForbiddenKind::Overline)
        ))
    );
    assert_eq!(end.unwrap().1.to_string(), "forbidden move (overline)");
    let mut b = board.clone();
    assert!(b.try_play(f8).is_err());
    assert_eq!(b.key(), board.key());
}
