//! How a finished game ended.

use crate::side::Side;

/// The result of a finished game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side has won (five or six in a row, checkmate, stalemate in xiangqi, an opponent's
    /// forbidden move under renju, perpetual check by the opponent, ...).
    Win(Side),
    /// Nobody won: a full board, a repetition, a move-count rule.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[inline]
    #[must_use]
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Win(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}
