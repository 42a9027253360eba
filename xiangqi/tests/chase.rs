//! Repetition cycles judged by the Asian (AXF/WXF) rules: perpetual check loses, then
//! perpetual chase loses, any other repetition draws (`shared/docs/xiangqi.md`, "Game end by
//! rule"; the WXF rule book's definitions of chase, protection and the pieces that may chase).
//!
//! Each position is built so that exactly one rule decides it; the comment names the rule. A
//! cycle is played twice (the start position then stands for the third time: a game ends) and
//! once (a search, whose root lies further back, ends there already).

use game_core::{Outcome, Position as _, Side};
use xiangqi::{EndReason, Position};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = p.parse_iccs(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.play(mv);
    }
}

const RED_WINS_BY_CHASE: Option<(Outcome, EndReason)> =
    Some((Outcome::Win(Side::First), EndReason::PerpetualChase));
const BLACK_WINS_BY_CHASE: Option<(Outcome, EndReason)> =
    Some((Outcome::Win(Side::Second), EndReason::PerpetualChase));
const DRAW: Option<(Outcome, EndReason)> = Some((Outcome::Draw, EndReason::Repetition));

/// Plays the four-ply `cycle` from `fen` and checks the search's ruling after one round and
/// the game's after two; returns the position after two rounds.
fn judge(fen: &str, cycle: &str, expected: Option<(Outcome, EndReason)>) -> Position {
    let mut p = pos(fen);
    let key = p.key();
    play(&mut p, cycle);
    assert_eq!(p.key(), key, "{cycle} is not a cycle from {fen}");
    assert_eq!(p.game_end(), None, "a game needs the third occurrence");
    assert_eq!(
        p.rule_outcome(5),
        expected.map(|(o, _)| o),
        "search ruling of {cycle} from {fen}"
    );
    assert_eq!(p.key(), key, "judging the cycle left the position changed");
    assert_eq!(
        p.rule_outcome(4),
        None,
        "the root occurrence needs a second"
    );
    play(&mut p, cycle);
    assert_eq!(p.game_end(), expected, "game ruling of {cycle} from {fen}");
    assert_eq!(p.key(), key);
    assert_eq!(p.key(), p.key_from_scratch());
    p
}

