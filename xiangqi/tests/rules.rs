//! Hand-built positions, one per named rule (`shared/docs/xiangqi.md`, "Rules a correct move
//! generator obeys" and "Game end by rule"), plus the terminal position t11 of tactics.txt.

use game_core::{Outcome, Position as _, Side};
use xiangqi::{EndReason, Illegal, MoveError, Position, PositionError, Square, check_move};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    let b = s.as_bytes();
    Square::new(b[0] - b'a', b[1] - b'0').expect("square")
}

fn sorted_moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn illegal(p: &Position, from: &str, to: &str) -> Illegal {
    check_move(p, sq(from), sq(to)).expect_err("move should be illegal")
}

fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = p.parse_iccs(m).unwrap_or_else(|e| panic!("{e}"));
        p.play(mv);
    }
}

#[test]
fn t11_is_checkmate_for_the_side_to_move() {
    // The kings face each other here (strictly impossible: Black's last move exposed its own
    // king), so the strict reader rejects it; engines accept it, and so does the lenient one.
    let fen = "4k4/9/9/9/9/9/9/9/3p5/r3K4 w - - 0 1";
    assert_eq!(
        Position::from_fen(fen).unwrap_err(),
        xiangqi::FenError::Position(PositionError::KingsFacing)
    );
    let p = Position::from_fen_lenient(fen).unwrap();
    assert!(p.is_check());
    assert!(p.legal_moves().is_empty());
    let mut v = Vec::new();
    assert_eq!(p.generate_moves(&mut v), Some(Outcome::Win(Side::Second)));
    assert_eq!(
        p.game_end(),
        Some((Outcome::Win(Side::Second), EndReason::Checkmate))
    );
    assert_eq!(EndReason::Checkmate.to_string(), "checkmate");
}

#[test]
fn stalemate_loses() {
    // Black king d9 not in check; d8 is covered by the rook on a8, e9 by the rook on e5.
    let p = pos("3k5/R8/9/9/4R4/9/9/9/9/5K3 b - - 0 1");
    assert!(!p.is_check());
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.game_end(),
        Some((Outcome::Win(Side::First), EndReason::Stalemate))
    );
}

#[test]
fn flying_general_takes_squares_from_the_king() {
    // Red king d0 may not step to e0, facing the black king on e9 over an open file.
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(sorted_moves(&p), ["d0d1"]);
    assert_eq!(illegal(&p, "d0", "e0"), Illegal::KingsFacing);
    let err = p.parse_iccs("d0e0").unwrap_err();
    assert_eq!(
        err.to_string(),
        "'d0e0': illegal: would leave the kings facing each other (flying general)"
    );
}

#[test]
fn flying_general_pins_the_only_piece_between_the_kings() {
    let p = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1");
    assert_eq!(sorted_moves(&p), ["e0d0", "e0e1", "e0f0"]);
    assert_eq!(illegal(&p, "e4", "d6"), Illegal::KingsFacing);
}

#[test]
fn flying_general_protects_a_checking_piece() {
    // A rook on e1 checks the red king d1? No: the black rook on d2 checks the king on d1; the
    // king may not capture it, since the black king on d9 would then face it on the d file.
    let p = pos("3k5/9/9/9/9/9/9/3r5/3K5/9 w - - 0 1");
    assert!(p.is_check());
    assert_eq!(illegal(&p, "d1", "d2"), Illegal::KingsFacing);
    assert!(!sorted_moves(&p).contains(&"d1d2".to_string()));
}

#[test]
fn pins_through_a_cannon_screen() {
    // Black cannon e8, red horse e4 and rook e2 between it and the red king e0: two screens.
    // Removing either from the file leaves one screen: the cannon would check.
    let p = pos("3k5/4c4/9/9/9/4N4/9/4R4/9/4K4 w - - 0 1");
    assert!(!p.is_check());
    assert_eq!(sorted_moves(&p), ["e0e1", "e0f0", "e2e1", "e2e3"]);
    assert_eq!(illegal(&p, "e4", "d6"), Illegal::LeavesKingInCheck);
    assert_eq!(illegal(&p, "e2", "a2"), Illegal::LeavesKingInCheck);
    assert_eq!(illegal(&p, "e0", "d0"), Illegal::KingsFacing);
    let err = p.parse_any("e4d6").unwrap_err();
    assert_eq!(
        err.to_string(),
        "'e4d6': illegal: would leave the king in check"
    );
}

