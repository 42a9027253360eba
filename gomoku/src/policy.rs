//! Move ordering from pattern codes: the fitted part of the ordering hint of an empty point for
//! the side to move is `own[kind(me)][pcode(me)] + block[kind(opp)][pcode(opp)]`, the value of
//! the stone for the side playing it plus the value of taking the point from the opponent
//! (Rapfi's `scoreSelf` + `scoreOppo` pattern-code scores, [`crate::pattern::pcode`],
//! [`ValueKind`]); [`crate::Board::move_hint`] adds it, weighted, to the class ordering.
//!
//! The two tables are [`POLICY_WEIGHTS`], fitted by `qi tune gomoku --policy` to the moves of
//! strong games (softmax regression over the search's candidate moves, the `tune` crate's
//! `policy` module). Feature layout: `own` codes of each [`ValueKind`] in order from
//! [`W_OWN`], then the `block` codes from [`W_BLOCK`], [`PCODES`] each.

use crate::pattern::{PCODES, Pattern, ValueKind, pcode};
use crate::policy_weights::WEIGHTS as POLICY_WEIGHTS;

/// Index of the first `own` weight.
pub const W_OWN: usize = 0;
/// Index of the first `block` weight.
pub const W_BLOCK: usize = 3 * PCODES;
/// Hint units per unit of log-probability in the fit (a hint 1000 higher makes a move `e`
/// times likelier).
pub const POLICY_SCALE: i32 = 1000;

/// The index of the `own` ordering weight of a point with direction patterns `pats` for a side
/// of `kind`.
#[must_use]
pub fn own_weight(pats: [Pattern; 4], kind: ValueKind) -> usize {
    W_OWN + kind as usize * PCODES + pcode(pats)
}

/// The index of the `block` ordering weight of a point with the opponent's direction patterns
/// `pats`, the opponent being of `kind`.
#[must_use]
pub fn block_weight(pats: [Pattern; 4], kind: ValueKind) -> usize {
    W_BLOCK + kind as usize * PCODES + pcode(pats)
}

/// The `(own, block)` ordering values of a point with direction patterns `pats` for a side of
/// `kind` (what the class table stores), in hint units.
pub(crate) fn order_values(pats: [Pattern; 4], kind: ValueKind) -> (i16, i16) {
    let v = |i: usize| {
        POLICY_WEIGHTS[i]
            .value
            .clamp(i16::MIN.into(), i16::MAX.into()) as i16
    };
    (v(own_weight(pats, kind)), v(block_weight(pats, kind)))
}

#[cfg(test)]
mod tests {
    use game_core::Position;
    use game_core::tune::{Features, PolicyTunable, dot};

    use super::*;
    use crate::board::Board;
    use crate::pattern::Pattern::{B2, Dead, F3};
    use crate::point::Rule;

    /// The weighted features of every search move equal its ordering hint, in both rules, for
    /// both sides to move, over random games.
    #[test]
    fn features_add_up_to_the_hint() {
        let values: Vec<i32> = POLICY_WEIGHTS.iter().map(|w| w.value).collect();
        let mut state = 12345u64;
        let mut moves = Vec::new();
        let mut f = Features::new();
        for rule in [Rule::Freestyle, Rule::Renju] {
            for _ in 0..20 {
                let mut b = Board::new(15, rule).unwrap();
                for _ in 0..40 {
                    if b.generate_search_moves(&mut moves).is_some() {
                        break;
                    }
                    let me = b.side_to_move();
                    for &mv in &moves {
                        b.move_features(mv, &mut f);
                        assert_eq!(dot(&values, &f), i64::from(b.policy_value(mv, me)));
                    }
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let mv = moves[(state >> 33) as usize % moves.len()];
                    b.play(mv);
                    assert_eq!(b.last_move(), Some(mv));
                }
            }
        }
    }

    #[test]
    fn weights_are_laid_out_by_part_kind_and_code() {
        assert_eq!(POLICY_WEIGHTS.len(), 6 * PCODES);
        let pats = [Dead, F3, B2, F3];
        assert_eq!(
            POLICY_WEIGHTS[own_weight(pats, ValueKind::Free)].name,
            "order.own.free.F3-F3-B2-dead"
        );
        assert_eq!(
            POLICY_WEIGHTS[block_weight(pats, ValueKind::RenjuWhite)].name,
            "order.block.renju_white.F3-F3-B2-dead"
        );
        let mut names = std::collections::HashSet::new();
        for w in &POLICY_WEIGHTS {
            assert!(w.min <= w.value && w.value <= w.max, "{}", w.name);
            assert!(w.value.abs() <= i32::from(i16::MAX), "{}", w.name);
            assert!(names.insert(w.name), "{} twice", w.name);
        }
    }
}
