//! The judge of a repetition cycle under the Asian (AXF/WXF) rules: perpetual check loses,
//! then perpetual chase loses, any other repetition is a draw.
//!
//! A *chase* is a move that creates a threat to capture a piece, where capturing it would be
//! a real gain (WXF rules, "chase" and its examples; the summary in `../shared/docs/xiangqi.md`):
//! - the attacker is not a king or a pawn (the king and the pawns may chase);
//! - the victim is not the king (that is check) nor a pawn on its own side of the river;
//! - a horse or cannon attacking a rook, or an advisor or elephant attacking a rook, horse or
//!   cannon, chases it even when it is protected;
//! - otherwise the victim must be unprotected: after the capture, its side has no *legal*
//!   recapture on the point (a protector that is pinned, or that would leave its king facing
//!   the other, is a false protector);
//! - an attack the victim can answer by capturing the attacker (rook against rook, cannon
//!   against cannon: a mutual attack) is no chase;
//! - a piece pinned by its victim (the victim would attack its king if it moved away) does
//!   not chase it (WXF rule 19, diagrams 39-41);
//! - only threats the move creates count: an attack that stood before the move is not renewed
//!   by it (so a side that shuffles beside a standing attack does not chase).
//!
//! A side chases perpetually when one and the same enemy piece (followed from point to point
//! as it flees) is chased by every one of its moves in the cycle; a check counts as a chase of
//! every piece, so that alternating check and chase is forbidden too. One side violating loses;
//! both or neither: a draw. Perpetual check is judged first and outranks chase.

use game_core::Outcome;

use crate::position::movegen::MoveList;
use crate::position::{
    CANNON, EMPTY, EndReason, HORSE, KING, PAWN, Position, ROOK, attacked, kind_of, side_of,
};
use crate::types::Move;

/// Kind numbers of the advisor and the elephant (as `PieceKind as u8`).
const ADVISOR: u8 = 1;
const ELEPHANT: u8 = 2;

/// Longest cycle (in plies) the chase judge replays; a longer one is judged a draw unless it
/// is a perpetual check.
const MAX_CYCLE: usize = 256;

/// Every piece slot: what a check chases.
const ALL: u16 = u16::MAX;

impl Position {
    /// Judges the repetition cycle of the last `len` plies (the current position occurred
    /// `len` plies ago and no capture or null move lies between): perpetual check, then
    /// perpetual chase, else a draw. Plays the cycle back and forth; the position is left as
    /// it was.
    pub(crate) fn judge_cycle(&mut self, len: usize) -> (Outcome, EndReason) {
        let h = &self.history;
        let n = h.len() - 1;
        let j = n - len;
        // Moves j+1..=n; the side not to move made moves n, n-2, ...; the side to move n-1, ...
        let them = (j + 1..=n).rev().step_by(2).all(|t| h[t].in_check);
        let us = (j + 1..n).rev().step_by(2).all(|t| h[t].in_check);
        let me = self.side();
        match (us, them) {
            (false, true) => return (Outcome::Win(me), EndReason::PerpetualCheck),
            (true, false) => return (Outcome::Win(me.opponent()), EndReason::PerpetualCheck),
            (true, true) => return (Outcome::Draw, EndReason::Repetition),
            (false, false) => {}
        }
        if len > MAX_CYCLE {
            return (Outcome::Draw, EndReason::Repetition);
        }
        let chased = self.perpetual_chases(len);
        let mine = chased[self.side] != 0;
        let theirs = chased[self.side ^ 1] != 0;
        match (mine, theirs) {
            (false, true) => (Outcome::Win(me), EndReason::PerpetualChase),
            (true, false) => (Outcome::Win(me.opponent()), EndReason::PerpetualChase),
            _ => (Outcome::Draw, EndReason::Repetition),
        }
    }

    /// For each side (index 0 Red, 1 Black), the enemy pieces (bits of their slots) chased by
    /// every move that side made in the last `len` plies. Walks the cycle back, then replays it.
    fn perpetual_chases(&mut self, len: usize) -> [u16; 2] {
        let mut moves = [Move(0); MAX_CYCLE];
        let mut chased = [ALL; 2];
        for slot in moves.iter_mut().take(len) {
            let st = *self.state();
            // The threats of the side that just moved, as they stand after its move.
            let after = if st.in_check {
                ALL
            } else {
                self.play_null();
                let a = self.chase_targets();
                self.undo_null();
                a
            };
            self.undo(st.mv);
            *slot = st.mv;
            let created = if st.in_check {
                ALL
            } else {
                after & !self.chase_targets()
            };
            chased[self.side] &= created;
        }
        for &mv in moves[..len].iter().rev() {
            self.play(mv);
        }
        chased
    }

    /// The enemy pieces (bits of their slots) that the side to move threatens to capture with
    /// a gain, as the module's rules define it.
    fn chase_targets(&mut self) -> u16 {
        let mut captures = MoveList::new();
        self.generate::<_, true>(&mut captures);
        let mut targets = 0u16;
        for &mv in captures.as_slice() {
            let (from, to) = (mv.from().raw(), mv.to().raw());
            let attacker = kind_of(self.board[from]);
            let v = self.board[to];
            let victim = kind_of(v);
            let bit = 1u16 << (v & 15);
            if targets & bit != 0 || attacker == KING || attacker == PAWN || victim == KING {
                continue;
            }
            if victim == PAWN && !crossed_river(to, side_of(v)) {
                continue;
            }
            let stronger = (victim == ROOK && matches!(attacker, HORSE | CANNON))
                || (matches!(attacker, ADVISOR | ELEPHANT)
                    && matches!(victim, ROOK | HORSE | CANNON));
            if !stronger && (self.opponent_can_capture(to, from) || self.defended_after(mv)) {
                continue;
            }
            if self.pinned_by(from, to) {
                continue;
            }
            targets |= bit;
        }
        targets
    }

    /// Whether the piece on `from` is pinned by the enemy piece on `to`: without it, `to`
    /// would attack its king (WXF rule 19, diagrams 39-41: a rook that cannot move because
    /// of a horse does not chase that horse, protected or not).
    fn pinned_by(&self, from: usize, to: usize) -> bool {
        let side = side_of(self.board[from]);
        let king = self.pieces[16 << side] as usize;
        let mut board = self.board;
        board[from] = EMPTY;
        if !attacked(&board, king, side) {
            return false;
        }
        board[to] = EMPTY;
        !attacked(&board, king, side)
    }

    /// Whether the side not to move could legally capture from `from` on `to`.
    fn opponent_can_capture(&mut self, from: usize, to: usize) -> bool {
        self.play_null();
        let mut captures = MoveList::new();
        self.generate::<_, true>(&mut captures);
        self.undo_null();
        captures
            .as_slice()
            .iter()
            .any(|m| m.from().raw() == from && m.to().raw() == to)
    }

    /// Whether, after the capture `mv`, the captured side can legally recapture on its point.
    fn defended_after(&mut self, mv: Move) -> bool {
        self.play(mv);
        let mut captures = MoveList::new();
        self.generate::<_, true>(&mut captures);
        self.undo(mv);
        let to = mv.to().raw();
        captures.as_slice().iter().any(|m| m.to().raw() == to)
    }
}

/// Whether a pawn of side `side` (0 Red, 1 Black) on mailbox point `sq` has crossed the river.
#[inline]
fn crossed_river(sq: usize, side: usize) -> bool {
    (sq >= 0x80) == (side == 0)
}
