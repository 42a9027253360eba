//! # game-core
//!
//! The game interface of qi — [`Position`], [`Move`], [`Evaluate`] — and one shared negamax
//! alpha-beta search ([`search`]) that every game (gomoku and renju, connect6, xiangqi) plugs
//! into.
//!
//! ## Adding a game: tic-tac-toe, complete
//!
//! A game implements [`Position`] (legal moves with the outcome, play/undo, a Zobrist key,
//! notation) and [`Evaluate`] (a static score for the side to move). Everything else —
//! iterative deepening, the transposition table, move ordering, time control, threads — comes
//! from [`search::Searcher`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use game_core::search::{Limits, SearchOptions, Searcher};
//! use game_core::zobrist::SplitMix64;
//! use game_core::{Evaluate, Move, Outcome, Position, Score, Side};
//!
//! /// A square 0..9, numbered row by row from the top-left corner.
//! #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
//! struct Square(u8);
//!
//! impl Move for Square {
//!     fn code(self) -> u32 {
//!         u32::from(self.0)
//!     }
//! }
//!
//! /// Zobrist keys: one per square and side, one for "second side to move".
//! const KEYS: [u64; 19] = SplitMix64::new(3).table();
//!
//! #[derive(Clone, Debug)]
//! struct TicTacToe {
//!     cells: [Option<Side>; 9],
//!     to_move: Side,
//!     key: u64,
//! }
//!
//! const LINES: [[usize; 3]; 8] =
//!     [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
//!
//! impl TicTacToe {
//!     fn new() -> Self {
//!         TicTacToe { cells: [None; 9], to_move: Side::First, key: 0 }
//!     }
//!     fn winner(&self) -> Option<Side> {
//!         LINES.iter().find_map(|l| {
//!             let c = self.cells[l[0]]?;
//!             (self.cells[l[1]] == Some(c) && self.cells[l[2]] == Some(c)).then_some(c)
//!         })
//!     }
//!     fn toggle(&mut self, sq: Square, side: Side) {
//!         self.key ^= KEYS[side.index() * 9 + usize::from(sq.0)] ^ KEYS[18];
//!     }
//! }
//!
//! #[derive(Debug, thiserror::Error)]
//! #[error("expected a free square 1..9, got '{0}'")]
//! struct BadSquare(String);
//!
//! impl Position for TicTacToe {
//!     type Move = Square;
//!     type MoveError = BadSquare;
//!
//!     fn side_to_move(&self) -> Side {
//!         self.to_move
//!     }
//!     fn generate_moves(&self, moves: &mut Vec<Square>) -> Option<Outcome> {
//!         moves.clear();
//!         if let Some(side) = self.winner() {
//!             return Some(Outcome::Win(side));
//!         }
//!         moves.extend((0..9).filter(|&i| self.cells[i as usize].is_none()).map(Square));
//!         moves.is_empty().then_some(Outcome::Draw)
//!     }
//!     fn play(&mut self, sq: Square) {
//!         self.cells[usize::from(sq.0)] = Some(self.to_move);
//!         self.toggle(sq, self.to_move);
//!         self.to_move = self.to_move.opponent();
//!     }
//!     fn undo(&mut self, sq: Square) {
//!         self.to_move = self.to_move.opponent();
//!         self.toggle(sq, self.to_move);
//!         self.cells[usize::from(sq.0)] = None;
//!     }
//!     fn key(&self) -> u64 {
//!         self.key
//!     }
//!     fn parse_move(&self, text: &str) -> Result<Square, BadSquare> {
//!         match text.trim().parse::<u8>() {
//!             Ok(n @ 1..=9) if self.cells[usize::from(n - 1)].is_none() => Ok(Square(n - 1)),
//!             _ => Err(BadSquare(text.to_string())),
//!         }
//!     }
//!     fn format_move(&self, sq: Square) -> String {
//!         (sq.0 + 1).to_string()
//!     }
//! }
//!
//! /// Open lines: each line still open for one side counts one point for it.
//! struct OpenLines;
//!
//! impl Evaluate<TicTacToe> for OpenLines {
//!     fn evaluate(&self, pos: &TicTacToe) -> Score {
//!         let open = |side: Side| {
//!             LINES.iter().filter(|l| l.iter().all(|&i| pos.cells[i] != Some(side.opponent()))).count()
//!         };
//!         let me = pos.side_to_move();
//!         open(me) as Score - open(me.opponent()) as Score
//!     }
//! }
//!
//! // Perfect play from the empty board is a draw ...
//! let mut searcher = Searcher::new(OpenLines, SearchOptions::default());
//! let stop = AtomicBool::new(false);
//! let result = searcher.search(&TicTacToe::new(), &Limits::depth(9), &stop, |_| {});
//! assert_eq!(result.score, 0);
//!
//! // ... and with X on 1 and 5, O on 2, X wins in 3 plies (a fork).
//! let mut pos = TicTacToe::new();
//! for text in ["1", "2", "5"] {
//!     let mv = pos.parse_move(text).unwrap();
//!     pos.play(mv);
//! }
//! let mv = pos.parse_move("9").unwrap(); // O must block the diagonal
//! pos.play(mv);
//! let result = searcher.search(&pos, &Limits::depth(9), &stop, |_| {});
//! assert_eq!(result.score_view(), game_core::ScoreView::MatePlies(3));
//! ```
#![deny(missing_docs)]

pub mod clock;
mod evaluate;
mod outcome;
mod position;
pub mod protocol;
pub mod score;
pub mod search;
mod side;
pub mod skill;
pub mod text;
pub mod tune;
pub mod zobrist;

pub use evaluate::Evaluate;
pub use outcome::Outcome;
pub use position::{Move, Position};
pub use score::{Score, ScoreView};
pub use side::Side;
