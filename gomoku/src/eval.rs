//! The evaluation: point values from the incremental patterns, zero-sum by construction, with
//! won and lost positions recognised from the point classes.

use game_core::score::MAX_EVAL;
use game_core::{Evaluate, Score, Side};

use crate::point::Rule;

use crate::board::Board;
use crate::pattern::Class;
use crate::weights::WEIGHTS;

/// Score of a position the side to move wins at once (a five to play): just inside
/// [`MAX_EVAL`] so that the search still prefers a real, shorter mate.
pub const WIN_NOW: Score = MAX_EVAL - 1;
/// Score of a position the side to move wins with an open four (three plies).
pub const WIN_SOON: Score = MAX_EVAL - 3;
/// The point values' sum counts a quarter in the evaluation: the pattern part of the score is
/// `(point value difference) / POINT_DIVISOR`; [`crate::tune`]'s feature scale.
pub const POINT_DIVISOR: i32 = 4;

/// Index in [`WEIGHTS`] of the first threat tempo weight of [`Board::threat_score`], in
/// evaluation units (an open three is about 200): the side to move has a four-three point, a
/// double-three point (not Black under renju), each open-three point (up to four); the
/// opponent has a four-three point, an open-four point (a three to answer now), a double-three
/// point. Hand-set values (measured: `docs/experiments.md`).
pub(crate) const W_THREAT: usize = 22;

/// Threat tempo weights, in the order above.
pub const THREAT_WEIGHTS: [Score; 6] = [
    WEIGHTS[W_THREAT].value,
    WEIGHTS[W_THREAT + 1].value,
    WEIGHTS[W_THREAT + 2].value,
    WEIGHTS[W_THREAT + 3].value,
    WEIGHTS[W_THREAT + 4].value,
    WEIGHTS[W_THREAT + 5].value,
];

/// Index in [`WEIGHTS`] of the first threat-mask correction (after the pattern-code ones):
/// [`THREAT_MASKS`] values for each of three kinds of position (freestyle or standard; renju
/// with Black to move; renju with White to move), at
/// `W_THREAT_MASK + kind * THREAT_MASKS + mask`; see [`Board::threat_mask`]. Rapfi's
/// threat table, learned on top of the linear tempo terms.
pub(crate) const W_THREAT_MASK: usize = crate::pattern::W_PCODE + 3 * crate::pattern::PCODES;
/// Number of threat masks: eleven bits.
pub const THREAT_MASKS: usize = 2048;

/// The threat-mask corrections as a compact table (from [`WEIGHTS`]).
static THREAT_MASK_VALUE: [i16; 3 * THREAT_MASKS] = {
    let mut t = [0i16; 3 * THREAT_MASKS];
    let mut i = 0;
    while i < t.len() {
        t[i] = WEIGHTS[W_THREAT_MASK + i].value as i16;
        i += 1;
    }
    t
};

/// Largest ordinary (pattern) score magnitude.
pub const MAX_PATTERN_SCORE: Score = 20_000;

impl Board {
    /// The pattern score from `side`'s view: the sum of `side`'s point values minus the
    /// opponent's, plus `POINT_DIVISOR` times the window score, divided by `POINT_DIVISOR`
    /// (toward zero), clamped to `±MAX_PATTERN_SCORE`. Zero-sum by construction:
    /// `pattern_score(Black) == -pattern_score(White)`.
    #[inline]
    #[must_use]
    pub fn pattern_score(&self, side: Side) -> Score {
        (self.pattern_raw(side, 0) / POINT_DIVISOR).clamp(-MAX_PATTERN_SCORE, MAX_PATTERN_SCORE)
    }

    /// The pattern score plus `extra` (in evaluation units), times [`POINT_DIVISOR`].
    #[inline]
    fn pattern_raw(&self, side: Side, extra: Score) -> Score {
        let diff = self.total_value(side) - self.total_value(side.opponent());
        diff + POINT_DIVISOR * (self.window_score(side) + extra)
    }

