//! # xiangqi
//!
//! Xiangqi (Chinese chess) for qi: complete rules, FEN, ICCS/WXF/Chinese notation, a fast legal
//! move generator proven by perft, the engine evaluation [`Eval`] with the search aids of
//! [`game_core::Position`] (quiescence with static exchange pruning, null move with a
//! zugzwang guard, late-move reductions, repetition and perpetual-check rules), and the engine
//! protocols GUIs speak: [`protocol::ucci::run`] (UCCI 3.0) and [`protocol::uci::run`] (UCI as Pikafish speaks
//! it). [`bench::run`] is the fixed benchmark. The evaluation's weights are named in
//! [`weights::WEIGHTS`] and [`tune`] exposes them for Texel tuning
//! ([`game_core::tune::Tunable`]). [`frame`] is the game frame's side ([`game_frame::Rules`]
//! for [`Position`]) and the registry entry [`frame::XIANGQI`]. Built on [`game_core`].
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use game_core::search::{Limits, SearchOptions, Searcher};
//! use xiangqi::{Eval, Position};
//! // t1 of the reference tactics: a double-cannon mate in one.
//! let pos = Position::from_fen("3aka3/9/9/9/9/9/3C5/9/4C4/3K5 w - - 0 1").unwrap();
//! let mut searcher = Searcher::new(Eval, SearchOptions::default());
//! let r = searcher.search(&pos, &Limits::depth(3), &AtomicBool::new(false), |_| {});
//! assert_eq!(r.best_move.unwrap().to_string(), "d3e3");
//! assert_eq!(r.score_view(), game_core::ScoreView::MatePlies(1));
//! ```
//!
//! Coordinates are ICCS: files `a`..`i` (0..9) from Red's left, ranks `0`..`9` from Red's back
//! rank. Red is [`game_core::Side::First`] and moves first. Rules follow the qi xiangqi facts
//! (`shared/docs/xiangqi.md`): palace, elephant eye and river, horse leg, cannon screen, pawns,
//! flying general, no self-check, no legal move loses; perpetual check loses, other repetitions
//! and 120 plies without capture draw.
//!
//! ```
//! use xiangqi::Position;
//! let mut pos = Position::startpos();
//! assert_eq!(pos.perft(2), 1920);
//! let mv = pos.parse_any("炮二平五").unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(pos.format_wxf(mv), "C2.5");
//! ```
#![deny(missing_docs)]

pub mod bench;
mod chase;
mod engine;
pub use engine::{PRUNING, search_options};
mod eval;
mod fen;
pub mod frame;
mod line;
mod notation;
mod position;
pub mod protocol;
mod pst;
pub mod tune;
mod types;
pub use protocol::serve;
pub mod weights;

pub use eval::{Eval, MATERIAL, MATERIAL_MG_EG, MaterialEval, PHASE_MAX};
pub use fen::{FenError, ParseFenError, PlacementProblem, PositionError, START_FEN, Setup};
pub use notation::MoveError;
pub use position::legality::{Illegal, check_move};
pub use position::see::SEE_VALUE;
pub use position::{COUNTED_CHECKS, DEFAULT_NO_CAPTURE_LIMIT, EndReason, Position};
pub use types::{Move, Piece, PieceKind, Square};
