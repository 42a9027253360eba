//! What a game exposes so that its evaluation weights can be learned from games (Texel
//! tuning): the named integer weights its evaluation reads, and for a position the feature
//! vector the static score is linear in.
//!
//! The fitting itself (the logistic scale, Adam over the weights, writing Rust source) is the
//! `tune` crate's; self-play that writes the data is `qi selfplay`. The loop is documented in
//! `docs/tuning.md`.
//!
//! ## The contract
//! Where [`Tunable::features`] returns `true`, the static evaluation of the position for its
//! side to move is
//!
//! ```text
//! eval = clamp((Σ weight[i] · feature[i]) / Tunable::FEATURE_SCALE)
//! ```
//!
//! where `/` rounds toward zero (Rust's integer division, which keeps a zero-sum evaluation
//! zero-sum),
//! with the weights of [`Tunable::weights`], and `clamp` is the game's clamp to its ordinary
//! (non-decisive) score range; a game whose evaluation rounds in more than one place may be
//! off by the few units its rounding loses, and says so. Where the evaluation is not linear
//! (a five to play, a mate, a decisive threat count), `features` returns `false` and the
//! position is not used for tuning.

use crate::{Evaluate, Position, Score};

/// One integer weight of an evaluation: its name (`pattern.F3`, `mg.rook`), the value the
/// evaluation uses now, and the range a tuner may move it in (`min == max` fixes it).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weight {
    /// A unique name, `group.item`, ASCII without spaces.
    pub name: &'static str,
    /// The value in the evaluation's units (before the division by
    /// [`Tunable::FEATURE_SCALE`]).
    pub value: i32,
    /// Smallest value a tuner may give it.
    pub min: i32,
    /// Largest value a tuner may give it.
    pub max: i32,
}

impl Weight {
    /// A weight `name` with value `value` that may range over `min..=max`.
    #[must_use]
    pub const fn new(name: &'static str, value: i32, min: i32, max: i32) -> Self {
        Weight {
            name,
            value,
            min,
            max,
        }
    }
}

/// A sparse feature vector: `(weight index, coefficient)` pairs, from the side to move's view
/// (a feature the opponent has counts negatively). An index may appear more than once; the
/// coefficients then add up.
pub type Features = Vec<(u16, i32)>;

/// A position whose game's evaluation is linear in a table of named weights.
pub trait Tunable: Position {
    /// The game's name as `qi` spells it (`gomoku`, `xiangqi`, `connect6`).
    const GAME: &'static str;

    /// The divisor of the weighted feature sum (see the module's contract); at least 1.
    const FEATURE_SCALE: i32;

    /// The evaluation's weights, in the order feature indices refer to, with the values the
    /// evaluation uses in this build.
    fn weights() -> &'static [Weight];

    /// The static evaluation of the engine for the side to move (what the search uses at a
    /// quiet leaf).
    fn static_eval(&self) -> Score;

    /// Clears `out` and writes the features of this position. Returns `false` (and the
    /// contents of `out` are meaningless) when the evaluation is not linear here: a decisive
    /// or special-cased score.
    fn features(&self, out: &mut Features) -> bool;

    /// The position as one line of text without tabs or newlines, readable by
    /// [`from_text`](Tunable::from_text): a FEN, or a rule, a size and the moves.
    fn to_text(&self) -> String;

    /// Reads [`to_text`](Tunable::to_text)'s form.
    ///
    /// # Errors
    /// What was wrong with the text and what is expected.
    fn from_text(text: &str) -> Result<Self, String>;
}

/// A position whose game orders its quiet moves by a score linear in a table of named
/// weights (the move-ordering hint, [`Position::order_hint`]), so that the table can be fitted
/// to the moves strong players chose: softmax regression, the probability of a candidate being
/// `exp(hint / POLICY_SCALE)` normalised over the candidates of
/// [`Position::generate_search_moves`] (Rapfi's pattern-code move scores play this part).
pub trait PolicyTunable: Tunable {
    /// Hint units per unit of log-probability; at least 1.
    const POLICY_SCALE: i32;

    /// The move-ordering weights, in the order [`move_features`](PolicyTunable::move_features)'
    /// indices use, with the values of this build.
    fn policy_weights() -> &'static [Weight];

    /// The last move played to reach this position, if the position knows it (a position read
    /// by [`Tunable::from_text`] from a move list does).
    fn last_move(&self) -> Option<Self::Move>;

    /// Clears `out` and writes the features of the ordering hint of `mv`, a move of
    /// [`Position::generate_search_moves`] here: the weighted sum of them is the part of
    /// [`Position::order_hint`] the weights make.
    fn move_features(&self, mv: Self::Move, out: &mut Features);
}

/// The weighted feature sum `Σ weight[i] · feature[i]` for the weight values `values`, in the
/// evaluation's units times [`Tunable::FEATURE_SCALE`].
///
/// # Panics
/// When a feature index is outside `values`.
#[must_use]
pub fn dot(values: &[i32], features: &[(u16, i32)]) -> i64 {
    features
        .iter()
        .map(|&(i, c)| i64::from(values[usize::from(i)]) * i64::from(c))
        .sum()
}

/// A plain fail-hard quiescence search over the game's tactical moves (all legal moves when in
/// check), at most `plies` deep and `*budget` nodes (decremented; stand pat when spent), no
/// transposition table. For telling quiet positions from ones with a capture or a four
/// pending: a position is quiet when this equals its static evaluation. Games without
/// [`Position::QUIESCENCE`] return the static evaluation. Terminal positions score through the
/// game's outcome as the search does (`Score` mate values are not used: a decided game counts
/// as `±(MAX_EVAL)`, which no quiet evaluation reaches).
pub fn quiescence<P: Position, E: Evaluate<P>>(
    position: &mut P,
    evaluator: &E,
    mut alpha: Score,
    beta: Score,
    plies: u32,
    budget: &mut u64,
) -> Score {
    use crate::score::MAX_EVAL;
    let mut moves = Vec::new();
    let in_check = position.in_check();
    if in_check {
        if let Some(outcome) = position.generate_moves(&mut moves) {
            return outcome_score(outcome, position.side_to_move(), MAX_EVAL);
        }
    } else {
        let stand = evaluator.evaluate(position);
        if !P::QUIESCENCE || plies == 0 || *budget == 0 {
            return stand;
        }
        if stand >= beta {
            return beta;
        }
        alpha = alpha.max(stand);
        if let Some(outcome) = position.generate_tactical(&mut moves) {
            return outcome_score(outcome, position.side_to_move(), MAX_EVAL);
        }
    }
    if plies == 0 || *budget == 0 {
        return evaluator.evaluate(position).clamp(alpha, beta);
    }
    for mv in moves {
        *budget = budget.saturating_sub(1);
        let side = position.side_to_move();
        position.play(mv);
        let score = if position.side_to_move() == side {
            quiescence(position, evaluator, alpha, beta, plies - 1, budget)
        } else {
            -quiescence(position, evaluator, -beta, -alpha, plies - 1, budget)
        };
        position.undo(mv);
        if score >= beta {
            return beta;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn outcome_score(outcome: crate::Outcome, to_move: crate::Side, max: Score) -> Score {
    match outcome.winner() {
        Some(side) if side == to_move => max,
        Some(_) => -max,
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_adds_repeated_indices() {
        assert_eq!(dot(&[3, -2, 7], &[(0, 2), (2, -1), (0, 1)]), 3 * 2 - 7 + 3);
        assert_eq!(dot(&[3, -2, 7], &[]), 0);
    }
}
