//! Connect Four: two players drop stones into the columns of an upright board (7 columns x 6
//! rows by default), each stone falling to the lowest empty cell of its column; four of one
//! colour in a row (across, up or diagonally) wins, a full board is a draw (the rules as
//! Milton Bradley published them in 1974; the game was solved by James D. Allen and by Victor
//! Allis in 1988: on 7x6 the first player wins by playing the centre column first, and only
//! by it).
//!
//! - [`ConnectFour`]: the position on two bitboards, with the shared [`game_core::Position`]
//!   interface (one ply = one stone; a move is a [`Column`]).
//! - [`Evaluator`]: a threat evaluation for the shared search.
//! - [`frame`]: the game frame's side ([`game_frame::Rules`] for [`ConnectFour`]) and the
//!   registry entry [`frame::CONNECT4`].
//! - [`Solver`]: a weak solver (win, draw or loss with perfect play) by null-window alpha-beta
//!   over the same bitboards.
//!
//! ```
//! use connect4::{ConnectFour, Solver, Value};
//! // The first player (X, to move) has three stones in column 1: a fourth wins.
//! let p = ConnectFour::from_moves(7, 6, "121212").unwrap();
//! assert_eq!(Solver::new(1).solve(&p), Value::Win);
//! ```

mod board;
mod eval;
pub mod frame;
mod solve;

pub use board::{Column, Connect4Error, ConnectFour, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE};
pub use eval::Evaluator;
pub use solve::{Solver, Value};
