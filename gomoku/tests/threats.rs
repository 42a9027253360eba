//! VCF / VCT tests against reference/gomoku/vcf.txt and hand-made positions.

use game_core::{Outcome, Position, Side};
use gomoku::{Board, Rule, ThreatSolver};

const FILE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/gomoku/vcf.txt"
));

struct Case {
    id: String,
    board: Board,
    first_moves: Vec<String>,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for line in FILE
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let probe = Board::new(15, Rule::Renju).unwrap();
        let side = if f[1] == "black" {
            Side::First
        } else {
            Side::Second
        };
        let black = probe.parse_points(f[2]).unwrap();
        let white = probe.parse_points(f[3]).unwrap();
        let board = Board::from_stones(15, Rule::Renju, &black, &white, Some(side)).unwrap();
        let first_moves = f[4]
            .split('(')
            .next()
            .unwrap()
            .split(" or ")
            .map(|s| s.trim().to_string())
            .collect();
        out.push(Case {
            id: f[0].to_string(),
            board,
            first_moves,
        });
    }
    out
}

/// Replays a VCF line: every attacker move is a four, every defender move the only block, and
/// the attacker wins at the end.
fn check_vcf_line(board: &Board, line: &[gomoku::Point]) {
    let attacker = board.side_to_move();
    let mut b = board.clone();
    for (i, &p) in line.iter().enumerate() {
        if b.side_to_move() == attacker {
            assert!(
                b.makes_four(p, attacker),
                "move {i} {} is not a four",
                b.format_point(p)
            );
            assert!(b.is_legal(p));
        } else {
            assert!(
                b.has_five_point(attacker),
                "defender move {i} is not forced"
            );
            assert_eq!(b.five_point(attacker), Some(p));
        }
        b.play_checked(p).unwrap();
    }
    assert_eq!(
        b.game_end().map(|e| e.0),
        Some(Outcome::Win(attacker)),
        "{}",
        b.move_string()
    );
}

#[test]
fn every_reference_vcf_solved() {
    let cases = cases();
    assert_eq!(cases.len(), 3);
    for case in &cases {
        let mut solver = ThreatSolver::new();
        let line = solver
            .vcf(&case.board, 30)
            .unwrap_or_else(|| panic!("{}: no VCF", case.id));
        check_vcf_line(&case.board, &line);
        let first = case.board.format_point(line[0]);
        eprintln!(
            "{}: {} ({} plies) first {} reference {:?}",
            case.id,
            case.board.move_string(),
            line.len(),
            first,
            case.first_moves
        );
    }
}

#[test]
fn renju_white_vcf_ends_on_a_forbidden_block() {
    // White four whose only block is a Black double-four point: White wins.
    // Black: h8 i8 j8 (row 8) and k5 k6 k7 (column k); k8 is a double four for Black.
    // White: k9 k10 k11 and k12 already; wait, White needs a four with five point k8:
    // White k9 k10 k11 k12 blocked at k13 by Black: five point k8.
    let mut b = Board::new(15, Rule::Renju).unwrap();
    for m in [
        "h8", "k9", "i8", "k10", "j8", "k11", "k5", "a1", "k6", "k13", "k7",
    ] {
        b.play_checked(b.parse_point(m).unwrap()).unwrap();
    }
    // White to move: k12 makes a four whose five point k8 Black cannot take.
    assert_eq!(b.side_to_move(), Side::Second);
    let k8 = b.parse_point("k8").unwrap();
    assert!(b.is_forbidden(k8));
    let line = ThreatSolver::new().vcf(&b, 5).expect("White VCF");
    assert_eq!(b.format_point(line[0]), "k12");
    check_vcf_line(&b, &line);
}

#[test]
fn defender_finds_the_block_of_a_vcf() {
    // Black has a VCF from the reference position; with White to move instead, every move
    // returned must stop it.
    let case = &cases()[0];
    let mut b = case.board.clone();
    // Pass the move to White by building the same stones with White to move.
    let (mut black, mut white) = (vec![], vec![]);
    for p in b.points() {
        match b.stone(p) {
            Some(Side::First) => black.push(p),
            Some(Side::Second) => white.push(p),
            None => {}
        }
    }
    b = Board::from_stones(15, Rule::Renju, &black, &white, Some(Side::Second)).unwrap();
    let mut solver = ThreatSolver::new();
    let defences = solver.vcf_defences(&b, 30);
    assert!(!defences.is_empty());
    let mut all = vec![];
    b.generate_search_moves(&mut all);
    assert!(
        defences.len() < all.len(),
        "some moves must lose to the VCF"
    );
    for d in defences {
        let mut c = b.clone();
        c.play(d);
        assert!(ThreatSolver::new().vcf(&c, 30).is_none());
    }
}

#[test]
fn vct_finds_open_three_wins() {
    // Freestyle: Black h8 i8 (open two) with j9 k10... simple: Black can make a double open three.
    // Black stones h8 i8 and j10 j11; White far away. j8 makes an open three on row 8 and
    // column j (j8 j10 j11 split three): a double three, winning by VCT in freestyle.
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8o1j10a15j11o15").unwrap();
    let line = ThreatSolver::new().vct(&b, 6).expect("VCT");
    let mut c = b.clone();
    c.play(line[0]);
    assert!(c.class_count(Side::First, gomoku::pattern::Class::OpenFour) >= 1);
    assert!(ThreatSolver::new().vcf(&b, 20).is_none());
}
