//! Rules: turn structure, six detection in every direction, draws, keys, notation round trips.

use connect6::{Cell, Connect6, EndReason, MoveError, Point, SetupError};
use game_core::{Outcome, Position, Side};

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

#[test]
fn first_turn_one_stone_then_two() {
    for size in [7, 10, 19, 25] {
        let mut pos = Connect6::new(size).unwrap();
        assert_eq!((pos.to_move(), pos.stones_left()), (Side::First, 1));
        let mut moves = Vec::new();
        assert_eq!(pos.generate_moves(&mut moves), None);
        assert_eq!(moves.len(), size * size);
        assert!(matches!(
            pos.check_turn(&[p(0, 0), p(1, 0)]),
            Err(MoveError::WrongStoneCount {
                expected: 1,
                found: 2,
                ..
            })
        ));
        pos.play_turn(&[p(3, 3)]).unwrap();
        assert_eq!((pos.to_move(), pos.stones_left()), (Side::Second, 2));
        assert!(matches!(
            pos.check_turn(&[p(0, 0)]),
            Err(MoveError::WrongStoneCount { expected: 2, .. })
        ));
        assert!(matches!(
            pos.check_turn(&[p(0, 0), p(0, 0)]),
            Err(MoveError::SamePoint { .. })
        ));
        assert!(matches!(
            pos.check_turn(&[p(0, 0), p(3, 3)]),
            Err(MoveError::Occupied { by: "Black", .. })
        ));
        // Stone by stone: White keeps the move after its first stone.
        pos.play_point(p(0, 0)).unwrap();
        assert_eq!((pos.to_move(), pos.stones_left()), (Side::Second, 1));
        pos.play_point(p(1, 0)).unwrap();
        assert_eq!((pos.to_move(), pos.stones_left()), (Side::First, 2));
        pos.play_turn(&[p(4, 4), p(5, 5)]).unwrap();
        assert_eq!((pos.to_move(), pos.stones_left()), (Side::Second, 2));
        assert_eq!(pos.moves_littlegolem(), "d4 a1b1 e5f6");
        assert_eq!(pos.cell(p(0, 0)), Some(Cell::White));
        assert_eq!(pos.cell(p(3, 3)), Some(Cell::Black));
        assert_eq!(pos.cell(p(6, 6)), Some(Cell::Empty));
        assert_eq!(pos.cell(p(size as u8, 0)), None);
    }
}

#[test]
fn bad_sizes_and_setups() {
    assert_eq!(Connect6::new(6).unwrap_err(), SetupError::BadSize(6));
    assert_eq!(Connect6::new(26).unwrap_err(), SetupError::BadSize(26));
    assert!(matches!(
        Connect6::from_stones(19, &[p(0, 0)], &[p(0, 0)], Side::First),
        Err(SetupError::Duplicate(_))
    ));
    assert!(matches!(
        Connect6::from_stones(9, &[p(9, 0)], &[], Side::First),
        Err(SetupError::OffBoard { .. })
    ));
    let six: Vec<Point> = (0..6).map(|x| p(x, 0)).collect();
    let six2: Vec<Point> = (0..6).map(|x| p(x, 2)).collect();
    assert_eq!(
        Connect6::from_stones(9, &six, &six2, Side::First).unwrap_err(),
        SetupError::TwoWinners
    );
    assert!(matches!(
        Connect6::from_moves(19, "j10 j10k10"),
        Err(SetupError::Move {
            index: 2,
            error: MoveError::Occupied { .. }
        })
    ));
    assert!(matches!(
        Connect6::from_moves(19, "j10 z1"),
        Err(SetupError::Move { .. })
    ));
}

/// Plays a line of `len` black stones from `(x, y)` in direction `(dx, dy)` with legal turns
/// (White answering far away) and returns the position.
fn line(size: usize, start: (i32, i32), dir: (i32, i32), len: usize) -> Connect6 {
    let black: Vec<Point> = (0..len as i32)
        .map(|i| p((start.0 + dir.0 * i) as u8, (start.1 + dir.1 * i) as u8))
        .collect();
    // White stones on points no black line uses: the far row/column pattern.
    let mut white = Vec::new();
    'outer: for y in 0..size as u8 {
        for x in 0..size as u8 {
            let q = p(x, y);
            if black.contains(&q) || (x as usize + y as usize) % 3 != 0 || x.abs_diff(y) < 2 {
                continue;
            }
            let near_line = black
                .iter()
                .any(|b| b.x.abs_diff(x) <= 1 && b.y.abs_diff(y) <= 1);
            if near_line {
                continue;
            }
            white.push(q);
            if white.len() == 2 * len {
                break 'outer;
            }
        }
    }
    let mut pos = Connect6::new(size).unwrap();
    pos.play_turn(&[black[0]]).unwrap();
    let mut bi = 1;
    let mut wi = 0;
    while bi < black.len() {
        pos.play_turn(&[white[wi], white[wi + 1]]).unwrap();
        wi += 2;
        let turn: Vec<Point> = black[bi..(bi + 2).min(black.len())].to_vec();
        bi += turn.len();
        if turn.len() == 1 {
            pos.play_point(turn[0]).unwrap();
        } else {
            pos.play_turn(&turn).unwrap();
        }
    }
    pos
}

