//! The [`game_core::Position`] implementation: one stone per ply, the pair-wise search move
//! generator (forced replies, winning stones, beams) and its ordering aids.

use game_core::{Outcome, Position, Side};

use super::{Connect6, MoveError, STONE_VALUE, Stone};
use crate::notation::{parse_connectmore, parse_littlegolem};

/// How many first stones of a turn the search tries (a beam by [`Connect6::stone_score`]).
pub const FIRST_BEAM: usize = 10;
/// How many second stones of a turn the search tries, given the first.
pub const SECOND_BEAM: usize = 6;

/// Per side placing, by a window's `7 * black + white` code: true when a stone there makes a
/// threat (3 or more own stones, none opposing) or blocks one (4 or more opposing, none own).
const TACTICAL: [[bool; 49]; 2] = {
    let mut t = [[false; 49]; 2];
    let mut s = 0;
    while s < 2 {
        let mut code = 0;
        while code < 49 {
            let (b, w) = (code / 7, code % 7);
            let (own, opp) = if s == 0 { (b, w) } else { (w, b) };
            t[s][code] = (opp == 0 && own >= 3) || (own == 0 && opp >= 4);
            code += 1;
        }
        s += 1;
    }
    t
};

impl Connect6 {
    /// The value of a stone of `side` on empty cell `index` for move ordering: the sum over
    /// the 6-windows through the point of the gain for `side`'s windows (offence) and of the
    /// opposing window value it destroys (defence). Larger is better.
    #[must_use]
    pub fn stone_score(&self, index: usize, side: Side) -> i32 {
        // Kept incrementally by place/remove (see `rescore_lines`).
        super::unpack_score(self.cell_score[index], side.index())
    }

    /// [`Connect6::stone_score`] recomputed from the window codes (for tests).
    #[doc(hidden)]
    #[must_use]
    pub fn stone_score_from_scratch(&self, index: usize, side: Side) -> i32 {
        let table = &STONE_VALUE[side.index()];
        self.geo
            .windows_of(index)
            .iter()
            .map(|&w| table[self.wcode[w as usize] as usize])
            .sum()
    }

    /// True when the side to move can complete a six with the stones it still places this
    /// turn (a window with `6 - stones_left` or more of its stones and none of the opponent's).
    #[must_use]
    pub fn can_win_now(&self) -> bool {
        self.winning_window().is_some()
    }

    /// A window the side to move completes to six this turn, if any.
    pub(crate) fn winning_window(&self) -> Option<usize> {
        let s = self.side.index();
        let need = 6 - self.left as usize;
        // The lowest-numbered such window: the threat list's order depends on the order stones
        // were placed and removed, and the moves the search tries must depend on the position
        // alone (a transposition must see the same subtree).
        self.threat_windows(s)
            .iter()
            .map(|&w| w as usize)
            .filter(|&w| self.wcnt[w][s] as usize >= need)
            .min()
    }

    /// The points where one stone stops every threat of side `s` (see
    /// [`Connect6::threat_count`]): the empty points common to all of its threat windows,
    /// written to `out` in increasing order; returns how many (at most two, as a threat
    /// window holds at most two empty points). 0 when `s` has no threats or no single stone
    /// stops them all.
    pub(crate) fn single_blocks(&self, s: usize, out: &mut [u16; 2]) -> usize {
        let Some(&first) = self.threat_windows(s).first() else {
            return 0;
        };
        let mut n = 0;
        for c in self.window_empties(first as usize) {
            let mut hit = [c as u16, u16::MAX, u16::MAX];
            if n < out.len() && self.hitting(s, &mut hit, 1, 2) == 1 {
                out[n] = c as u16;
                n += 1;
            }
        }
        if n == 2 && out[0] > out[1] {
            out.swap(0, 1);
        }
        n
    }

