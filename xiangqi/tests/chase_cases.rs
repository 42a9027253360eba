//! Repetition rulings from Fairy-Stockfish's test suite (`test.py`, "Xiangqi chasing rules",
//! github.com/fairy-stockfish/Fairy-Stockfish; its source is the AXF rules,
//! asianxiangqi.org/English/AXF_rules_Eng.pdf, and the WXF rule book's diagrams: D39, D106).
//! Each case is a start position and a move sequence in which a position stands for the third
//! time; the case gives who wins, or a draw. Moves are ICCS (Fairy-Stockfish numbers the ranks
//! 1-10, ICCS 0-9).
//!
//! Fairy-Stockfish's "mutual pins by flying generals" case states no ruling and is left out.
//! The two D39 cases need WXF rule 19 (a piece pinned by its victim does not chase it); the
//! suite calls them controversial, and the rule book rules them as here.

use game_core::{Outcome, Side};
use xiangqi::{EndReason, Position};

/// How the repetition must end: `None` for a draw, else the winner (by perpetual check or
/// chase).
type Ruling = Option<Side>;
const DRAW: Ruling = None;
const RED_WINS: Ruling = Some(Side::First);
const BLACK_WINS: Ruling = Some(Side::Second);

struct Case {
    name: &'static str,
    fen: &'static str,
    moves: &'static str,
    ruling: Ruling,
}

const CASES: &[Case] = &[
    Case {
        name: "Direct chase by cannon",
        fen: "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        moves: "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
        ruling: BLACK_WINS,
    },
    Case {
        name: "Chase with chasing side to move",
        fen: "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        moves: "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7",
        ruling: BLACK_WINS,
    },
    Case {
        name: "Discovered chase by cannon (including pawn capture)",
        fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/CC1AKA3 w - - 0 1",
        moves: "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
        ruling: BLACK_WINS,
    },
    Case {
        name: "Chase by soldier (draw)",
        fen: "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
        moves: "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
        ruling: DRAW,
    },
    Case {
        name: "Discovered and anti-discovered chase by cannon",
        fen: "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        moves: "f4d4 f5d5 d4f4 d5f5 f4d4 f5d5 d4f4 d5f5",
        ruling: BLACK_WINS,
    },
    Case {
        name: "Mutual chase (draw)",
        fen: "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
        moves: "f6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6 h8f7 h6h7 f7g5 h7g7 g5i6 g7g6 i6h8 g6h6",
        ruling: DRAW,
    },
    Case {
        name: "Perpetual check vs. intermittent checks",
        fen: "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
        moves: "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6 d4e4",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier",
        fen: "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
        moves: "f1e1 f2e2 e1f1 e2f2 f1e1 f2e2 e1f1 e2f2",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (2)",
        fen: "3k5/4P4/4b4/3C5/4c4/9/9/9/9/5K3 w - - 0 1",
        moves: "d6e6 e7g5 e6d6 g5e7 d6e6 e7g5 e6d6 g5e7",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (3)",
        fen: "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
        moves: "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (4)",
        fen: "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1",
        moves: "f4d4 f5d5 d4f4 d5f5 f4d4 f5d5 d4f4 d5f5",
        ruling: BLACK_WINS,
    },
    Case {
        name: "Perpetual check by soldier (5)",
        fen: "4k4/9/4b4/2c2nR2/9/9/9/9/9/3K5 w - - 0 1",
        moves: "g6g5 f6g8 g5g6 g8f6 g6g5 f6g8 g5g6 g8f6",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (6)",
        fen: "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
        moves: "d9e9 d8e8 e9d9 e8d8 d9e9 d8e8 e9d9 e8d8",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (7)",
        fen: "4ck3/9/9/9/9/2r1R4/9/9/4A4/3AK4 w - - 0 1",
        moves: "e4e3 c4c3 e3e4 c3c4 e4e3 c4c3 e3e4 c3c4",
        ruling: RED_WINS,
    },
    Case {
        name: "Perpetual check by soldier (8)",
        fen: "4k4/9/9/c1c6/9/r8/9/9/C8/3K5 w - - 0 1",
        moves: "a1c1 a4c4 c1a1 c4a4 a1c1 a4c4 c1a1 c4a4",
        ruling: RED_WINS,
    },
    Case {
        name: "Mutual perpetual check",
        fen: "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
        moves: "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6",
        ruling: DRAW,
    },
    Case {
        name: "Mutual perpetual check (2)",
        fen: "3k5/6c2/9/7P1/6c2/6P2/9/9/9/5K3 w - - 0 1",
        moves: "h6g6 g5h5 g6h6 h5g5 h6g6 g5h5 g6h6 h5g5",
        ruling: DRAW,
    },
    Case {
        name: "Mutual perpetual check (3)",
        fen: "4ck3/9/9/9/9/2r1R1N2/6N2/9/4A4/3AK4 w - - 0 1",
        moves: "e4e3 c4c3 e3e4 c3c4 e4e3 c4c3 e3e4 c3c4",
        ruling: DRAW,
    },
    Case {
        name: "Mutual perpetual check (4)",
        fen: "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
        moves: "c2a2 a6c6 a2c2 c6a6 c2a2 a6c6 a2c2 c6a6",
        ruling: DRAW,
    },
    Case {
        name: "Mutual perpetual check (5)",
        fen: "4k4/9/r1r6/9/PPPP5/9/9/9/1C7/5K3 w - - 0 1",
        moves: "b1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1 a7b7 a1c1 c7d7 c1b1 b7a7 b1d1 d7c7 d1a1",
        ruling: DRAW,
    },
    Case {
        name: "D106: Chariot chases cannon, but attack actually does not change (draw)",
        fen: "3k2b2/4P4/4b4/9/8p/6Bc1/6P1P/3AB4/4pp3/1p1K3R1 w - - 0 1",
        moves: "h0h1 h4h3 h1h0 h3h4 h0h1 h4h3 h1h0 h3h4",
        ruling: DRAW,
    },
    Case {
        name: "D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases)",
        fen: "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
        moves: "b6b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9 e8f9 b9b8",
        ruling: BLACK_WINS,
    },
    Case {
        name: "D39: Chased chariot pinned by horse + mutual chase (controversial if pinned chariot chases) (2)",
        fen: "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
        moves: "e1f0 h3h1 f0e1 h1h3 e1f0 h3h1 f0e1 h1h3",
        ruling: RED_WINS,
    },
    Case {
        name: "Creating pins to undermine root",
        fen: "4k4/4c4/9/4p4/9/9/3rn4/3NR4/4K4/9 b - - 0 1",
        moves: "e3g4 e1f1 g4e3 f1e1 e3g4 e1f1 g4e3 f1e1",
        ruling: RED_WINS,
    },
    Case {
        name: "Discovered check capture threat by rook",
        fen: "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
        moves: "b4c2 b0c0 c2b4 c0b0 b4c2 b0c0 c2b4 c0b0",
        ruling: RED_WINS,
    },
    Case {
        name: "Creating a pin to undermine root + discovered check threat by horse",
        fen: "5k3/9/9/9/9/4c4/3n5/3NBA3/4A4/4K4 w - - 0 1",
        moves: "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4",
        ruling: RED_WINS,
    },
    Case {
        name: "Creating a pin to undermine root + discovered check threat by rook",
        fen: "5k3/9/9/9/9/4c4/3r5/3NB4/4A4/4K4 w - - 0 1",
        moves: "e0d0 e4d4 d0e0 d4e4 e0d0 e4d4 d0e0 d4e4",
        ruling: RED_WINS,
    },
    Case {
        name: "X-Ray protected discovered check",
        fen: "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
        moves: "d0c2 h0h2 c2d0 h2h0 d0c2 h0h2 c2d0 h2h0",
        ruling: RED_WINS,
    },
    Case {
        name: "No overprotection by king",
        fen: "3k5/9/9/3n5/9/9/3r5/9/9/3NK4 w - - 0 1",
        moves: "d0c2 d3c3 c2d0 c3d3 d0c2 d3c3 c2d0 c3d3",
        ruling: DRAW,
    },
    Case {
        name: "Overprotection by king",
        fen: "3k5/9/9/9/9/9/3r5/9/9/3NK4 w - - 0 1",
        moves: "d0c2 d3c3 c2d0 c3d3 d0c2 d3c3 c2d0 c3d3",
        ruling: RED_WINS,
    },
    Case {
        name: "Fake protection by cannon",
        fen: "5k3/9/9/9/9/1C7/1r7/9/1C7/4K4 w - - 0 1",
        moves: "b4c4 b3c3 c4b4 c3b3 b4c4 b3c3 c4b4 c3b3",
        ruling: RED_WINS,
    },
    Case {
        name: "Fake protection by cannon + mutual chase",
        fen: "4ka3/c2R1R2c/4b4/9/9/9/9/9/9/4K4 w - - 0 1",
        moves: "f8f6 f9e8 f6f8 e8f9 f8f6 f9e8 f6f8 e8f9",
        ruling: DRAW,
    },
];

