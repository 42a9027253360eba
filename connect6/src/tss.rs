//! Threat-space search: a win by continuous threats.
//!
//! The attacker (the side to move, at the start of a two-stone turn) looks for a sequence of
//! turns in which every turn makes at least two threats (Wu & Huang: the opponent needs both
//! of its stones to stop a six), so the defender's turn is forced into the blocking pairs,
//! ending in a turn that makes three or more threats (two stones cannot block them) or in a
//! six. Every blocking pair of the defender is tried, so a win found is a real forced win,
//! except that it is abandoned (not claimed) as soon as the defender's forced stones give the
//! defender threats of its own. Turns making a single threat (the defender's second stone is
//! free) are not tried: the search is sound, not complete. Results are kept in the search's
//! own table, keyed by the Zobrist key.

use game_core::Position;

use crate::board::{Connect6, Stone};

const TABLE_BITS: u32 = 16;

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    /// Turns searched without a win (`u8::MAX` = proven win).
    depth: u8,
    /// The winning turn when proven.
    pair: (u16, u16),
}

const WIN: u8 = u8::MAX;

/// A threat-space searcher with its own table; reuse it across calls (the table keeps
/// proven wins and refuted depths between positions of one game).
pub struct ThreatSearch {
    table: Vec<Entry>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<std::time::Instant>,
    aborted: bool,
    /// Per-ply scratch: candidate attacker pairs.
    pairs: Vec<Vec<(u16, u16)>>,
    /// Per-ply scratch: empties of the attacker's threat windows.
    blocks: Vec<Vec<u16>>,
}

impl Default for ThreatSearch {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for ThreatSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ThreatSearch {{ nodes: {} }}", self.nodes)
    }
}

/// A win found by [`ThreatSearch::find_win`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// The attacker's first turn (two stones; one when a single stone completes the six).
    pub turn: Vec<Stone>,
    /// Attacker turns to the win, counting this one (1 = a six now or three threats now).
    pub turns: u32,
    /// Threat-search nodes (attacker turns tried) used by the call.
    pub nodes: u64,
}

impl ThreatSearch {
    /// A searcher with a table of 65,536 entries (1.5 MiB).
    #[must_use]
    pub fn new() -> Self {
        ThreatSearch {
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            pairs: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// Forgets every stored result.
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = Entry::default());
    }

