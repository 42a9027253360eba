//! Gomoku conformance: the generic suite under every rule set, on the standard 15x15 and the
//! Gomocup 20x20 boards and on small boards where the search equivalence reaches depth 3.
//! The reference generator is the rules' own statement: every empty point, except Black's
//! forbidden points under renju, and none once the game is over.

use game_core::Side;
use gomoku::{Board, Point, Rule};
use tests::Conformance;

fn reference_moves(b: &Board) -> Vec<Point> {
    if b.game_end().is_some() {
        return Vec::new();
    }
    let black_to_move = b.side_to_move() == Side::First;
    b.points()
        .filter(|&p| {
            b.is_empty(p)
                && !(black_to_move && b.rule() == Rule::Renju && b.forbidden_kind(p).is_some())
        })
        .collect()
}

fn suite(rule: Rule, sizes: &[usize], games: usize, depth: u32, every: usize, seed: u64) -> usize {
    let starts = sizes
        .iter()
        .map(|&n| Board::new(n, rule).unwrap())
        .collect();
    Conformance::new(&format!("gomoku {rule}"), starts, games, 26 * 26)
        .seed(seed)
        .reference_moves(reference_moves)
        .snapshot(|b: &Board| {
            format!(
                "{b}{:?} {:?} {}",
                b.side_to_move(),
                b.game_end(),
                b.move_string()
            )
        })
        .key_from_scratch(Board::key_from_scratch)
        .notation(
            "gomocup x,y",
            |_, m: Point| format!("{},{}", m.x(), m.y()),
            |b: &Board, t| gomoku::parse_gomocup(t, b.size()).ok(),
        )
        .search_equivalence(depth, every)
        .run()
}

#[test]
fn freestyle_conforms() {
    assert!(suite(Rule::Freestyle, &[15, 20], 25, 2, 30, 1) > 5_000);
    assert!(suite(Rule::Freestyle, &[6, 7], 40, 3, 4, 2) > 500);
}

#[test]
fn standard_conforms() {
    assert!(suite(Rule::Standard, &[15, 20], 25, 2, 30, 3) > 5_000);
    assert!(suite(Rule::Standard, &[6, 7], 40, 3, 4, 4) > 500);
}

#[test]
fn renju_conforms() {
    assert!(suite(Rule::Renju, &[15], 40, 2, 30, 5) > 3_000);
    assert!(suite(Rule::Renju, &[7], 40, 3, 4, 6) > 300);
}