/// Plays `case` until the game ends; returns the ending and the number of moves played.
fn play_out(case: &Case) -> (Option<(Outcome, EndReason)>, usize) {
    let mut p = Position::from_fen(case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.name));
    for (k, m) in case.moves.split_whitespace().enumerate() {
        let mv = p
            .parse_iccs(m)
            .unwrap_or_else(|e| panic!("{}: {m}: {e}", case.name));
        assert!(p.is_legal(mv), "{}: {m} is not legal", case.name);
        p.play(mv);
        if let Some(end) = p.game_end() {
            return (Some(end), k + 1);
        }
    }
    (None, case.moves.split_whitespace().count())
}

#[test]
fn every_case_is_ruled_as_the_suite_rules_it() {
    let mut wrong = Vec::new();
    for case in CASES {
        let (end, played) = play_out(case);
        let right = match (case.ruling, end) {
            (None, Some((Outcome::Draw, EndReason::Repetition))) => true,
            // The suite says who wins, not whether by perpetual check or chase.
            (
                Some(side),
                Some((Outcome::Win(w), EndReason::PerpetualCheck | EndReason::PerpetualChase)),
            ) => w == side,
            _ => false,
        };
        if !right {
            wrong.push(format!(
                "{}: expected {:?}, got {end:?} after {played} moves",
                case.name, case.ruling
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        CASES.len(),
        wrong.join("\n")
    );
}

#[test]
fn the_suite_has_every_kind_of_ruling() {
    // A suite of one kind could not tell a judge that always says the same thing.
    let count = |r: Ruling| CASES.iter().filter(|c| c.ruling == r).count();
    assert_eq!(CASES.len(), 32);
    assert_eq!(
        (count(RED_WINS), count(BLACK_WINS), count(DRAW)),
        (16, 6, 10)
    );
}
