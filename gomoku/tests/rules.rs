//! Rule tests: fives, overlines, renju fouls, full board, coordinates.

use game_core::{Outcome, Position, Side};
use gomoku::{Board, EndReason, ForbiddenKind, GomokuError, Point, Rule};

fn play(rule: Rule, moves: &str) -> Board {
    Board::from_moves(15, rule, moves).unwrap()
}

#[test]
fn coordinates() {
    let b = Board::new(15, Rule::Freestyle).unwrap();
    assert_eq!(b.parse_point("h8").unwrap(), Point::new(7, 7));
    assert_eq!(b.parse_point("a1").unwrap(), Point::new(0, 14));
    assert_eq!(b.parse_point("o15").unwrap(), Point::new(14, 0));
    assert_eq!(b.parse_point("i9").unwrap(), Point::new(8, 6));
    assert_eq!(b.format_point(Point::new(8, 6)), "i9");
    assert!(matches!(
        b.parse_point("p8"),
        Err(GomokuError::OffBoard { .. })
    ));
    assert!(matches!(
        b.parse_point("h16"),
        Err(GomokuError::OffBoard { .. })
    ));
    assert!(matches!(
        b.parse_point("h0"),
        Err(GomokuError::OffBoard { .. })
    ));
    assert!(matches!(
        b.parse_point("8h"),
        Err(GomokuError::BadCoordinate { .. })
    ));
    assert!(matches!(
        b.parse_point("h8x"),
        Err(GomokuError::BadCoordinate { .. })
    ));
    let b = Board::from_moves(15, Rule::Freestyle, "h8g7f6 i10").unwrap();
    assert_eq!(b.move_string(), "h8g7f6i10");
    assert_eq!(b.side_to_move(), Side::First);
    assert_eq!(
        b.parse_move("7,7").unwrap_err(),
        GomokuError::Occupied { text: "h8".into() }
    );
    assert_eq!(b.parse_move("0,0").unwrap(), Point::new(0, 0));
    assert_eq!(b.format_move(Point::new(0, 0)), "a15");
    let big = Board::new(26, Rule::Freestyle).unwrap();
    assert_eq!(big.parse_point("z26").unwrap(), Point::new(25, 0));
    assert!(Board::new(4, Rule::Freestyle).is_err());
    assert!(Board::new(27, Rule::Freestyle).is_err());
    assert!(matches!(
        Board::from_moves(15, Rule::Freestyle, "h8h8"),
        Err(GomokuError::Occupied { .. })
    ));
}

#[test]
fn five_wins_under_every_rule() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let b = play(rule, "h8a1i8a2j8a3k8a4l8");
        assert_eq!(
            b.game_end(),
            Some((Outcome::Win(Side::First), EndReason::Five)),
            "{rule}"
        );
        assert_eq!(b.game_end().unwrap().1.to_string(), "five in a row");
        let mut moves = vec![];
        assert_eq!(
            b.generate_moves(&mut moves),
            Some(Outcome::Win(Side::First))
        );
        assert!(moves.is_empty());
    }
}

#[test]
fn overline() {
    // Black: h8 i8 j8 l8 m8, then k8 makes six.
    let six = "h8a1i8a2j8a3l8a5m8a7k8";
    let b = play(Rule::Freestyle, six);
    assert_eq!(
        b.game_end(),
        Some((Outcome::Win(Side::First), EndReason::Overline))
    );
    let b = play(Rule::Standard, six);
    assert_eq!(
        b.game_end(),
        None,
        "six wins for nobody under the standard rule"
    );
    let b = play(Rule::Renju, six);
    assert_eq!(
        b.game_end(),
        Some((
            Outcome::Win(Side::Second),
            EndReason::Forbidden(ForbiddenKind::Overline)
        ))
    );
    // White overline wins under renju.
    let w = "a1h8c1i8e1j8a3l8c3m8e3k8";
    let b = play(Rule::Renju, w);
    assert_eq!(
        b.game_end(),
        Some((Outcome::Win(Side::Second), EndReason::Overline))
    );
    let b = play(Rule::Standard, w);
    assert_eq!(b.game_end(), None);
}