#[test]
fn six_and_seven_win_five_does_not_all_directions() {
    for size in [9, 13, 19] {
        let n = size as i32;
        for (dir, start) in [
            ((1, 0), (1, n / 2)),
            ((0, 1), (n / 2, 1)),
            ((1, 1), (1, 1)),
            ((1, -1), (1, n - 2)),
        ] {
            let five = line(size, start, dir, 5);
            assert_eq!(
                five.game_end(),
                None,
                "size {size} dir {dir:?}: five is not a win"
            );
            for len in [6, 7] {
                let pos = line(size, start, dir, len);
                assert_eq!(
                    pos.game_end(),
                    Some((Outcome::Win(Side::First), EndReason::Six)),
                    "size {size} dir {dir:?} len {len}"
                );
                let mut moves = Vec::new();
                assert_eq!(
                    pos.generate_moves(&mut moves),
                    Some(Outcome::Win(Side::First))
                );
                assert!(moves.is_empty());
                let turn = [p(0, n as u8 - 1), p(1, n as u8 - 1)];
                let turn = &turn[..pos.stones_left() as usize];
                assert!(matches!(
                    pos.check_turn(turn),
                    Err(MoveError::GameOver {
                        reason: EndReason::Six
                    })
                ));
            }
        }
    }
}

#[test]
fn six_by_the_first_stone_of_a_turn_allows_the_second() {
    // Black: a1..e1 made over turns; the turn's first stone f1 wins, the second still goes down.
    let mut pos = Connect6::from_stones(
        9,
        &[p(0, 0), p(1, 0), p(2, 0), p(3, 0), p(4, 0)],
        &[p(0, 5), p(1, 5), p(2, 5), p(3, 5), p(5, 7), p(6, 7)],
        Side::First,
    )
    .unwrap();
    pos.play_point(p(5, 0)).unwrap();
    assert_eq!(
        pos.game_end(),
        Some((Outcome::Win(Side::First), EndReason::Six))
    );
    pos.play_point(p(8, 8)).unwrap();
    assert!(matches!(
        pos.play_point(p(7, 7)),
        Err(MoveError::GameOver {
            reason: EndReason::Six
        })
    ));
}

#[test]
fn full_board_is_a_draw() {
    for size in [7usize, 8, 9] {
        // Colour (x/2 + y) % 2: runs of at most two in every direction.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for y in 0..size as u8 {
            for x in 0..size as u8 {
                if (x / 2 + y) % 2 == 0 {
                    a.push(p(x, y))
                } else {
                    b.push(p(x, y))
                }
            }
        }
        let cells = size * size;
        // Black places ceil-ish: 1 + 2k stones; pick the colour class with the right count.
        let black_count = if cells % 2 == 1 {
            cells.div_ceil(2)
        } else {
            cells / 2
        };
        let (black, white) = if a.len() == black_count {
            (a, b)
        } else {
            (b, a)
        };
        // Even boards: Black 1+2k and White 2k cannot be equal, so move one stone over and let
        // the last turn be White's single stone... instead fill through setup then the last turn.
        let mut pos;
        if black.len() == white.len() + 1 {
            pos = Connect6::new(size).unwrap();
            pos.play_turn(&[black[0]]).unwrap();
            for k in 0..white.len() / 2 {
                pos.play_turn(&white[2 * k..2 * k + 2]).unwrap();
                assert_eq!(pos.game_end(), None);
                pos.play_turn(&black[1 + 2 * k..3 + 2 * k]).unwrap();
            }
        } else {
            // Set up all but the last two white stones, White to move, then play them.
            let n = white.len();
            pos = Connect6::from_stones(size, &black, &white[..n - 2], Side::Second).unwrap();
            assert_eq!(pos.game_end(), None);
            pos.play_turn(&white[n - 2..]).unwrap();
        }
        assert_eq!(pos.stone_count(), cells);
        assert_eq!(
            pos.game_end(),
            Some((Outcome::Draw, EndReason::BoardFull)),
            "size {size}"
        );
        let mut moves = Vec::new();
        assert_eq!(pos.generate_moves(&mut moves), Some(Outcome::Draw));
    }
}

