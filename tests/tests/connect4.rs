//! Connect Four conformance: the generic suite on the standard 7x6 board and on other sizes.
//! The reference generator is the rule: every column with room, until four in a row or a
//! full board.

use connect4::{Column, ConnectFour};
use game_core::Position;
use tests::Conformance;

fn reference_moves(p: &ConnectFour) -> Vec<Column> {
    if p.game_end().is_some() {
        return Vec::new();
    }
    (0..p.width() as u8)
        .map(Column)
        .filter(|&c| p.column_height(c.index()) < p.height())
        .collect()
}

#[test]
fn connect4_conforms() {
    let starts = vec![
        ConnectFour::standard(),
        ConnectFour::from_moves(7, 6, "4453").unwrap(),
        ConnectFour::new(4, 4).unwrap(),
        ConnectFour::new(9, 6).unwrap(),
    ];
    let plies = Conformance::new("connect4", starts, 40, 9 * 6)
        .seed(4)
        .reference_moves(reference_moves)
        .snapshot(|p: &ConnectFour| format!("{p:?}"))
        .key_from_scratch(ConnectFour::key_from_scratch)
        .notation(
            "column number",
            |p: &ConnectFour, c: Column| p.format_move(c),
            |p: &ConnectFour, s| p.parse_move(s).ok(),
        )
        .search_equivalence(4, 10)
        .run();
    assert!(plies > 2_000, "{plies}");
}
