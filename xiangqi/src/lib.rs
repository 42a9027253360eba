//! # xiangqi
//!
//! Xiangqi (Chinese chess) for qi: complete rules, FEN, ICCS/WXF/Chinese notation, a fast legal
//! move generator proven by perft, the engine evaluation [`Eval`] with the search aids of
//! [`game_core::Position`] (quiescence with static exchange pruning, null move with a
//! zugzwang guard, late-move reductions, repetition and perpetual-check rules), and the engine
//! protocols GUIs speak: [`ucci::run`] (UCCI 3.0) and [`uci::run`] (UCI as Pikafish speaks
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
mod pst;
mod see;
pub mod tune;
mod types;
pub mod ucci;
pub mod uci;
pub mod weights;

pub use eval::{Eval, MATERIAL, MATERIAL_MG_EG, MaterialEval, PHASE_MAX};
pub use fen::{FenError, ParseFenError, PlacementProblem, PositionError, START_FEN, Setup};
pub use notation::MoveError;
pub use position::{
    COUNTED_CHECKS, DEFAULT_NO_CAPTURE_LIMIT, EndReason, Illegal, Position, check_move,
};
pub use see::SEE_VALUE;
pub use types::{Move, Piece, PieceKind, Square};

use std::io::Read as _;

use game_core::{Outcome, Side};

/// Serves whichever engine protocol the GUI speaks: UCI ([`uci::run`]) when the first
/// non-blank line is `uci`, else UCCI ([`ucci::run`]). The first line is handed on to the
/// chosen server, which answers it as usual.
///
/// # Errors
/// Only I/O errors of `input` or `output`.
pub fn serve<R: std::io::BufRead, W: std::io::Write + Send + 'static>(
    mut input: R,
    output: W,
) -> std::io::Result<()> {
    let mut first = Vec::new();
    loop {
        first.clear();
        if input.read_until(b'\n', &mut first)? == 0 {
            return Ok(());
        }
        if !first.iter().all(u8::is_ascii_whitespace) {
            break;
        }
    }
    let is_uci = String::from_utf8_lossy(&first).trim() == "uci";
    let input = std::io::Cursor::new(first).chain(input);
    if is_uci {
        uci::run(input, output)
    } else {
        ucci::run(input, output)
    }
}

/// MVV-LVA values: victim first, then the cheapest attacker.
const ORDER_VALUE: [i32; 7] = [10_000, 20, 20, 40, 90, 45, 10];

impl game_core::Position for Position {
    type Move = Move;
    type MoveError = MoveError;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side()
    }

    /// Every legal move; `Some(Win(opponent))` when there is none (checkmate and stalemate both
    /// lose), `Some(Draw)` (and no moves) when the no-capture limit is reached as
    /// [`Position::game_end`] counts it (checks beyond each side's tenth not counted) and the
    /// side to move is not checkmated. Repetition, which depends on the path and the search
    /// root, is left to [`rule_outcome`](game_core::Position::rule_outcome) and
    /// [`Position::game_end`].
    ///
    /// The plain ply count alone once ended the search's root where the game went on (more
    /// than ten checks since the last capture): the engine had no move in a game that was
    /// not over.
    fn generate_moves(&self, moves: &mut Vec<Move>) -> Option<Outcome> {
        self.legal_moves_into(moves);
        if moves.is_empty() {
            Some(Outcome::Win(self.side().opponent()))
        } else if self.no_capture_limit() > 0
            && self.halfmove_clock() >= self.no_capture_limit()
            && self.no_capture_end().is_some()
        {
            moves.clear();
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    #[inline]
    fn undo(&mut self, mv: Move) {
        Position::undo(self, mv);
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    /// ICCS, WXF or Chinese.
    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_any(text)
    }

    /// ICCS lowercase, e.g. `h2e2`.
    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    /// Captures: MVV-LVA (victim value * 16 minus attacker value) when the exchange does not
    /// lose material, else the (negative) static exchange value, so losing captures come
    /// last among the captures. Quiet moves: their opening piece-square gain (a few dozen).
    #[inline]
    fn order_hint(&self, mv: Move) -> i32 {
        let victim = self.board[mv.to().raw()];
        if victim == position::EMPTY {
            return eval::quiet_hint(self, mv);
        }
        let attacker = self.board[mv.from().raw()];
        let (v, a) = (
            position::kind_of(victim) as usize,
            position::kind_of(attacker) as usize,
        );
        if SEE_VALUE[a] > SEE_VALUE[v] {
            let see = self.see(mv);
            if see < 0 {
                return see - 10_000;
            }
        }
        ORDER_VALUE[v] * 16 - ORDER_VALUE[a]
    }

    /// Captures.
    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        self.board[mv.to().raw()] != position::EMPTY
    }

    const QUIESCENCE: bool = true;

    /// Legal captures that do not lose material by static exchange evaluation; never an
    /// outcome (mate and stalemate are found by full generation).
    fn generate_tactical(&self, moves: &mut Vec<Move>) -> Option<Outcome> {
        self.legal_captures_into(moves);
        moves.retain(|&mv| {
            let v = position::kind_of(self.board[mv.to().raw()]) as usize;
            let a = position::kind_of(self.board[mv.from().raw()]) as usize;
            SEE_VALUE[a] <= SEE_VALUE[v] || self.see(mv) >= 0
        });
        None
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.is_check()
    }

    /// Not in check, and the side to move keeps real attacking force (a rook, or two of
    /// horses and cannons): with less, zugzwang and stalemate-wins are too common.
    fn null_move_allowed(&self) -> bool {
        if self.is_check() {
            return false;
        }
        let base = 16usize << self.side;
        let present =
            |slots: std::ops::Range<usize>| slots.filter(|&s| self.pieces[base + s] != 0).count();
        let rooks = present(7..9);
        let minors = present(5..7) + present(9..11);
        rooks * 2 + minors >= 2
    }

    fn play_null(&mut self) {
        Position::play_null(self);
    }

    fn undo_null(&mut self) {
        Position::undo_null(self);
    }

    const LATE_MOVE_REDUCTIONS: bool = true;

    /// Repetition (once after the root, twice at or before it), perpetual check (the side
    /// checking on every move of the cycle loses; both: draw) and the no-capture limit.
    #[inline]
    fn rule_outcome(&mut self, plies_from_root: u32) -> Option<Outcome> {
        self.rule_end(plies_from_root as usize).map(|(o, _)| o)
    }
}
