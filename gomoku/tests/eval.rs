//! Evaluation and search-move tests.

use game_core::{Position, Side};
use gomoku::{Board, Point, Rule, WIN_NOW, WIN_SOON};

fn swapped(b: &Board) -> Board {
    let (mut black, mut white) = (vec![], vec![]);
    for p in b.points() {
        match b.stone(p) {
            Some(Side::First) => white.push(p),
            Some(Side::Second) => black.push(p),
            None => {}
        }
    }
    Board::from_stones(
        b.size(),
        b.rule(),
        &black,
        &white,
        Some(b.side_to_move().opponent()),
    )
    .unwrap()
}

#[test]
fn zero_sum_by_construction() {
    for moves in [
        "h8",
        "h8i9",
        "h8i9g9i7i8g7j10k11h10j9h9",
        "a1b2c3d4e5f6g7",
        "h8h9h10g9f9",
    ] {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let b = Board::from_moves(15, rule, moves).unwrap();
            assert_eq!(b.pattern_score(Side::First), -b.pattern_score(Side::Second));
            let s = swapped(&b);
            assert_eq!(s.evaluate(), b.evaluate(), "{moves}");
            assert_eq!(s.pattern_score(Side::First), b.pattern_score(Side::Second));
        }
    }
}

#[test]
fn won_positions_score_as_won() {
    // Black four h8..k8 (open at g8 and l8), White to move: two five points for Black.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a3j8a5k8").unwrap();
    assert_eq!(b.evaluate(), -WIN_NOW);
    // Black to move with a four: wins now.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a3j8a5k8a7").unwrap();
    assert_eq!(b.evaluate(), WIN_NOW);
    // Black to move with an open three and White without a four: open four next.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a3j8a5").unwrap();
    assert_eq!(b.evaluate(), WIN_SOON);
    // Ordinary position: small score.
    let b = Board::from_moves(15, Rule::Freestyle, "h8i9").unwrap();
    assert!(b.evaluate().abs() < 1000);
}

#[test]
fn search_moves_answer_threats() {
    // White to move, Black has a four h8 i8 j8 k8 blocked at g8: only l8 (White has no five).
    let b = Board::from_moves(15, Rule::Freestyle, "h8g8i8a1j8a3k8").unwrap();
    assert!(b.in_check());
    let mut moves = vec![];
    assert!(b.generate_search_moves(&mut moves).is_none());
    assert_eq!(moves, vec![b.parse_point("l8").unwrap()]);
    // White to move, Black has an open three h8 i8 j8: defences g8 k8 f8 l8 (and White's fours: none).
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a3j8").unwrap();
    assert!(!b.in_check());
    b.generate_search_moves(&mut moves);
    let mut names: Vec<String> = moves.iter().map(|&p| b.format_point(p)).collect();
    names.sort();
    assert_eq!(names, ["f8", "g8", "k8", "l8"]);
    // With a White four available it is also searched.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a2j8a3c13").unwrap();
    b.generate_search_moves(&mut moves);
    assert!(moves.contains(&b.parse_point("a4").unwrap()));
    assert!(moves.contains(&b.parse_point("a5").unwrap()));
    // Own five first.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a2j8a3k8a4").unwrap();
    b.generate_search_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert!(["g8", "l8"].contains(&b.format_point(moves[0]).as_str()));
    // Empty board: the centre.
    let b = Board::new(15, Rule::Renju).unwrap();
    b.generate_search_moves(&mut moves);
    assert_eq!(moves, vec![Point::new(7, 7)]);
    // Ordinary position: near points, every one legal.
    let b = Board::from_moves(15, Rule::Freestyle, "h8i9").unwrap();
    b.generate_search_moves(&mut moves);
    assert!(moves.len() > 20 && moves.len() < 60, "{}", moves.len());
    assert!(moves.iter().all(|&p| b.is_legal(p)));
}
