//! # gomoku
//!
//! Gomoku and renju for qi: freestyle, standard and renju rules on square boards of 5 to 26,
//! pattern evaluation and threat-space search. Built on [`game_core`].
//!
//! - [`Board`]: stones, rules, incremental line patterns and point classes, forbidden points,
//!   the end of the game; implements [`game_core::Position`].
//! - [`pattern`]: the line pattern and point class tables.
#![deny(missing_docs)]
#![allow(clippy::needless_range_loop)]

mod board;
mod error;
mod eval;
pub mod pattern;
mod point;
mod position;
pub mod threat;

pub use board::{Board, EndReason, ForbiddenKind};
pub use error::GomokuError;
pub use eval::{Evaluator, MAX_PATTERN_SCORE, WIN_NOW, WIN_SOON};
pub use point::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Point, Rule};
pub use position::parse_gomocup;
pub use threat::ThreatSolver;
