//! Golden playthroughs: seeded random games of every game recorded ply by ply (board, side to
//! move, sorted legal moves, move played, outcome). Boards are small enough for the legal move
//! lists to stay readable; the rules do not depend on the size.
//!
//! Before the first snapshots were accepted they were checked by hand against the rules: the
//! gomoku 7x7 games end on a five (freestyle) or with Black's forbidden points missing from the
//! list (renju), connect6 alternates one stone then two per turn, and the xiangqi start lists the
//! 44 moves of perft 1.

use connect6::Connect6;
use gomoku::{Board, Rule};
use tests::playthrough;

#[test]
fn gomoku_freestyle_7x7() {
    let start = Board::new(7, Rule::Freestyle).unwrap();
    insta::assert_snapshot!(playthrough(&start, 1, 49, |b| b.to_string()));
}

#[test]
fn gomoku_standard_7x7() {
    let start = Board::new(7, Rule::Standard).unwrap();
    insta::assert_snapshot!(playthrough(&start, 2, 49, |b| b.to_string()));
}

#[test]
fn renju_9x9() {
    // A renju game from a crowded position, so that forbidden points appear early.
    let start = Board::from_moves(9, Rule::Renju, "e5d4f5d6e4f4e6g6").unwrap();
    insta::assert_snapshot!(playthrough(&start, 3, 40, |b| b.to_string()));
}

#[test]
fn connect6_7x7() {
    insta::assert_snapshot!(playthrough(&Connect6::new(7).unwrap(), 4, 49, |p| p.to_string()));
}

#[test]
fn xiangqi_from_the_start() {
    insta::assert_snapshot!(playthrough(&xiangqi::Position::startpos(), 5, 24, |p| p.to_string()));
}
