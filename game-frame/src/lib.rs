//! The game frame: everything a front end needs from a game beyond search, in one place, so
//! that adding a game is adding a crate and one registry line.
//!
//! - [`Rules`]: what a game supplies on top of [`game_core::Position`] (its engine, names,
//!   notation notes, record tags, and its board as data).
//! - [`Session`] and [`Game`]: a game in progress with its engine, and the object-safe view
//!   every command drives (play a turn from text, legal moves, undo, the ending with its
//!   reason, think with a budget and progress reports, records out).
//! - [`BoardView`]: a board described as data (cells, labels, marks, river and palaces), drawn
//!   for a terminal by [`render()`] and by the web page from the same data.
//! - [`GameClock`] and [`TimeControl`]: game clocks for people and engines.
//! - [`Level`]: strength levels for players, from a beginner's opponent to the full engine.
//! - [`Setup`]: where a game starts, as the command line or a record gives it.
//! - [`GameSpec`]: a registered game, as `qi`'s registry lists it: build, perft, bench,
//!   selfplay, tune and protocols.
//!
//! Dependencies point down: the games depend on this crate and on `game-core`; the front end
//! depends on the games only through their [`GameSpec`] values.
#![deny(missing_docs)]

pub mod board;
pub mod clock;
pub mod config;
mod error;
pub mod opening_rule;
pub mod registry;
pub mod render;
pub mod rules;
pub mod selfplay;
pub mod session;
pub mod setup;
pub mod strength;
pub mod tuning;

pub use board::{BoardView, Cell, Click, Piece, Region, River, stone};
pub use clock::{GameClock, TimeControl, TimeControlError, clock_text};
pub use config::{Budget, EngineConfig, MAX_DEPTH_LIMIT};
pub use error::FrameError;
pub use registry::{GameSpec, Protocol, perft, play_moves};
pub use render::{Style, paint, render};
pub use rules::{Decision, Ending, Progress, Rules, natural_key, search_turn};
pub use session::{
    Game, Info, REVIEW_MATE, ReviewTurn, Session, Thought, ThoughtLine, today, worst_turns,
};
pub use setup::{Opening, Setup, quoted, split_points, split_turns, stone_side};
pub use strength::{LEVEL_ELO, LEVELS, Level, LevelError, LevelPick, LevelSettings};