#[test]
fn a_rook_chasing_an_unprotected_horse_loses() {
    // The horse flees c7 <-> b5; every rook move attacks it anew, nothing protects it.
    judge(
        "5k3/9/2n6/9/7R1/9/9/9/9/3K5 w - - 0 1",
        "h5h7 c7b5 h7h5 b5c7",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn a_black_rook_chasing_an_unprotected_horse_loses() {
    // The same cycle with the colours exchanged (ranks mirrored).
    judge(
        "3k5/9/9/9/9/7r1/9/2N6/9/5K3 b - - 0 1",
        "h4h2 c2b4 h2h4 b4c2",
        RED_WINS_BY_CHASE,
    );
}

#[test]
fn the_chase_is_judged_whoever_is_to_move() {
    // The cycle of the first test seen after Red's chasing move (Black to move).
    let mut p = judge(
        "5k3/9/2n6/9/7R1/9/9/9/9/3K5 w - - 0 1",
        "h5h7 c7b5 h7h5 b5c7",
        BLACK_WINS_BY_CHASE,
    );
    play(&mut p, "h5h7");
    assert_eq!(p.game_end(), BLACK_WINS_BY_CHASE);
}

#[test]
fn attacking_a_protected_horse_with_a_rook_is_no_chase() {
    // The horse on e8 protects c7, the rook on b9 protects b5: the rook offers a trade.
    judge(
        "1r3k3/4n4/2n6/9/7R1/9/9/9/9/3K5 w - - 0 1",
        "h5h7 c7b5 h7h5 b5c7",
        DRAW,
    );
}

#[test]
fn a_pinned_protector_is_no_protection() {
    // The horse's protectors, the cannon on c9 (over the pawn on c8) and the rook on b9, are
    // both pinned against the king on d9 by the red cannon on a9: a recapture would expose the
    // king, so the horse is unprotected and the rook chases it.
    judge(
        "Crck5/2P6/2n6/9/7R1/9/9/9/9/4K4 w - - 0 1",
        "h5h7 c7b5 h7h5 b5c7",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn the_same_protectors_unpinned_protect() {
    // Without the red cannon on a9 the recaptures are legal: no chase.
    judge(
        "1rck5/2P6/2n6/9/7R1/9/9/9/9/4K4 w - - 0 1",
        "h5h7 c7b5 h7h5 b5c7",
        DRAW,
    );
}

#[test]
fn a_horse_chasing_a_protected_rook_loses() {
    // A horse attacking a rook chases it even though the rook on d9 protects it.
    judge(
        "3r1k3/9/3r5/2N6/9/9/9/9/9/4K4 w - - 0 1",
        "c6e5 d7d8 e5c6 d8d7",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn a_horse_chasing_an_unprotected_cannon_loses() {
    judge(
        "5k3/9/3c5/2N6/9/9/9/9/9/4K4 w - - 0 1",
        "c6e5 d7d8 e5c6 d8d7",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn a_horse_attacking_a_protected_cannon_is_no_chase() {
    // The rook on d9 protects the cannon on d8 and, over the empty d8, on d7.
    judge(
        "3r1k3/9/3c5/2N6/9/9/9/9/9/4K4 w - - 0 1",
        "c6e5 d7d8 e5c6 d8d7",
        DRAW,
    );
}

#[test]
fn a_cannon_chasing_a_rook_loses() {
    // The cannon attacks the rook over the pawns on e7 and e6 in turn; a cannon attacking a
    // rook chases it, protected or not. The rook's own attacks on the two pawns change
    // victims, so Black chases nothing.
    judge(
        "5k3/9/1r2P4/4P2C1/9/9/9/9/9/3K5 w - - 0 1",
        "h6h7 b7b6 h7h6 b6b7",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn rooks_attacking_each_other_is_no_chase() {
    // The black rook could take the red one as well: a mutual attack offers a trade.
    judge(
        "5k3/9/2r6/9/7R1/9/9/9/9/3K5 w - - 0 1",
        "h5h7 c7c5 h7h5 c5c7",
        DRAW,
    );
}

#[test]
fn the_king_may_chase() {
    // The red king attacks the unprotected cannon on every move; the king is allowed to.
    judge(
        "5k3/9/9/9/9/9/9/4K4/3c5/9 w - - 0 1",
        "e2e1 d1d2 e1e2 d2d1",
        DRAW,
    );
}

#[test]
fn a_pawn_may_chase() {
    // The crossed red pawn attacks the rook on every move; pawns are allowed to.
    judge(
        "3k5/9/3r5/4P4/9/9/9/9/9/5K3 w - - 0 1",
        "e6d6 d7e7 d6e6 e7d7",
        DRAW,
    );
}

#[test]
fn chasing_a_crossed_pawn_loses() {
    // A pawn across the river counts as a piece that can be chased.
    judge(
        "5k3/9/3R5/9/9/9/2p6/9/9/4K4 w - - 0 1",
        "d7c7 c3d3 c7d7 d3c3",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn one_check_one_chase_loses() {
    // Red checks from a9, then attacks the unprotected horse on e5 from a5: a check counts as
    // a chase, so alternating them is a perpetual chase.
    judge(
        "3k5/9/9/9/R3n4/9/9/9/9/5K3 w - - 0 1",
        "a5a9 d9d8 a9a5 d8d9",
        BLACK_WINS_BY_CHASE,
    );
}

#[test]
fn one_check_one_idle_move_draws() {
    // The same rook moves without the horse: a check every other move is allowed.
    judge(
        "3k5/9/9/9/R8/9/9/9/9/5K3 w - - 0 1",
        "a5a9 d9d8 a9a5 d8d9",
        DRAW,
    );
}

#[test]
fn a_standing_attack_is_not_renewed_by_idle_moves() {
    // The rook attacks the unprotected horse throughout, but no move of the cycle creates
    // the threat: both sides only shuffle their kings.
    judge(
        "5k3/9/9/9/2n4R1/9/9/9/9/3K5 w - - 0 1",
        "d0d1 f9f8 d1d0 f8f9",
        DRAW,
    );
}

#[test]
fn perpetual_check_still_loses_first() {
    // Red checks on every move; Black's king only runs.
    judge(
        "R3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
        "e9e8 a9a8 e8e9 a8a9",
        Some((Outcome::Win(Side::Second), EndReason::PerpetualCheck)),
    );
}
