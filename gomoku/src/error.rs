//! Typed errors of the gomoku crate.

use thiserror::Error;

use crate::forbidden::ForbiddenKind;

/// Everything that can be wrong with gomoku input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GomokuError {
    /// A coordinate that cannot be read.
    #[error(
        "bad coordinate {text:?}: expected a column letter and a row number like h8 (board {size}x{size})"
    )]
    BadCoordinate {
        /// The offending text.
        text: String,
        /// Board size.
        size: usize,
    },
    /// A Gomocup protocol coordinate (`x,y`, 0-based column and row) that cannot be read.
    #[error(
        "bad coordinate {text:?}: expected x,y (0-based column and row, e.g. 7,7) on the {size}x{size} board"
    )]
    BadGomocupCoordinate {
        /// The offending text.
        text: String,
        /// Board size.
        size: usize,
    },
    /// A coordinate that reads but lies outside the board.
    #[error("point {text} is off the {size}x{size} board")]
    OffBoard {
        /// The offending text.
        text: String,
        /// Board size.
        size: usize,
    },
    /// A point that already holds a stone.
    #[error("point {text} is occupied")]
    Occupied {
        /// The point in human notation.
        text: String,
    },
    /// A forbidden point for Black under renju (only from APIs that refuse it; `play_checked`
    /// plays it and the game is lost).
    #[error("{text} is forbidden for Black under renju ({kind})")]
    Forbidden {
        /// The point in human notation.
        text: String,
        /// Why it is forbidden.
        kind: ForbiddenKind,
    },
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// An unsupported board size.
    #[error("board size {0} is not supported: expected 5 to 26")]
    BadSize(usize),
    /// An unknown rule name.
    #[error("unknown rule {0:?}: expected freestyle, standard or renju")]
    BadRule(String),
    /// A stone set that is impossible (a point given twice, stone counts that do not fit the side to move).
    #[error("bad position: {0}")]
    BadPosition(String),
}
