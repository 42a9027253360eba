//! The static evaluation interface.

use crate::position::Position;
use crate::score::Score;

/// A static evaluation of positions of game `P`.
///
/// The score is from the point of view of the side to move, in the game's centi-units, and
/// strictly inside `-MAX_EVAL..=MAX_EVAL` (the search clamps anything outside). It must be
/// zero-sum by construction: the same position evaluated for the other side to move would
/// score the negation (evaluate one side's features minus the other's, never each side on its
/// own scale). Games keep the features incrementally inside their position (patterns, piece
/// square sums) so that an evaluator is usually a few reads and a weighted sum.
///
/// The evaluator is shared by every search thread, so it takes `&self`.
pub trait Evaluate<P: Position>: Send + Sync {
    /// The static score of `position` for its side to move.
    fn evaluate(&self, position: &P) -> Score;
}

impl<P: Position, F> Evaluate<P> for F
where
    F: Fn(&P) -> Score + Send + Sync,
{
    fn evaluate(&self, position: &P) -> Score {
        self(position)
    }
}