#[test]
fn a_piece_moving_onto_the_file_becomes_a_cannon_screen() {
    // Black cannon e7 faces the red king e0 over an empty file: any red piece landing between
    // them is a screen, so the cannon would check.
    let p = pos("3k5/9/4c4/9/9/9/9/2N6/9/4K4 w - - 0 1");
    assert_eq!(illegal(&p, "c2", "e1"), Illegal::LeavesKingInCheck);
    assert_eq!(illegal(&p, "c2", "e3"), Illegal::LeavesKingInCheck);
    assert!(check_move(&p, sq("c2"), sq("d4")).is_ok());
}

#[test]
fn horse_leg() {
    let p = Position::startpos();
    assert_eq!(illegal(&p, "b0", "d1"), Illegal::HorseLeg);
    assert_eq!(illegal(&p, "b0", "c1"), Illegal::HorseStep);
    assert!(check_move(&p, sq("b0"), sq("c2")).is_ok());
    let err = p.parse_any("b0d1").unwrap_err();
    assert_eq!(err.to_string(), "'b0d1': illegal: horse leg blocked");
    // A horse can attack a piece that cannot attack it back: the leg is on the other side.
    let red = pos("4k4/9/9/9/9/2n6/2P6/3N5/9/3K5 w - - 0 1");
    assert!(
        check_move(&red, sq("d2"), sq("c4")).is_ok(),
        "red horse d2 takes c4 (leg d3 free)"
    );
    let black = pos("4k4/9/9/9/9/2n6/2P6/3N5/9/3K5 b - - 0 1");
    assert_eq!(
        illegal(&black, "c4", "d2"),
        Illegal::HorseLeg,
        "black horse c4 is blocked at c3"
    );
}

#[test]
fn elephant_eye_and_river() {
    let p = pos("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1");
    assert_eq!(illegal(&p, "c0", "e2"), Illegal::ElephantEye);
    assert!(check_move(&p, sq("c0"), sq("a2")).is_ok());
    let q = pos("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1");
    assert_eq!(illegal(&q, "c4", "e6"), Illegal::ElephantRiver);
    assert_eq!(illegal(&q, "c4", "a6"), Illegal::ElephantRiver);
    let moves = sorted_moves(&q);
    assert!(moves.contains(&"c4a2".to_string()) && moves.contains(&"c4e2".to_string()));
    assert!(
        !moves
            .iter()
            .any(|m| m.starts_with("c4") && m.as_bytes()[3] > b'4')
    );
}

