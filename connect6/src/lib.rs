//! # connect6
//!
//! Connect6 for qi (I-Chen Wu, 2005; Connect(19,19,6,2,1)): rules on boards of 7 to 25,
//! threat-based evaluation and search. Built on [`game_core`].
//!
//! - [`Connect6`]: the position (one [`Stone`] per ply, turns of 1 then 2 stones), its
//!   notations ([`notation`]) and game records ([`sgf`]).
//! - [`ThreatEval`]: Wu & Huang's 6-window evaluation, kept incrementally.
//! - [`tss`]: threat-space search; [`engine`]: the engine (immediate win, forced defence,
//!   threat-space search, then alpha-beta); [`protocol::connectmore`]: the ConnectMore GUI protocol.
//! - [`weights`]: the evaluation's named weights ([`WEIGHTS`]); [`tune`]: their features for
//!   Texel tuning ([`game_core::tune::Tunable`] for [`Connect6`]).
//! - [`time`]: how much of a game clock a turn gets.
//! - [`frame`]: the game frame's side ([`game_frame::Rules`] for [`Connect6`]) and the
//!   registry entry [`frame::CONNECT6`].
//!
//! ```
//! use connect6::engine::{Engine, EngineLimits};
//! use connect6::notation::format_littlegolem;
//! use connect6::{Connect6, EndReason};
//! use game_core::{Outcome, Side};
//!
//! // Black g10..j10 with open ends (White's stones far away): Black sixes this turn.
//! let pos = Connect6::from_moves(19, "g10 a1s19 h10i10 a19s1 j10s10 b1b19").unwrap();
//! assert_eq!(pos.to_move(), Side::First);
//! assert_eq!(pos.threat_count(Side::First), 2);
//! let mut engine = Engine::new(1);
//! let answer = engine.think(&pos, &EngineLimits { depth: Some(2), ..Default::default() }).unwrap();
//! let mut after = pos.clone();
//! after.play_turn(&answer.turn).unwrap();
//! assert_eq!(after.game_end(), Some((Outcome::Win(Side::First), EndReason::Six)));
//! assert_eq!(format_littlegolem(&answer.turn).len(), 6); // e.g. `e10f10`
//! ```
#![deny(missing_docs)]

mod board;
pub mod engine;
mod eval;
mod features;
pub mod frame;
mod geometry;
pub mod notation;
pub mod protocol;
pub mod sgf;
pub mod time;
pub mod tss;
pub mod tune;
pub mod weights;

/// A deterministic random-number source for the unit tests (xorshift64).
#[cfg(test)]
pub(crate) fn test_rng(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

pub use board::search::{FIRST_BEAM, SECOND_BEAM};
pub use board::{
    Cell, Connect6, DEFAULT_SIZE, EndReason, MAX_SIZE, MIN_SIZE, MoveError, SetupError, Stone,
    side_name,
};
pub use eval::{DECISIVE, ThreatEval};
pub use notation::Point;
pub use weights::WEIGHTS;