    /// Looks for a win by continuous threats for the side to move of `pos` within
    /// `max_turns` of its turns (iterative deepening), visiting at most `node_limit` attacker
    /// nodes and stopping at `deadline`. `pos` is restored before returning. Returns `None` when no win is proven (also
    /// when the side to move is in the middle of a turn with no six to complete, or the
    /// opponent has threats the attacker must answer first).
    pub fn find_win(
        &mut self,
        pos: &mut Connect6,
        max_turns: u32,
        node_limit: u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<ThreatWin> {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.aborted = false;
        if pos.game_end().is_some() {
            return None;
        }
        if let Some(w) = pos.winning_window() {
            let mut turn: Vec<Stone> = pos.window_empties(w).map(Stone::from_index).collect();
            turn.truncate(pos.stones_left() as usize);
            return Some(ThreatWin {
                turn,
                turns: 1,
                nodes: 1,
            });
        }
        if pos.stones_left() != 2 {
            return None;
        }
        for depth in 1..=max_turns.min(60) {
            if self.attack(pos, depth, 0) {
                let e = self.table[Self::slot(pos.key())];
                debug_assert!(e.key == pos.key() && e.depth == WIN);
                return Some(ThreatWin {
                    turn: vec![
                        Stone::from_index(e.pair.0 as usize),
                        Stone::from_index(e.pair.1 as usize),
                    ],
                    turns: depth,
                    nodes: self.nodes,
                });
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// Attacker nodes visited by the last [`find_win`](ThreatSearch::find_win).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    fn store(&mut self, key: u64, depth: u8, pair: (u16, u16)) {
        let slot = Self::slot(key);
        let e = &mut self.table[slot];
        if e.key != key || e.depth != WIN {
            *e = Entry { key, depth, pair };
        }
    }

    /// True when the side to move (at the start of its turn, two stones) wins by continuous
    /// double threats within `depth` turns.
    fn attack(&mut self, pos: &mut Connect6, depth: u32, ply: usize) -> bool {
        self.nodes += 1;
        if self.aborted
            || self.nodes > self.node_limit
            || (self.nodes & 63 == 0
                && self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d))
        {
            self.aborted = true;
            return false;
        }
        let a = pos.side.index();
        let d = 1 - a;
        if let Some(w) = pos.winning_window() {
            let mut e = pos.window_empties(w);
            let p = e.next().expect("empty point") as u16;
            let q = e
                .next()
                .map_or_else(|| first_other_empty(pos, p as usize), |c| c as u16);
            self.store(pos.key(), WIN, (p, q));
            return true;
        }
        if !pos.threat_windows(d).is_empty() || depth == 0 || pos.game_end().is_some() {
            return false;
        }
        let key = pos.key();
        let e = self.table[Self::slot(key)];
        if e.key == key && (e.depth == WIN || e.depth as u32 >= depth) {
            return e.depth == WIN;
        }
        while self.pairs.len() <= ply {
            self.pairs.push(Vec::with_capacity(256));
            self.blocks.push(Vec::with_capacity(16));
        }
        let mut pairs = std::mem::take(&mut self.pairs[ply]);
        candidate_pairs(pos, &mut pairs);
        // Phase 1: a pair with three or more threats wins at once; keep the double threats.
        let mut doubles = 0;
        let mut won = None;
        for i in 0..pairs.len() {
            let (p, q) = pairs[i];
            let (sp, sq) = (Stone::from_index(p as usize), Stone::from_index(q as usize));
            pos.play(sp);
            pos.play(sq);
            let t = pos.threat_count(game_core::Side::BOTH[a]);
            pos.undo(sq);
            pos.undo(sp);
            if t >= 3 {
                won = Some((p, q));
                break;
            }
            if t == 2 {
                pairs[doubles] = (p, q);
                doubles += 1;
            }
        }
        if won.is_none() && depth > 1 {
            for &(p, q) in &pairs[..doubles] {
                if self.double_threat_wins(pos, p, q, depth, ply) {
                    won = Some((p, q));
                    break;
                }
                if self.aborted {
                    break;
                }
            }
        }
        self.pairs[ply] = pairs;
        match won {
            Some(pair) => {
                self.store(key, WIN, pair);
                true
            }
            None => {
                if !self.aborted {
                    self.store(key, depth.min(254) as u8, (0, 0));
                }
                false
            }
        }
    }

    /// Plays the attacker's pair (p, q) making two threats and tries every blocking pair of
    /// the defender: true when the attacker wins after each of them.
    fn double_threat_wins(
        &mut self,
        pos: &mut Connect6,
        p: u16,
        q: u16,
        depth: u32,
        ply: usize,
    ) -> bool {
        let a = pos.side.index();
        let (sp, sq) = (Stone::from_index(p as usize), Stone::from_index(q as usize));
        pos.play(sp);
        pos.play(sq);
        let mut blocks = std::mem::take(&mut self.blocks[ply]);
        blocks.clear();
        for &w in pos.threat_windows(a) {
            for c in pos.window_empties(w as usize) {
                if !blocks.contains(&(c as u16)) {
                    blocks.push(c as u16);
                }
            }
        }
        let mut all = true;
        'outer: for i in 0..blocks.len() {
            for j in i + 1..blocks.len() {
                let (b1, b2) = (
                    Stone::from_index(blocks[i] as usize),
                    Stone::from_index(blocks[j] as usize),
                );
                pos.play(b1);
                pos.play(b2);
                let blocked = pos.threat_windows(a).is_empty();
                let ok = !blocked || self.attack(pos, depth - 1, ply + 1);
                pos.undo(b2);
                pos.undo(b1);
                if !ok {
                    all = false;
                    break 'outer;
                }
            }
        }
        self.blocks[ply] = blocks;
        pos.undo(sq);
        pos.undo(sp);
        all && !self.aborted
    }
}

fn first_other_empty(pos: &Connect6, not: usize) -> u16 {
    (0..pos.cells.len())
        .find(|&c| c != not && pos.cells[c] == 0)
        .unwrap_or(not) as u16
}

/// Attacker pairs that may make two or more threats: both empty points of one window holding
/// 2 or 3 attacker stones (and no defender's); two points of windows holding 3; a point that
/// alone makes two threats with any point of a window holding 2 or 3. Every pair making two
/// or more threats is among them, except that the free second stone of a point making two
/// threats alone is only tried on points of windows holding 2 or 3. Normalised (smaller index first), sorted, without
/// duplicates.
pub(crate) fn candidate_pairs(pos: &mut Connect6, pairs: &mut Vec<(u16, u16)>) {
    pairs.clear();
    let a = pos.side.index();
    let d = 1 - a;
    let mut e3 = [0u16; 64];
    let mut n3 = 0;
    let mut e2 = [0u16; 128];
    let mut n2 = 0;
    let mut mark = [0u8; crate::MAX_SIZE * crate::MAX_SIZE];
    for (w, cnt) in pos.wcnt.iter().enumerate() {
        if cnt[d] != 0 || cnt[a] < 2 {
            continue;
        }
        let mut em = [0u16; 4];
        let mut ne = 0;
        for c in pos.window_empties(w) {
            em[ne] = c as u16;
            ne += 1;
        }
        for i in 0..ne {
            for j in i + 1..ne {
                let (x, y) = (em[i].min(em[j]), em[i].max(em[j]));
                pairs.push((x, y));
            }
        }
        let bit = if cnt[a] >= 3 { 2 } else { 1 };
        for &c in &em[..ne] {
            let m = &mut mark[c as usize];
            if bit == 2 && *m & 2 == 0 && n3 < e3.len() {
                e3[n3] = c;
                n3 += 1;
            }
            if *m == 0 && n2 < e2.len() {
                e2[n2] = c;
                n2 += 1;
            }
            *m |= bit;
        }
    }
    let attacker = pos.side;
    for (i, &p) in e3[..n3].iter().enumerate() {
        for &q in &e3[i + 1..n3] {
            pairs.push((p.min(q), p.max(q)));
        }
        let sp = Stone::from_index(p as usize);
        pos.play(sp);
        let solo = pos.threat_count(attacker);
        pos.undo(sp);
        if solo >= 2 {
            for &q in &e2[..n2] {
                if p != q {
                    pairs.push((p.min(q), p.max(q)));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
}
