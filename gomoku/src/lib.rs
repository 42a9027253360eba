//! # gomoku
//!
//! Gomoku and renju for qi: freestyle, standard and renju rules on square boards of 5 to 26,
//! pattern evaluation and threat-space search. Built on [`game_core`].
//!
//! - [`Board`]: stones, rules ([`Rule`]), incremental line patterns and point classes, Zobrist
//!   key, renju forbidden points, the end of the game ([`EndReason`]); implements
//!   [`game_core::Position`] (moves are [`Point`]s).
//! - [`pattern`]: the line pattern and point class tables (the classic pattern-table method).
//! - [`Evaluator`]: five-cell window scoring plus pattern evaluation, zero-sum, won positions as won.
//! - [`threat`]: VCF / VCT solvers and VCF defences ([`ThreatSolver`]).
//! - [`engine`]: the decision procedure ([`Engine::think`], [`best_move`]): five, forced block,
//!   VCF, defence against the opponent's VCF, VCT, then the shared `game_core` search.
//! - [`protocol::gomocup`]: the Gomocup brain protocol ([`protocol::gomocup::run`]).
//! - [`frame`]: the game frame's side ([`game_frame::Rules`] for [`Board`]) and the registry
//!   entries [`frame::GOMOKU`] and [`frame::RENJU`].
//!
//! ```
//! use gomoku::{Board, Limits, Rule, best_move};
//! let board = Board::from_moves(15, Rule::Renju, "h8i9g9i7i8").unwrap();
//! let result = best_move(&board, &Limits::depth(4));
//! assert!(board.is_legal(result.best_move.unwrap()));
//! println!("{board}");
//! ```
#![deny(missing_docs)]
#![allow(clippy::needless_range_loop)]

pub mod bench;
mod board;
pub mod class_table;
pub mod engine;
mod error;
mod eval;
mod forbidden;
pub mod frame;
pub mod opening;
pub mod pattern;
mod point;
pub mod policy;
pub mod policy_weights;
pub mod protocol;
pub mod threat;
pub mod tune;
pub mod weights;

pub use board::{Board, EndReason};
pub use engine::{Engine, EngineResult, Source, best_move};
pub use error::GomokuError;
pub use eval::{Evaluator, MAX_PATTERN_SCORE, WIN_NOW, WIN_SOON};
pub use forbidden::ForbiddenKind;
/// The limits of one engine decision: the shared search's ([`game_core::search::Limits`]),
/// whose times bound the whole decision (threat searches included); the engine's progress
/// reports are the shared search's iterations ([`game_core::search::Report`]).
pub use game_core::search::{Limits, Report};
pub use point::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Point, Rule, parse_gomocup};
pub use threat::ThreatSolver;