    /// The empty cells of window `w`.
    pub(crate) fn window_empties(&self, w: usize) -> impl Iterator<Item = usize> + '_ {
        self.geo.windows[w]
            .iter()
            .map(|&c| c as usize)
            .filter(move |&c| self.cells[c] == 0)
    }

    /// Pushes the forced replies of the side to move when the opponent has threats: the empty
    /// points of the opponent's threat windows after which the opponent's remaining threats can
    /// still be stopped by the stones left in this turn. With more threats than stones left the
    /// game is lost: every blocking point is pushed. Returns false when the opponent has no
    /// threats (nothing pushed).
    pub(crate) fn push_forced(&self, moves: &mut Vec<Stone>) -> bool {
        let o = self.side.opponent().index();
        if self.threat_windows(o).is_empty() {
            return false;
        }
        let left = self.left;
        let start = moves.len();
        let total = self.threat_count(self.side.opponent());
        for &w in self.threat_windows(o) {
            for c in self.window_empties(w as usize) {
                let stone = Stone::from_index(c);
                if moves[start..].contains(&stone) {
                    continue;
                }
                let ok = if total > left {
                    true
                } else {
                    let mut blocked = [c as u16, u16::MAX, u16::MAX];
                    self.hitting(o, &mut blocked, 1, 3) <= left
                };
                if ok {
                    moves.push(stone);
                }
            }
        }
        // Board order, independent of the threat list's history-dependent order.
        moves[start..].sort_unstable_by_key(|s| s.index());
        true
    }

    /// Pushes the beam of the best `width` stones of the side to move among the empty points
    /// within two of a stone (the centre on an empty board), best first.
    pub(crate) fn push_beam(&self, moves: &mut Vec<Stone>, width: usize) {
        if self.stones == 0 {
            let c = self.size / 2;
            moves.push(Stone::from_index(c * self.size + c));
            return;
        }
        // The best `width` (score, cell) pairs, best first (ties: lower cell first).
        const MAX_WIDTH: usize = 64;
        let width = width.clamp(1, MAX_WIDTH);
        let mut top = [(i32::MIN, u16::MAX); MAX_WIDTH];
        let mut n = 0;
        let side = self.side;
        for &c in &self.cand {
            let score = self.stone_score(c as usize, side);
            let better = |t: (i32, u16)| score > t.0 || (score == t.0 && c < t.1);
            if n == width && !better(top[n - 1]) {
                continue;
            }
            let mut i = if n < width {
                n += 1;
                n - 1
            } else {
                width - 1
            };
            while i > 0 && better(top[i - 1]) {
                top[i] = top[i - 1];
                i -= 1;
            }
            top[i] = (score, c);
        }
        if n == 0 {
            // Stones only far from every empty point: any empty point.
            if let Some(c) = self.cells.iter().position(|&v| v == 0) {
                moves.push(Stone::from_index(c));
            }
            return;
        }
        moves.extend(top[..n].iter().map(|&(_, c)| Stone::from_index(c as usize)));
    }

    /// Fills `moves` with the stones the search tries, by pairs: a winning stone if the side
    /// to move can six now; else the forced replies if the opponent has threats; else a beam
    /// of the best first stones ([`FIRST_BEAM`]) or, for the second stone of a turn, of the
    /// best second stones given the first ([`SECOND_BEAM`]). `widths` overrides the beams.
    pub fn search_stones(&self, moves: &mut Vec<Stone>, widths: (usize, usize)) -> Option<Outcome> {
        moves.clear();
        if let Some((outcome, _)) = self.game_end() {
            return Some(outcome);
        }
        if let Some(w) = self.winning_window() {
            let s = self.side.index();
            // With 5 stones one point wins; with 4 either empty point leads to a 5.
            let c = self
                .window_empties(w)
                .next()
                .expect("a winning window has an empty point");
            let _ = s;
            moves.push(Stone::from_index(c));
            return None;
        }
        if self.push_forced(moves) {
            return None;
        }
        let width = if self.left == 2 { widths.0 } else { widths.1 };
        self.push_beam(moves, width);
        None
    }
}