#[test]
fn palace() {
    let p = pos("5k3/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert_eq!(illegal(&p, "d0", "c1"), Illegal::LeavesPalace);
    assert!(check_move(&p, sq("d0"), sq("e1")).is_ok());
    let q = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(illegal(&q, "d0", "c0"), Illegal::LeavesPalace);
    assert_eq!(illegal(&q, "d0", "e1"), Illegal::KingStep);
}

#[test]
fn river_and_pawns() {
    let p = pos("4k4/9/9/9/2P6/9/4P4/9/9/3K5 w - - 0 1");
    // Uncrossed pawn e3: forward only.
    assert_eq!(illegal(&p, "e3", "d3"), Illegal::PawnNotCrossed);
    assert_eq!(illegal(&p, "e3", "e2"), Illegal::PawnBackward);
    // Crossed pawn c5: forward and sideways, never back.
    let moves = sorted_moves(&p);
    for m in ["c5b5", "c5c6", "c5d5", "e3e4"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert_eq!(illegal(&p, "c5", "c4"), Illegal::PawnBackward);
}

#[test]
fn cannon_screen() {
    let p = Position::startpos();
    assert!(
        check_move(&p, sq("h2"), sq("h9")).is_ok(),
        "captures over the cannon on h7"
    );
    assert_eq!(illegal(&p, "h2", "h7"), Illegal::CannonScreen(0));
    assert_eq!(illegal(&p, "h2", "h8"), Illegal::PathBlocked);
    assert_eq!(illegal(&p, "a0", "a4"), Illegal::PathBlocked);
    assert_eq!(illegal(&p, "a0", "b1"), Illegal::NotStraight);
    assert_eq!(illegal(&p, "a0", "a0"), Illegal::SamePoint);
    assert_eq!(illegal(&p, "a0", "b0"), Illegal::OwnPiece(sq("b0")));
    assert_eq!(illegal(&p, "a9", "a8"), Illegal::NotYourPiece(sq("a9")));
    assert_eq!(illegal(&p, "a1", "a2"), Illegal::NoPiece(sq("a1")));
}

#[test]
fn side_not_to_move_in_check_is_impossible() {
    let err = Position::from_fen("R3k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap_err();
    assert_eq!(
        err,
        xiangqi::FenError::Position(PositionError::SideNotToMoveInCheck { side: Side::Second })
    );
}

#[test]
fn perpetual_check_loses() {
    // Red's rook checks on every move of the cycle; Black's king only runs.
    let mut p = pos("R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    play(&mut p, "e9e8 a9a8 e8e9 a8a9");
    // Repeated once: enough inside a search (root further back), not in a game.
    assert_eq!(p.rule_outcome(5), Some(Outcome::Win(Side::Second)));
    assert_eq!(
        p.rule_outcome(4),
        None,
        "the earlier occurrence is the root: needs two"
    );
    assert_eq!(p.game_end(), None);
    play(&mut p, "e9e8 a9a8 e8e9 a8a9");
    assert_eq!(
        p.game_end(),
        Some((Outcome::Win(Side::Second), EndReason::PerpetualCheck))
    );
    assert_eq!(p.rule_outcome(0), Some(Outcome::Win(Side::Second)));
}

#[test]
fn perpetual_check_judged_from_the_checked_side() {
    // The same cycle, seen after Black's move (Red to move): still Red's perpetual check.
    let mut p = pos("R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    play(&mut p, "e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8");
    assert_eq!(
        p.game_end(),
        Some((Outcome::Win(Side::Second), EndReason::PerpetualCheck))
    );
}

#[test]
fn repetition_without_checks_draws() {
    let mut p = pos("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    play(&mut p, "d0d1 f9f8 d1d0 f8f9");
    assert_eq!(p.rule_outcome(5), Some(Outcome::Draw));
    assert_eq!(p.game_end(), None);
    play(&mut p, "d0d1 f9f8 d1d0 f8f9");
    assert_eq!(p.game_end(), Some((Outcome::Draw, EndReason::Repetition)));
}

#[test]
fn a_capture_ends_the_repetition_window() {
    let p = pos("5k3/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    let mut q = p.clone();
    play(&mut q, "d0d1 f9f8 d1d0 f8f9");
    assert_eq!(q.key(), p.key());
    // Null moves reset the window as well.
    let mut r = p.clone();
    r.play_null();
    r.undo_null();
    assert_eq!(r.key(), p.key());
}

#[test]
fn no_capture_limit() {
    let mut p = pos("5k3/9/9/9/9/9/9/9/9/3K5 w - - 119 80");
    assert_eq!(p.game_end(), None);
    play(&mut p, "d0d1");
    assert_eq!(p.halfmove_clock(), 120);
    assert_eq!(
        p.game_end(),
        Some((Outcome::Draw, EndReason::NoCaptureLimit))
    );
    assert_eq!(p.rule_outcome(1), Some(Outcome::Draw));
    let mut v = Vec::new();
    assert_eq!(p.generate_moves(&mut v), Some(Outcome::Draw));
    assert!(v.is_empty());
    p.set_no_capture_limit(0);
    assert_eq!(p.game_end(), None);
    assert_eq!(p.generate_moves(&mut v), None);
    p.set_no_capture_limit(200);
    assert_eq!(p.game_end(), None);
}

#[test]
fn search_aids() {
    let p = Position::startpos();
    let cap = p.parse_iccs("h2h9").unwrap();
    let quiet = p.parse_iccs("h2e2").unwrap();
    assert!(p.is_tactical(cap) && !p.is_tactical(quiet));
    // Captures by MVV-LVA; quiet moves by their small piece-square gain (h2e2 centralises).
    assert!(p.order_hint(cap) > 100 && p.order_hint(quiet) > 0 && p.order_hint(quiet) < 100);
    let mut caps = Vec::new();
    assert_eq!(p.generate_tactical(&mut caps), None);
    let mut caps: Vec<String> = caps.iter().map(ToString::to_string).collect();
    caps.sort();
    assert_eq!(caps, ["b2b9", "h2h9"]);
    assert!(p.null_move_allowed());
    let bare = pos("4k4/9/9/4P4/9/9/9/9/9/3K5 w - - 0 1");
    assert!(!bare.null_move_allowed(), "king and pawn: zugzwang-prone");
    assert!(
        !MoveError::Syntax {
            text: String::new(),
            expected: "x"
        }
        .to_string()
        .is_empty()
    );
}

/// Moves that mate in `n` moves of the side to move (brute force over the legal moves).
fn mates_in(p: &mut Position, n: u32) -> Vec<String> {
    fn wins(p: &mut Position, n: u32) -> bool {
        // Side to move can force mate within n of its moves.
        let me = p.side();
        for mv in p.legal_moves() {
            p.play(mv);
            let ok = match p.game_end() {
                Some((Outcome::Win(w), _)) => w == me,
                Some(_) => false,
                None => {
                    n > 1 && {
                        let replies = p.legal_moves();
                        replies.iter().all(|&r| {
                            p.play(r);
                            let w = wins(p, n - 1);
                            p.undo(r);
                            w
                        })
                    }
                }
            };
            p.undo(mv);
            if ok {
                return true;
            }
        }
        false
    }
    let me = p.side();
    let mut out = Vec::new();
    for mv in p.legal_moves() {
        p.play(mv);
        let ok = match p.game_end() {
            Some((Outcome::Win(w), _)) => w == me,
            Some(_) => false,
            None => {
                n > 1
                    && p.legal_moves().iter().all(|&r| {
                        p.play(r);
                        let w = wins(p, n - 1);
                        p.undo(r);
                        w
                    })
            }
        };
        p.undo(mv);
        if ok {
            out.push(mv.to_string());
        }
    }
    out.sort();
    out
}

#[test]
fn tactics_mates_in_one_and_two() {
    let t1 = &mut pos("3aka3/9/9/9/9/9/3C5/9/4C4/3K5 w - - 0 1");
    assert!(mates_in(t1, 1).contains(&"d3e3".to_string()));
    let t2 = &mut pos("4k4/9/4N4/9/9/9/9/9/9/C4K3 w - - 0 1");
    assert!(mates_in(t2, 1).contains(&"a0e0".to_string()));
    let t5 = &mut pos("3akab2/9/4b1N2/9/9/9/9/9/9/3K1R3 w - - 0 1");
    assert!(mates_in(t5, 1).contains(&"f0f9".to_string()));
    let t7 = &mut pos("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1");
    assert!(mates_in(t7, 1).is_empty());
    assert!(mates_in(t7, 2).contains(&"a1e1".to_string()));
    let t12 = &mut Position::startpos();
    assert!(mates_in(t12, 1).is_empty());
}

#[test]
fn moves_played_lists_the_game() {
    let mut p = Position::startpos();
    play(&mut p, "h2e2 h9g7");
    p.play_null();
    let v: Vec<String> = p.moves_played().map(|m| m.to_string()).collect();
    assert_eq!(v, ["h2e2", "h9g7"]);
    p.undo_null();
    assert_eq!(p.fullmove_number(), 2);
    assert_eq!(p.plies_played(), 2);
}

#[test]
fn checks_beyond_ten_a_side_do_not_count_towards_the_no_capture_limit() {
    // A rook and a horse against a lone king give many checks without captures. The test
    // counts each side's checks itself and expects the draw exactly when the plies minus
    // the checks beyond the tenth of each side reach the limit.
    let limit = 60u16;
    let mut delayed_draws = 0;
    for seed in 1..=60u64 {
        let mut p = pos("3k4r/9/9/9/9/9/9/9/4N4/R4K3 w - - 0 1");
        p.set_no_capture_limit(limit);
        let mut rng = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let mut checks = [0u16; 2];
        let mut saw_excess = false;
        for ply in 1..=200u16 {
            let moves: Vec<_> = p
                .legal_moves()
                .into_iter()
                .filter(|&m| p.piece_on(m.to()).is_none())
                .collect();
            if moves.is_empty() {
                break;
            }
            // Prefer checks, so that a side passes ten of them.
            let checking: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let mut q = p.clone();
                    q.play(m);
                    q.is_check()
                })
                .collect();
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pick = (rng >> 33) as usize;
            let mv = if !checking.is_empty() && pick % 3 != 0 {
                checking[pick % checking.len()]
            } else {
                moves[pick % moves.len()]
            };
            let mover = p.side().index();
            p.play(mv);
            if p.is_check() {
                checks[mover] += 1;
            }
            let excess: u16 = checks.iter().map(|&c| c.saturating_sub(10)).sum();
            saw_excess |= excess > 0;
            let counted = ply - excess;
            // The search's move generation ends the game exactly where the rules do: once
            // it drew at the plain ply count and the engine had no move in a game that went
            // on.
            let mut root = Vec::new();
            let search_draw =
                game_core::Position::generate_moves(&p, &mut root) == Some(Outcome::Draw);
            let rules_draw = matches!(p.game_end(), Some((_, EndReason::NoCaptureLimit)));
            assert_eq!(
                search_draw, rules_draw,
                "seed {seed}: at {ply} plies ({checks:?} checks) the search says draw \
                 {search_draw}, the rules {rules_draw}"
            );
            match p.game_end() {
                Some((_, EndReason::NoCaptureLimit)) => {
                    assert_eq!(
                        counted, limit,
                        "seed {seed}: drawn at {ply} plies, {checks:?} checks"
                    );
                    delayed_draws += usize::from(saw_excess);
                    break;
                }
                Some(_) => break,
                None => assert!(
                    counted < limit,
                    "seed {seed}: no draw at {ply} plies, {checks:?} checks"
                ),
            }
        }
    }
    assert!(
        delayed_draws >= 5,
        "only {delayed_draws} walks passed ten checks and drew"
    );
}