#[test]
fn renju_fouls_and_five_first() {
    // Double four: h8 i8 j8 (row 8) and k5 k6 k7 (column k); k8 makes two fours.
    let b = play(Rule::Renju, "h8a1i8a3j8a5k5a7k6a9k7a11");
    let k8 = b.parse_point("k8").unwrap();
    assert_eq!(b.forbidden_kind(k8), Some(ForbiddenKind::DoubleFour));
    // Double three: h8 i8 and k6 k7 (open); k8 makes two open threes.
    let b = play(Rule::Renju, "h8a1i8a3k6a5k7a7");
    assert_eq!(b.forbidden_kind(k8), Some(ForbiddenKind::DoubleThree));
    // Four-three is legal.
    let b = play(Rule::Renju, "h8a1i8a3j8a5k6a7k7a9");
    assert_eq!(b.forbidden_kind(k8), None);
    // Five first: g8 h8 i8 j8 in a row and k5 k6 k7 k9: k8 makes a five and an overline-free four.
    let b = play(Rule::Renju, "g8a1h8a3i8a5j8a7k6a9k7a11k9a13");
    assert_eq!(b.forbidden_kind(k8), None);
    let mut b2 = b.clone();
    assert_eq!(
        b2.play_checked(k8).unwrap(),
        Some((Outcome::Win(Side::First), EndReason::Five))
    );
    // The same shapes are not forbidden under the other rules or for White.
    let b = play(Rule::Standard, "h8a1i8a3j8a5k5a7k6a9k7a11");
    assert_eq!(b.forbidden_kind(k8), None);
}

#[test]
fn full_board_draws() {
    // 5x5 pattern with no five anywhere.
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let (mut black, mut white) = (vec![], vec![]);
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if (x, y) == (4, 4) {
                continue;
            }
            if c == 'X' {
                black.push(Point::new(x, y))
            } else {
                white.push(Point::new(x, y))
            }
        }
    }
    let mut b = Board::from_stones(5, Rule::Freestyle, &black, &white, Some(Side::First)).unwrap();
    assert_eq!(b.game_end(), None);
    assert_eq!(
        b.play_checked(Point::new(4, 4)).unwrap(),
        Some((Outcome::Draw, EndReason::BoardFull))
    );
    assert_eq!(b.game_end().unwrap().1.to_string(), "the board is full");
}

#[test]
fn display() {
    let b = Board::from_moves(5, Rule::Freestyle, "c3b2").unwrap();
    insta::assert_snapshot!("display_5x5", b.to_string());
}

#[test]
fn undo_reopens_only_games_ended_by_the_undone_move() {
    let mut b = play(Rule::Freestyle, "h8a1i8a2j8a3k8a4");
    let l8 = b.parse_point("l8").unwrap();
    b.play(l8);
    assert!(b.game_end().is_some());
    b.undo(l8);
    assert_eq!(b.game_end(), None);
    // A position set up with a five already on the board stays over through play and undo.
    let black: Vec<Point> = ["h8", "i8", "j8", "k8", "l8"]
        .iter()
        .map(|m| b.parse_point(m).unwrap())
        .collect();
    let white: Vec<Point> = ["a1", "a2", "a3", "a4"]
        .iter()
        .map(|m| b.parse_point(m).unwrap())
        .collect();
    let mut c = Board::from_stones(15, Rule::Freestyle, &black, &white, None).unwrap();
    assert_eq!(
        c.game_end(),
        Some((Outcome::Win(Side::First), EndReason::Five))
    );
    let p = c.parse_point("c3").unwrap();
    c.play(p);
    c.undo(p);
    assert_eq!(
        c.game_end(),
        Some((Outcome::Win(Side::First), EndReason::Five))
    );
}
