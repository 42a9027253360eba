//! # game-core
//!
//! The game interface of qi — [`Position`], [`Move`], [`Evaluate`] — and one shared negamax
//! alpha-beta search that every game (gomoku and renju, connect6, xiangqi) plugs into.
#![deny(missing_docs)]

mod evaluate;
mod outcome;
mod position;
pub mod score;
mod side;
pub mod zobrist;

pub use evaluate::Evaluate;
pub use outcome::Outcome;
pub use position::{Move, Position};
pub use score::{Score, ScoreView};
pub use side::Side;
