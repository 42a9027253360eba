//! What a search tells its caller: a report per completed iteration and the final result.

use crate::{Outcome, Score, ScoreView};

/// One principal variation of a MultiPV search: a root move's score and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    /// The score from the side to move's view (centi-units or a mate score).
    pub score: Score,
    /// The line, starting with its root move.
    pub pv: Vec<M>,
}

impl<M> PvLine<M> {
    /// The score classified as centi-units or a mate distance in plies.
    #[must_use]
    pub fn score_view(&self) -> ScoreView {
        ScoreView::from_score(self.score)
    }
}

/// Progress after a completed iteration: exactly what a UCI `info` line carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The completed iteration's nominal depth, in plies.
    pub depth: u32,
    /// The deepest ply reached (extensions and quiescence included).
    pub seldepth: u32,
    /// The root score from the side to move's view (centi-units or a mate score).
    pub score: Score,
    /// Nodes searched so far, every thread counted.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Transposition table fill, per mille.
    pub hashfull: u32,
    /// The principal variation, starting with the best move.
    pub pv: Vec<M>,
    /// Every principal variation of a MultiPV search, best first (`lines[0]` is `score` and
    /// `pv`); one line otherwise.
    pub lines: Vec<PvLine<M>>,
}

impl<M> Report<M> {
    /// The score classified as centi-units or a mate distance in plies.
    #[must_use]
    pub fn score_view(&self) -> ScoreView {
        ScoreView::from_score(self.score)
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the root position is already over (see
    /// [`outcome`](SearchResult::outcome)) or every root move was excluded.
    pub best_move: Option<M>,
    /// The second move of the principal variation (the move to ponder on), if any.
    pub ponder_move: Option<M>,
    /// The root score from the side to move's view.
    pub score: Score,
    /// Depth of the last completed iteration (0 if none completed).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched, every thread counted.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub time_ms: u64,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<M>,
    /// The last completed iteration's principal variations, best first, distinct root
    /// moves (as many as [`Limits::multipv`](super::Limits::multipv) asked and the position
    /// has; `lines[0]` is `score` and `pv`). Empty when no move was searched.
    pub lines: Vec<PvLine<M>>,
    /// The root position's outcome when the game is already over there.
    pub outcome: Option<Outcome>,
}

impl<M> SearchResult<M> {
    /// The score classified as centi-units or a mate distance in plies.
    #[must_use]
    pub fn score_view(&self) -> ScoreView {
        ScoreView::from_score(self.score)
    }
}
