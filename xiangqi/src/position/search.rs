//! [`game_core::Position`] for [`Position`]: what the shared search asks of a xiangqi
//! position (legal moves and captures, make and unmake, null move, check, ordering hints,
//! the history rules).

use game_core::{Outcome, Side};

use super::see::SEE_VALUE;
use super::{EMPTY, Position, kind_of};
use crate::notation::MoveError;
use crate::pst::{PST, mg_of};
use crate::types::Move;

/// An ordering hint for a quiet move: how much it improves the mover's opening
/// piece-square value (a few dozen at most), so that before the history table has learnt
/// anything, developing moves come first.
#[inline]
pub(crate) fn quiet_hint(pos: &Position, mv: Move) -> i32 {
    let p = pos.board[mv.from().raw()];
    let t = &PST[pos.side][kind_of(p) as usize];
    let gain = mg_of(t[mv.to().raw()]) - mg_of(t[mv.from().raw()]);
    if pos.side == 0 { gain } else { -gain }
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
        if victim == EMPTY {
            return quiet_hint(self, mv);
        }
        let attacker = self.board[mv.from().raw()];
        let (v, a) = (kind_of(victim) as usize, kind_of(attacker) as usize);
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
        self.board[mv.to().raw()] != EMPTY
    }

    const QUIESCENCE: bool = true;

    /// Legal captures that do not lose material by static exchange evaluation; never an
    /// outcome (mate and stalemate are found by full generation).
    fn generate_tactical(&self, moves: &mut Vec<Move>) -> Option<Outcome> {
        self.legal_captures_into(moves);
        moves.retain(|&mv| {
            let v = kind_of(self.board[mv.to().raw()]) as usize;
            let a = kind_of(self.board[mv.from().raw()]) as usize;
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