#[test]
fn keys_and_undo_restore_everything() {
    let mut pos = Connect6::from_moves(19, "j10 j9l11 k9l8 k10k11").unwrap();
    let start = pos.clone();
    let key = pos.key();
    let mut moves = Vec::new();
    pos.generate_moves(&mut moves);
    let mut seen = std::collections::HashSet::new();
    for &m in &moves {
        pos.play(m);
        assert!(seen.insert(pos.key()));
        let key1 = pos.key();
        let mut inner = Vec::new();
        pos.generate_search_moves(&mut inner);
        for &m2 in inner.iter().take(3) {
            pos.play(m2);
            pos.undo(m2);
            assert_eq!(pos.key(), key1);
        }
        pos.undo(m);
        assert_eq!(pos.key(), key);
        assert_eq!(pos, start);
        for side in Side::BOTH {
            assert_eq!(pos.window_counts(side), start.window_counts(side));
        }
    }
    // Same stones, different stones-left state: different key.
    let a = Connect6::from_stones_in_turn(19, &[p(9, 9)], &[p(8, 8)], Side::Second, 1).unwrap();
    let b = Connect6::from_stones_in_turn(19, &[p(9, 9)], &[p(8, 8)], Side::Second, 2).unwrap();
    let c = Connect6::from_stones_in_turn(19, &[p(9, 9)], &[p(8, 8)], Side::First, 2).unwrap();
    assert_ne!(a.key(), b.key());
    assert_ne!(b.key(), c.key());
}

#[test]
fn threat_counts() {
    // Four in a row with open ends: two threats (blocks f10 and k10 needed).
    let pos = Connect6::from_moves(19, "j10 a1s19 g10h10 a19s1 i10c1").unwrap();
    assert_eq!(pos.threat_count(Side::First), 2);
    assert_eq!(pos.threat_count(Side::Second), 0);
    // Five with one end blocked: one threat.
    let pos = Connect6::from_stones(
        19,
        &[p(0, 9), p(1, 9), p(2, 9), p(3, 9), p(4, 9)],
        &[p(5, 9), p(0, 0)],
        Side::Second,
    )
    .unwrap();
    assert_eq!(pos.threat_count(Side::First), 0);
    let pos = Connect6::from_stones(
        19,
        &[p(1, 9), p(2, 9), p(3, 9), p(4, 9), p(5, 9)],
        &[p(0, 9), p(0, 0)],
        Side::Second,
    )
    .unwrap();
    assert_eq!(pos.threat_count(Side::First), 1);
    // Two separate open fours: four threats, capped at 3.
    let pos = Connect6::from_stones(
        19,
        &[
            p(5, 3),
            p(6, 3),
            p(7, 3),
            p(8, 3),
            p(5, 12),
            p(6, 12),
            p(7, 12),
            p(8, 12),
        ],
        &[
            p(0, 0),
            p(0, 1),
            p(0, 2),
            p(0, 3),
            p(0, 4),
            p(18, 18),
            p(18, 17),
        ],
        Side::Second,
    )
    .unwrap();
    assert_eq!(pos.threat_count(Side::First), 3);
}

#[test]
fn notation_round_trips() {
    let pos = Connect6::from_moves(19, "1.j10 2.j9l11 3.k9,l8").unwrap();
    assert_eq!(pos.moves_littlegolem(), "j10 j9l11 k9l8");
    let again = Connect6::from_moves(19, &pos.moves_littlegolem()).unwrap();
    assert_eq!(again, pos);
    assert_eq!(pos.parse_turn("JKKJ").unwrap(), vec![p(9, 10), p(10, 9)]);
    assert_eq!(pos.parse_turn("a1 b2").unwrap(), vec![p(0, 0), p(1, 1)]);
    assert!(matches!(
        pos.parse_turn("j10a1"),
        Err(MoveError::Occupied { .. })
    ));
    let m = pos.parse_move("a1").unwrap();
    assert_eq!(pos.format_move(m), "a1");
    assert_eq!(pos.format_move(pos.parse_move("JJ").unwrap_or(m)), "a1");
    assert!(pos.parse_move("j10").is_err());
    let board = Connect6::from_moves(7, "d4 c3e5").unwrap().to_string();
    assert_eq!(
        board,
        " 7 . . . . . . .\n 6 . . . . . . .\n 5 . . . . O . .\n 4 . . . X . . .\n 3 . . O . . . .\n 2 . . . . . . .\n 1 . . . . . . .\n   a b c d e f g\nBlack to move, 2 stone(s) to place"
    );
}
