//! Connect6 conformance: the generic suite on the standard 19x19 board and on small boards
//! (where the search equivalence reaches depth 3). The reference generator is the rule:
//! every empty point is a legal stone until someone has six or the board is full. Each stone
//! is one ply; the suite's equivalence check covers the turns where the side stays the same.

use connect6::{Cell, Connect6, Point, Stone};
use game_core::Position;
use tests::Conformance;

fn reference_moves(p: &Connect6) -> Vec<Stone> {
    if p.game_end().is_some() {
        return Vec::new();
    }
    let n = p.size() as u8;
    (0..n)
        .flat_map(|y| (0..n).map(move |x| Point::new(x, y)))
        .filter(|&pt| p.cell(pt) == Some(Cell::Empty))
        .map(|pt| p.stone_at(pt).expect("on the board"))
        .collect()
}

fn suite(
    name: &str,
    starts: Vec<Connect6>,
    games: usize,
    depth: u32,
    every: usize,
    seed: u64,
) -> usize {
    Conformance::new(name, starts, games, 25 * 25)
        .seed(seed)
        .reference_moves(reference_moves)
        .snapshot(|p: &Connect6| format!("{p:?}"))
        .key_from_scratch(Connect6::key_from_scratch)
        .notation(
            "ConnectMore",
            |p: &Connect6, m: Stone| m.point(p.size()).to_connectmore(),
            |p: &Connect6, s| p.parse_move(s).ok(),
        )
        .search_equivalence(depth, every)
        .run()
}

#[test]
fn connect6_conforms_on_19x19() {
    let starts = vec![
        Connect6::standard(),
        Connect6::from_moves(19, "j10 j9l11").unwrap(),
    ];
    assert!(suite("connect6 19x19", starts, 15, 2, 40, 1) > 3_000);
}

#[test]
fn connect6_conforms_on_small_boards() {
    let starts = vec![Connect6::new(7).unwrap(), Connect6::new(9).unwrap()];
    assert!(suite("connect6 small", starts, 30, 3, 8, 2) > 1_000);
}
