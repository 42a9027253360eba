//! The frame's error: bad input (a usage error, exit code 2 in `qi`) or a failed run.

/// What went wrong in a generic tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameError {
    /// Bad input: an option that does not fit the game or does not read (a bad FEN, a point
    /// off the board, an illegal move in a move list, unreadable data). The message says what
    /// was wrong, where, and what is accepted.
    #[error("{0}")]
    Usage(String),
    /// A run that failed (I/O, a file that cannot be written).
    #[error("{0}")]
    Failed(String),
}

impl FrameError {
    /// A usage error with `msg`.
    pub fn usage(msg: impl Into<String>) -> FrameError {
        FrameError::Usage(msg.into())
    }
}

impl From<std::io::Error> for FrameError {
    fn from(e: std::io::Error) -> Self {
        FrameError::Failed(format!("I/O error: {e}"))
    }
}
