//! Xiangqi conformance: the generic suite over random playouts from the start position and
//! every reference perft position, with an independent, deliberately naive legal-move
//! generator written here from the rules in `shared/docs/xiangqi.md`.

use game_core::Side;
use tests::Conformance;
use xiangqi::{Move, Piece, PieceKind, Position, Square};

/// The board as a plain grid, `grid[file][rank]`.
type Grid = [[Option<Piece>; 10]; 9];

fn grid(pos: &Position) -> Grid {
    let mut g = [[None; 10]; 9];
    for f in 0..9 {
        for r in 0..10 {
            g[f as usize][r as usize] = pos.piece_at(f, r);
        }
    }
    g
}

fn in_palace(side: Side, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && if side == Side::First {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

fn on_board(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

fn own_half(side: Side, r: i32) -> bool {
    if side == Side::First { r <= 4 } else { r >= 5 }
}

/// Every target of the piece on (f, r) by its movement rules alone.
fn targets(g: &Grid, f: i32, r: i32) -> Vec<(i32, i32)> {
    let piece = g[f as usize][r as usize].expect("a piece");
    let side = piece.side;
    let at = |f: i32, r: i32| g[f as usize][r as usize];
    let free_or_enemy = |f: i32, r: i32| on_board(f, r) && at(f, r).is_none_or(|p| p.side != side);
    let mut out = Vec::new();
    match piece.kind {
        PieceKind::King => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (tf, tr) = (f + df, r + dr);
                if in_palace(side, tf, tr) && free_or_enemy(tf, tr) {
                    out.push((tf, tr));
                }
            }
        }
        PieceKind::Advisor => {
            for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let (tf, tr) = (f + df, r + dr);
                if in_palace(side, tf, tr) && free_or_enemy(tf, tr) {
                    out.push((tf, tr));
                }
            }
        }
        PieceKind::Elephant => {
            for (df, dr) in [(2, 2), (2, -2), (-2, 2), (-2, -2)] {
                let (tf, tr) = (f + df, r + dr);
                if on_board(tf, tr)
                    && own_half(side, tr)
                    && at(f + df / 2, r + dr / 2).is_none()
                    && free_or_enemy(tf, tr)
                {
                    out.push((tf, tr));
                }
            }
        }
        PieceKind::Horse => {
            for (df, dr) in [
                (1, 2),
                (-1, 2),
                (1, -2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1),
            ] {
                let (tf, tr) = (f + df, r + dr);
                let (lf, lr) = if dr.abs() == 2 {
                    (f, r + dr / 2)
                } else {
                    (f + df / 2, r)
                };
                if on_board(tf, tr) && at(lf, lr).is_none() && free_or_enemy(tf, tr) {
                    out.push((tf, tr));
                }
            }
        }
        PieceKind::Rook | PieceKind::Cannon => {
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut tf, mut tr) = (f + df, r + dr);
                let mut screened = false;
                while on_board(tf, tr) {
                    match (at(tf, tr), piece.kind, screened) {
                        (None, PieceKind::Rook, _) | (None, _, false) => out.push((tf, tr)),
                        (None, _, true) => {}
                        (Some(p), PieceKind::Rook, _) => {
                            if p.side != side {
                                out.push((tf, tr));
                            }
                            break;
                        }
                        (Some(_), _, false) => screened = true,
                        (Some(p), _, true) => {
                            if p.side != side {
                                out.push((tf, tr));
                            }
                            break;
                        }
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
        PieceKind::Pawn => {
            let forward = if side == Side::First { 1 } else { -1 };
            let mut steps = vec![(0, forward)];
            if !own_half(side, r) {
                steps.extend([(1, 0), (-1, 0)]);
            }
            for (df, dr) in steps {
                if free_or_enemy(f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
    }
    out
}

/// True when `side`'s king is attacked or faces the other king on an open file.
fn king_in_danger(g: &Grid, side: Side) -> bool {
    let find = |s: Side| {
        (0..9)
            .flat_map(|f| (0..10).map(move |r| (f, r)))
            .find(|&(f, r)| {
                g[f as usize][r as usize]
                    == Some(Piece {
                        kind: PieceKind::King,
                        side: s,
                    })
            })
    };
    let Some((kf, kr)) = find(side) else {
        return true;
    };
    if let Some((of, or)) = find(side.opponent())
        && of == kf
    {
        let (lo, hi) = (kr.min(or), kr.max(or));
        if (lo + 1..hi).all(|r| g[kf as usize][r as usize].is_none()) {
            return true;
        }
    }
    (0..9)
        .flat_map(|f| (0..10).map(move |r| (f, r)))
        .any(|(f, r)| {
            g[f as usize][r as usize].is_some_and(|p| p.side != side)
                && targets(g, f, r).contains(&(kf, kr))
        })
}

/// Every legal move, the slow way: each piece's targets, minus those that leave one's own king
/// attacked or facing the other king.
fn reference_moves(pos: &Position) -> Vec<Move> {
    let g = grid(pos);
    let side = pos.side();
    let mut out = Vec::new();
    for f in 0..9 {
        for r in 0..10 {
            if g[f as usize][r as usize].is_none_or(|p| p.side != side) {
                continue;
            }
            for (tf, tr) in targets(&g, f, r) {
                let mut after = g;
                after[tf as usize][tr as usize] = after[f as usize][r as usize].take();
                if !king_in_danger(&after, side) {
                    out.push(Move::new(
                        Square::new(f as u8, r as u8).unwrap(),
                        Square::new(tf as u8, tr as u8).unwrap(),
                    ));
                }
            }
        }
    }
    out
}

fn reference_starts() -> Vec<Position> {
    let text = include_str!("../../reference/xiangqi/perft.txt");
    text.lines()
        .filter_map(|l| l.strip_prefix("fen "))
        .map(|fen| Position::from_fen(fen).expect("reference FEN"))
        .collect()
}

#[test]
fn xiangqi_conforms_from_the_start_position() {
    let checked = Conformance::new("xiangqi start", vec![Position::startpos()], 100, 4000)
        .reference_moves(reference_moves)
        .snapshot(Position::to_fen)
        .key_from_scratch(Position::key_from_scratch)
        .notation(
            "WXF",
            |p: &Position, m| p.format_wxf(m),
            |p: &Position, t| p.parse_wxf(t).ok(),
        )
        .notation(
            "Chinese",
            |p: &Position, m| p.format_chinese(m),
            |p: &Position, t| p.parse_chinese(t).ok(),
        )
        .notation(
            "ICCS dashed",
            |_, m| Position::format_iccs_dashed(m),
            |p: &Position, t| p.parse_iccs(t).ok(),
        )
        .search_equivalence(2, 40)
        .run();
    assert!(checked > 1000, "{checked}");
}

#[test]
fn xiangqi_conforms_from_the_reference_positions() {
    let checked = Conformance::new("xiangqi reference", reference_starts(), 12, 4000)
        .seed(7)
        .reference_moves(reference_moves)
        .snapshot(Position::to_fen)
        .key_from_scratch(Position::key_from_scratch)
        .notation(
            "WXF",
            |p: &Position, m| p.format_wxf(m),
            |p: &Position, t| p.parse_wxf(t).ok(),
        )
        .notation(
            "Chinese",
            |p: &Position, m| p.format_chinese(m),
            |p: &Position, t| p.parse_chinese(t).ok(),
        )
        .search_equivalence(2, 40)
        .run();
    assert!(checked > 1000, "{checked}");
}

#[test]
fn the_reference_generator_agrees_with_published_perft() {
    // The naive generator is itself checked against the published counts before it is
    // trusted as an oracle: perft 2 of every reference position.
    let text = include_str!("../../reference/xiangqi/perft.txt");
    let mut fen = None;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("fen ") {
            fen = Some(f);
        } else if let Some(rest) = line.strip_prefix("perft 2 ") {
            let mut pos = Position::from_fen(fen.unwrap()).unwrap();
            let mut count = 0;
            for mv in reference_moves(&pos) {
                pos.play(mv);
                count += reference_moves(&pos).len() as u64;
                pos.undo(mv);
            }
            assert_eq!(
                count,
                rest.trim().parse::<u64>().unwrap(),
                "{}",
                fen.unwrap()
            );
        }
    }
}