impl Position for Connect6 {
    type Move = Stone;
    type MoveError = MoveError;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Stone>) -> Option<Outcome> {
        moves.clear();
        if let Some((outcome, _)) = self.game_end() {
            return Some(outcome);
        }
        moves.extend(
            self.cells
                .iter()
                .enumerate()
                .filter(|(_, v)| **v == 0)
                .map(|(c, _)| Stone::from_index(c)),
        );
        None
    }

    fn generate_search_moves(&self, moves: &mut Vec<Stone>) -> Option<Outcome> {
        self.search_stones(moves, (FIRST_BEAM, SECOND_BEAM))
    }

    #[inline]
    fn play(&mut self, mv: Stone) {
        let colour = self.side.index() as u8;
        self.place(mv.index(), colour);
        self.push_history(mv);
        self.advance();
    }

    #[inline]
    fn undo(&mut self, mv: Stone) {
        self.retreat();
        self.pop_history();
        let colour = self.side.index() as u8;
        self.remove(mv.index(), colour);
    }

    #[inline]
    fn key(&self) -> u64 {
        self.raw_key()
    }

    /// The game is over only by a six or a full board ([`Connect6::game_end`]), which
    /// needs no move generation.
    #[inline]
    fn leaf_outcome(&self, _moves: &mut Vec<Stone>) -> Option<Outcome> {
        self.game_end().map(|(outcome, _)| outcome)
    }

    /// `Connect6::play_bare`: the evaluation ([`crate::ThreatEval`]) reads only the window
    /// counts and threat windows, so the stone values and candidate points (two thirds of a
    /// full placement's time) are left alone at the horizon.
    #[inline]
    fn play_leaf(&mut self, mv: Stone) {
        self.play_bare(mv);
    }

    #[inline]
    fn undo_leaf(&mut self, mv: Stone) {
        self.undo_bare(mv);
    }

    /// One stone: a LittleGolem point (`j10`) or a ConnectMore pair of letters (`JJ`).
    fn parse_move(&self, text: &str) -> Result<Stone, MoveError> {
        let t = text.trim();
        let points = match parse_littlegolem(t, self.size) {
            Ok(p) => p,
            Err(e) if t.len() == 2 && t.bytes().all(|b| b.is_ascii_alphabetic()) => {
                parse_connectmore(t, self.size).map_err(|_| e)?
            }
            Err(e) => return Err(e.into()),
        };
        if points.len() != 1 {
            return Err(MoveError::WrongStoneCount {
                side: crate::board::side_name(self.side),
                expected: 1,
                found: points.len(),
            });
        }
        let mut probe = self.clone();
        probe.play_point(points[0])
    }

    fn format_move(&self, mv: Stone) -> String {
        mv.point(self.size).to_littlegolem()
    }

    #[inline]
    fn order_hint(&self, mv: Stone) -> i32 {
        self.stone_score(mv.index(), self.side).min(1_000_000)
    }

    fn is_tactical(&self, mv: Stone) -> bool {
        let table = &TACTICAL[self.side.index()];
        self.geo
            .windows_of(mv.index())
            .iter()
            .any(|&w| table[self.wcode[w as usize] as usize])
    }

    #[inline]
    fn in_check(&self) -> bool {
        !self.threat_windows(self.side.opponent().index()).is_empty()
    }

    /// A stone is forcing when it leaves the side to move facing threats (the second stone of
    /// a threatening turn, the first of a block that leaves one open) or when it is the first
    /// stone of a turn and makes a threat: a turn of two threats (a double threat) then costs
    /// the search no depth, and a win by continuous double threats behind a quiet turn is
    /// seen to its end from a horizon that reaches its first threat.
    #[inline]
    fn forcing(&self) -> bool {
        self.in_check() || (self.left == 1 && !self.threat_windows(self.side.index()).is_empty())
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Evaluate, Position};

    use crate::board::{Connect6, Stone};
    use crate::eval::ThreatEval;

    /// A stone played at the search's horizon (`play_leaf`) gives the same key, side to
    /// move, check, outcome and evaluation as a full `play`, and `undo_leaf` restores the
    /// position exactly (random games in the central 9 x 9 square, so that threats, sixes
    /// and decided positions occur).
    #[test]
    fn horizon_stones_evaluate_as_full_stones_and_undo_exactly() {
        let mut next = crate::test_rng(0x2545_F491_4F6C_DD1D);
        let (mut decided, mut checks) = (0, 0);
        let mut moves = Vec::new();
        for game in 0..60 {
            let mut pos = Connect6::standard();
            while pos.game_end().is_none() && pos.stone_count() < 81 {
                let c = (0..)
                    .map(|_| (5 + next(9)) * 19 + 5 + next(9))
                    .find(|&c| pos.cells[c] == 0)
                    .unwrap();
                let stone = Stone::from_index(c);
                let before = (pos.moves_littlegolem(), pos.key());
                let mut full = pos.clone();
                full.play(stone);
                pos.play_leaf(stone);
                let text = full.moves_littlegolem();
                assert_eq!(pos.key(), full.key(), "game {game}: {text}");
                assert_eq!(pos.side_to_move(), full.side_to_move(), "{text}");
                assert_eq!(pos.in_check(), full.in_check(), "{text}");
                assert_eq!(pos.forcing(), full.forcing(), "{text}");
                assert_eq!(
                    ThreatEval.evaluate(&pos),
                    ThreatEval.evaluate(&full),
                    "{text}"
                );
                let outcome = full.generate_search_moves(&mut moves);
                assert_eq!(pos.leaf_outcome(&mut moves), outcome, "{text}");
                decided += usize::from(outcome.is_some());
                checks += usize::from(full.in_check());
                pos.undo_leaf(stone);
                assert_eq!((pos.moves_littlegolem(), pos.key()), before, "{text}");
                pos.play(stone);
            }
        }
        assert!(
            decided >= 30 && checks >= 100,
            "{decided} decided, {checks} in check"
        );
    }

    /// The stones the search extends: a turn's first stone that makes a threat (four of
    /// Black's in row 10), the second stone of a turn that leaves the opponent facing a
    /// threat, a block that leaves one open; not a quiet first stone, nor a turn's second
    /// stone after which the opponent faces nothing.
    #[test]
    fn forcing_stones_make_or_leave_threats() {
        let pos = Connect6::from_moves(19, "j10 a1c1 k10l10 e1g1").unwrap();
        let after = |moves: &str| {
            let mut p = pos.clone();
            for m in moves.split(' ') {
                let stone = p.parse_move(m).unwrap();
                p.play(stone);
            }
            (p.forcing(), p.in_check())
        };
        assert_eq!(after("m10"), (true, false));
        assert_eq!(after("j5"), (false, false));
        assert_eq!(after("m10 s19"), (true, true));
        assert_eq!(after("j5 s19"), (false, false));
        // Two open fours in row 10 (i..m and j..n windows) need two blocks: after one the
        // blocker still faces a threat.
        assert_eq!(after("m10 n10 o10"), (true, true));
        assert_eq!(after("m10 n10 o10 i10"), (false, false));
    }
}
