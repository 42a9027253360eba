//! Move ordering state: killer moves per ply and the history heuristic.

use crate::{Move, Side};

/// Slots of the history table per side (codes are folded into it; every qi game's codes fit
/// without collision: xiangqi's from*90+to < 8100, board points < 676).
pub(crate) const HISTORY_SLOTS: usize = 1 << 14;

/// Ordering scores: the table move first, then tactical moves by the game's hint, then the
/// two killers, then quiet moves by history plus hint. Every tactical move and killer scores
/// above every quiet move (hints stay far below `1 << 27`): late-move pruning relies on it to
/// stop at the first plain quiet move.
pub(crate) const TT_MOVE_SCORE: i32 = i32::MAX;
pub(crate) const TACTICAL_BASE: i32 = 1 << 28;
pub(crate) const KILLER_SCORES: [i32; 2] = [(1 << 27) + 1, 1 << 27];
/// History values stay within `-HISTORY_MAX..=HISTORY_MAX` (the gravity formula below).
pub(crate) const HISTORY_MAX: i32 = 1 << 20;

/// Killer moves (two quiet moves per ply that caused a beta cut-off) and a history table
/// (Schaeffer 1989) indexed by side and move code.
pub(crate) struct Heuristics<M> {
    pub killers: Vec<[Option<M>; 2]>,
    history: Box<[i32]>,
}

impl<M: Move> Heuristics<M> {
    pub fn new(max_ply: usize) -> Self {
        Heuristics {
            killers: vec![[None, None]; max_ply + 2],
            history: vec![0; 2 * HISTORY_SLOTS].into(),
        }
    }

    #[inline]
    fn slot(side: Side, mv: M) -> usize {
        let code = mv.code() as usize;
        side.index() * HISTORY_SLOTS + ((code ^ (code >> 14)) & (HISTORY_SLOTS - 1))
    }

    #[inline]
    pub fn history(&self, side: Side, mv: M) -> i32 {
        self.history[Self::slot(side, mv)]
    }

    /// Rewards the cut-off move by depth² and punishes the quiet moves tried before it, with
    /// "gravity" so values stay bounded: h += bonus - h * |bonus| / HISTORY_MAX.
    #[inline]
    pub fn update_history(&mut self, side: Side, mv: M, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let h = &mut self.history[Self::slot(side, mv)];
        *h += bonus - (i64::from(*h) * i64::from(bonus.abs()) / i64::from(HISTORY_MAX)) as i32;
    }

    #[inline]
    pub fn store_killer(&mut self, ply: usize, mv: M) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
    }

    /// Between searches: halve the history so the new position's cut-offs soon dominate, and
    /// forget killers (they belong to plies of the old root).
    pub fn age(&mut self) {
        self.history.iter_mut().for_each(|h| *h /= 2);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    pub fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }
}

/// Picks the best remaining move by selection: ordering is lazy, so a cut-off after the
/// first moves never pays for a full sort.
#[inline]
pub(crate) fn pick_next<M: Copy>(moves: &mut [M], scores: &mut [i32], start: usize) -> M {
    let mut best = start;
    for i in start + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(start, best);
    scores.swap(start, best);
    moves[start]
}
