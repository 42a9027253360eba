//! # connect6
//!
//! Connect6 for qi (I-Chen Wu, 2005; Connect(19,19,6,2,1)): rules on boards of 7 to 25,
//! threat-based evaluation and search. Built on [`game_core`].
//!
//! - [`Connect6`]: the position (one [`Stone`] per ply, turns of 1 then 2 stones), its
//!   notations ([`notation`]) and game records ([`sgf`]).
//! - [`ThreatEval`]: Wu & Huang's 6-window evaluation, kept incrementally.
//! - [`tss`]: threat-space search; [`engine`]: the engine (immediate win, forced defence,
//!   threat-space search, then alpha-beta); [`connectmore`]: the ConnectMore GUI protocol.
#![deny(missing_docs)]

mod board;
pub mod connectmore;
pub mod engine;
mod eval;
mod geometry;
pub mod notation;
mod position;
pub mod sgf;
pub mod tss;

pub use board::{
    Cell, Connect6, DEFAULT_SIZE, EndReason, MAX_SIZE, MIN_SIZE, MoveError, SetupError, Stone,
    side_name,
};
pub use eval::ThreatEval;
pub use notation::Point;
pub use position::{FIRST_BEAM, SECOND_BEAM};