    /// The static evaluation for the side to move (side-to-move view, `|score| <= MAX_EVAL`):
    /// - a five to play: [`WIN_NOW`];
    /// - the opponent has two or more five points and we have none: `-WIN_NOW`;
    /// - an open four to play while the opponent has no four: [`WIN_SOON`];
    /// - otherwise [`Board::pattern_score`] plus [`Board::threat_score`] (added before the
    ///   division by `POINT_DIVISOR`), clamped to `±MAX_PATTERN_SCORE`.
    #[must_use]
    pub fn evaluate(&self) -> Score {
        let me = self.side_to_move();
        let opp = me.opponent();
        if self.has_five_point(me) {
            return WIN_NOW;
        }
        let opp_fives = self.class_count(opp, Class::Five);
        if opp_fives >= 2 {
            return -WIN_NOW;
        }
        if opp_fives == 0 && self.class_count(me, Class::OpenFour) > 0 {
            return WIN_SOON;
        }
        (self.pattern_raw(me, self.threat_score(me)) / POINT_DIVISOR)
            .clamp(-MAX_PATTERN_SCORE, MAX_PATTERN_SCORE)
    }

    /// The tempo of threats, from the side to move `me`'s view: `me` can make its winning
    /// shapes (four-three, double three) on this move, the opponent only after answering.
    #[inline]
    #[must_use]
    pub fn threat_score(&self, me: Side) -> Score {
        let opp = me.opponent();
        let w = THREAT_WEIGHTS;
        let renju = self.rule() == Rule::Renju;
        let has = |side: Side, c: Class| self.class_count(side, c) > 0;
        let double_three =
            |side: Side| !(renju && side == Side::First) && has(side, Class::DoubleThree);
        let mut t = 0;
        if has(me, Class::FourThree) {
            t += w[0];
        }
        if double_three(me) {
            t += w[1];
        }
        t += w[2] * (self.class_count(me, Class::Three).min(4) as i32);
        if has(opp, Class::FourThree) {
            t -= w[3];
        }
        if has(opp, Class::OpenFour) {
            t -= w[4];
        }
        if double_three(opp) {
            t -= w[5];
        }
        t + i32::from(THREAT_MASK_VALUE[self.threat_mask(me) - W_THREAT_MASK])
    }

    /// The [`WEIGHTS`] index of the threat-mask correction of this position with `me` to
    /// move. The mask's bits, from bit 0: the opponent has a five point; `me` has an open-four
    /// point, a four-three point, a four point, a double-three point (not Black under renju),
    /// an open-three point; the opponent has an open-four point, a four-three point, a four
    /// point, a double-three point (not Black under renju), an open-three point.
    #[inline]
    #[must_use]
    pub(crate) fn threat_mask(&self, me: Side) -> usize {
        let opp = me.opponent();
        let renju = self.rule() == Rule::Renju;
        let has = |side: Side, c: Class| usize::from(self.class_count(side, c) > 0);
        let double_three = |side: Side| {
            if renju && side == Side::First {
                0
            } else {
                has(side, Class::DoubleThree)
            }
        };
        let mask = has(opp, Class::Five)
            | has(me, Class::OpenFour) << 1
            | has(me, Class::FourThree) << 2
            | has(me, Class::Four) << 3
            | double_three(me) << 4
            | has(me, Class::Three) << 5
            | has(opp, Class::OpenFour) << 6
            | has(opp, Class::FourThree) << 7
            | has(opp, Class::Four) << 8
            | double_three(opp) << 9
            | has(opp, Class::Three) << 10;
        let kind = match (renju, me) {
            (false, _) => 0,
            (true, Side::First) => 1,
            (true, Side::Second) => 2,
        };
        W_THREAT_MASK + kind * THREAT_MASKS + mask
    }
}

/// The gomoku evaluator for the shared search: [`Board::evaluate`].
#[derive(Copy, Clone, Debug, Default)]
pub struct Evaluator;

impl Evaluate<Board> for Evaluator {
    #[inline]
    fn evaluate(&self, position: &Board) -> Score {
        position.evaluate()
    }
}
