//! The sorted legal move list of every stone-game position in `reference/` (insta). The
//! xiangqi reference positions have theirs in the xiangqi crate's snapshots. The first
//! snapshots were checked against the reference files: under renju every forbidden point the
//! file lists for Black is missing from Black's list, and nothing else is.

use connect6::Connect6;
use game_core::{Position, Side};
use gomoku::{Board, Rule};

fn sorted_moves<P: Position>(pos: &P) -> String {
    let mut moves = Vec::new();
    if let Some(outcome) = pos.generate_moves(&mut moves) {
        return format!("game over: {outcome:?}");
    }
    let mut names: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
    names.sort();
    format!("{} moves: {}", names.len(), names.join(" "))
}

fn reference_lines(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split('|').map(str::trim).collect())
}

fn renju_board(black: &str, white: &str, to_move: Side) -> Board {
    let empty = Board::new(15, Rule::Renju).unwrap();
    let black = empty.parse_points(black).unwrap();
    let white = empty.parse_points(white).unwrap();
    Board::from_stones(15, Rule::Renju, &black, &white, Some(to_move)).unwrap()
}

#[test]
fn renju_forbidden_boards() {
    let text = include_str!("../../reference/gomoku/forbidden.txt");
    for fields in reference_lines(text) {
        let (id, black, white, forbidden) = (fields[0], fields[1], fields[2], fields[3]);
        let board = renju_board(black, white, Side::First);
        let listed = sorted_moves(&board);
        // Every point the file calls forbidden is missing from Black's list, and the list has
        // exactly the empty points less those.
        let forbidden: Vec<&str> = if forbidden == "none" {
            vec![]
        } else {
            forbidden
                .split(' ')
                .map(|f| &f[..f.find('(').unwrap()])
                .collect()
        };
        let names: Vec<&str> = listed.split(": ").nth(1).unwrap().split(' ').collect();
        for f in &forbidden {
            assert!(!names.contains(f), "{id}: forbidden {f} is listed");
        }
        let empties = 225 - board.stone_count();
        assert_eq!(names.len(), empties - forbidden.len(), "{id}");
        insta::assert_snapshot!(format!("forbidden_{id}"), listed);
    }
}

#[test]
fn renju_vcf_boards() {
    let text = include_str!("../../reference/gomoku/vcf.txt");
    for fields in reference_lines(text) {
        let side = if fields[1] == "black" {
            Side::First
        } else {
            Side::Second
        };
        let board = renju_board(fields[2], fields[3], side);
        insta::assert_snapshot!(format!("vcf_{}", fields[0]), sorted_moves(&board));
    }
}

#[test]
fn connect6_positions() {
    let text = include_str!("../../reference/connect6/positions.txt");
    for fields in reference_lines(text) {
        let side = if fields[1] == "black" {
            Side::First
        } else {
            Side::Second
        };
        let probe = Connect6::standard();
        let parse = |s: &str| {
            s.split(' ')
                .flat_map(|p| probe.parse_turn(p).unwrap())
                .collect::<Vec<_>>()
        };
        let pos = Connect6::from_stones(19, &parse(fields[2]), &parse(fields[3]), side).unwrap();
        let listed = sorted_moves(&pos);
        let count: usize = listed.split(' ').next().unwrap().parse().unwrap();
        assert_eq!(
            count,
            361 - pos.stone_count(),
            "{}: every empty point is a legal stone",
            fields[0]
        );
        insta::assert_snapshot!(format!("connect6_{}", fields[0]), listed);
    }
}
