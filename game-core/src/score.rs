//! Search scores: centi-units for ordinary positions, distance-adjusted values for won and
//! lost ones.
//!
//! A score is always from the point of view of the side to move. Ordinary evaluations are in
//! centi-units (xiangqi: 100 = one horse, as UCCI engines report; stone games: the game's own
//! scale) and must stay strictly inside `-MAX_EVAL..=MAX_EVAL`. A forced win `n` plies from the
//! root scores `MATE - n`, a forced loss `-(MATE - n)`, so the search prefers the fastest win
//! and the slowest loss. A draw scores [`DRAW`].

/// A search or evaluation score, side-to-move relative.
pub type Score = i32;

/// The score of a draw.
pub const DRAW: Score = 0;

/// The score of a win on the board at the root (0 plies away).
pub const MATE: Score = 30_000;

/// The largest ply distance a mate score can encode; beyond `MATE - MAX_MATE_PLY` scores are
/// ordinary evaluations.
pub const MAX_MATE_PLY: Score = 1_000;

/// Largest magnitude a static evaluation may return. Evaluations outside are clamped by the
/// search.
pub const MAX_EVAL: Score = MATE - MAX_MATE_PLY - 1;

/// Larger than every score: the initial alpha-beta window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = MATE + 1;

/// The score of a win `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mate_in(ply: u32) -> Score {
    MATE - ply as Score
}

/// The score of a loss `ply` plies from the root.
#[inline]
#[must_use]
pub const fn mated_in(ply: u32) -> Score {
    -MATE + ply as Score
}

/// True when `score` encodes a forced win or loss.
#[inline]
#[must_use]
pub const fn is_mate_score(score: Score) -> bool {
    score.abs() > MAX_EVAL && score.abs() <= MATE
}

/// How a score reads to a person or a protocol.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ScoreView {
    /// An ordinary evaluation in centi-units.
    Centi(Score),
    /// A forced result: positive = the side to move wins in this many plies, negative = it
    /// loses in this many plies. Protocols that count moves convert with
    /// [`ScoreView::mate_moves`].
    MatePlies(i32),
}

impl ScoreView {
    /// Classifies a raw search score.
    #[must_use]
    pub const fn from_score(score: Score) -> Self {
        if is_mate_score(score) {
            if score > 0 {
                ScoreView::MatePlies(MATE - score)
            } else {
                ScoreView::MatePlies(-(MATE + score))
            }
        } else {
            ScoreView::Centi(score)
        }
    }

    /// For a mate score, the number of the winner's own moves in a game where sides alternate
    /// every ply (UCI `score mate N`: positive when the side to move mates, negative when it is
    /// mated, `N = (plies + 1) / 2`). `None` for an ordinary score.
    #[must_use]
    pub const fn mate_moves(self) -> Option<i32> {
        match self {
            ScoreView::Centi(_) => None,
            ScoreView::MatePlies(p) if p > 0 => Some((p + 1) / 2),
            ScoreView::MatePlies(p) => Some(-((-p + 1) / 2)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_views() {
        assert_eq!(ScoreView::from_score(mate_in(1)), ScoreView::MatePlies(1));
        assert_eq!(ScoreView::from_score(mated_in(2)), ScoreView::MatePlies(-2));
        assert_eq!(ScoreView::from_score(150), ScoreView::Centi(150));
        assert_eq!(ScoreView::MatePlies(1).mate_moves(), Some(1));
        assert_eq!(ScoreView::MatePlies(3).mate_moves(), Some(2));
        assert_eq!(ScoreView::MatePlies(-2).mate_moves(), Some(-1));
        assert_eq!(ScoreView::MatePlies(-4).mate_moves(), Some(-2));
        assert!(!is_mate_score(MAX_EVAL));
        assert!(is_mate_score(MAX_EVAL + 1));
    }
}
