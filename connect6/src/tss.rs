//! Threat-space search: a win by continuous threats.
//!
//! The attacker (the side to move, at the start of a two-stone turn) looks for a sequence of
//! turns in which every turn makes at least two threats (Wu & Huang: the opponent needs both
//! of its stones to stop a six), so the defender's turn is forced into the blocking pairs,
//! ending in a turn that makes three or more threats (two stones cannot block them) or in a
//! six. Every blocking pair of the defender is tried, so a win found is a real forced win.
//! When the defender's forced stones give it threats of its own, the attacker goes on only if
//! one stone stops them all: its turn is then that blocking stone and a stone that, with it,
//! makes two or more threats (a win that a quiet block would otherwise end; such turns are
//! also tried at the root, when the attacker starts out facing one threat). Turns making a
//! single threat (the defender's second stone is free) are not tried: the search is sound,
//! not complete. Results are kept in the search's
//! own table, keyed by the Zobrist key.

use game_core::Position;

use crate::board::{Connect6, Stone};

const TABLE_BITS: u32 = 16;

/// Free stones of the defender tried against a single-threat turn, besides the stones of
/// the attacker's winning turn ([`ThreatSearch::find_win_or_single`]).
pub const SINGLE_DEFENCES: usize = 6;
/// Building stones of the attacker paired with a stone making a single threat
/// ([`ThreatSearch::find_win_or_single`]).
pub const SINGLE_BUILDERS: usize = 10;

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
    /// The attacker's live windows by empty point, rebuilt at each node for counting the
    /// threats of its candidate pairs.
    index: LiveIndex,
    /// Removes duplicate candidate pairs.
    seen: PairSet,
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
            index: LiveIndex::new(),
            seen: PairSet::new(),
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
    /// opponent has threats that one stone cannot stop; with threats one stone stops, the
    /// win's first turn is that block and an attacking stone).
    pub fn find_win(
        &mut self,
        pos: &mut Connect6,
        max_turns: u32,
        node_limit: u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<ThreatWin> {
        self.start(node_limit, deadline);
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

    /// Like [`find_win`](ThreatSearch::find_win) for a side to move with one stone left in its
    /// turn: a win by a stone that completes a six, or makes three or more threats, or makes
    /// two threats after which the attacker wins by continuous threats within `max_turns - 1`
    /// more turns against every blocking pair. The turn returned is that one stone.
    /// `None` when no win is proven, also when the opponent has threats or the side to move
    /// has two stones left.
    pub fn find_win_with_one_stone(
        &mut self,
        pos: &mut Connect6,
        max_turns: u32,
        node_limit: u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<ThreatWin> {
        self.start(node_limit, deadline);
        if pos.game_end().is_some() || pos.stones_left() != 1 {
            return None;
        }
        if let Some(w) = pos.winning_window() {
            let stone = pos.window_empties(w).next().map(Stone::from_index)?;
            return Some(ThreatWin {
                turn: vec![stone],
                turns: 1,
                nodes: 1,
            });
        }
        let a = pos.side.index();
        let d = 1 - a;
        if !pos.threat_windows(d).is_empty() {
            return None;
        }
        // Stones that make two or more threats lie on windows holding three of ours.
        let mut makers: Vec<(u8, u16)> = Vec::new();
        for &w in pos.live.of(a) {
            let cnt = pos.wcnt[w as usize];
            if cnt[d] != 0 || cnt[a] < 3 {
                continue;
            }
            for c in pos.window_empties(w as usize) {
                if makers.iter().all(|&(_, m)| m as usize != c) {
                    let t = threats_with(pos, a, &[c]);
                    if t >= 2 {
                        makers.push((t, c as u16));
                    }
                }
            }
        }
        makers.sort_unstable_by_key(|&(t, c)| (std::cmp::Reverse(t), c));
        let win = |m: u16, turns: u32, nodes: u64| ThreatWin {
            turn: vec![Stone::from_index(m as usize)],
            turns,
            nodes,
        };
        if let Some(&(t, m)) = makers.first()
            && t >= 3
        {
            return Some(win(m, 1, 1));
        }
        for depth in 1..max_turns.min(60) {
            for &(_, m) in &makers {
                if self.double_threat_wins(pos, &[m], depth, 0) {
                    return Some(win(m, depth + 1, self.nodes));
                }
                if self.aborted {
                    return None;
                }
            }
        }
        None
    }

    /// Like [`find_win`](ThreatSearch::find_win), and when that finds nothing, also a win
    /// that starts with a turn making a single threat: the defender's forced block leaves it
    /// one free stone, and the attacker must still win by continuous threats after each block
    /// and each free stone tried. The free stones tried are the stones of the attacker's
    /// winning turn after the block and the defender's best [`SINGLE_DEFENCES`] by
    /// [`Connect6::stone_score`], not every point, so such a win is a strong threat rather than
    /// a proof: use it to choose a defence, never to claim a win. The single-threat turns
    /// tried: a stone making four in a window of three (and no opposing stone) with one of
    /// the attacker's best [`SINGLE_BUILDERS`] building stones, or both empty points of a
    /// window of two. `node_limit` and `deadline` bound the whole call.
    pub fn find_win_or_single(
        &mut self,
        pos: &mut Connect6,
        max_turns: u32,
        node_limit: u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<ThreatWin> {
        if let Some(w) = self.find_win(pos, max_turns, node_limit, deadline) {
            return Some(w);
        }
        let a = pos.side;
        if self.aborted
            || max_turns < 2
            || pos.stones_left() != 2
            || !pos.threat_windows(a.opponent().index()).is_empty()
        {
            return None;
        }
        let mut used = self.nodes;
        // Whether a sub-search stopped at the budget: then "no win" is not a finding.
        let mut cut = false;
        let mut pairs = Vec::new();
        single_threat_pairs(pos, &mut pairs);
        let out_of_budget = |used: u64| {
            used >= node_limit || deadline.is_some_and(|d| std::time::Instant::now() >= d)
        };
        let mut blocks = [0u16; 2];
        let mut nblocks = 0;
        let mut frees = Vec::new();
        for (p, q) in pairs {
            if out_of_budget(used) {
                self.nodes = used;
                self.aborted = true;
                return None;
            }
            if threats_with(pos, a.index(), &[p as usize, q as usize]) != 1 {
                continue;
            }
            let (sp, sq) = (Stone::from_index(p as usize), Stone::from_index(q as usize));
            pos.play(sp);
            pos.play(sq);
            let mut wins = pos.game_end().is_none();
            if wins {
                // The single blocking points: empty points on every threat window.
                nblocks = pos.single_blocks(a.index(), &mut blocks);
                wins = nblocks > 0;
            }
            let mut i = 0;
            let mut longest = 1;
            while wins && i < nblocks {
                let b = Stone::from_index(blocks[i] as usize);
                i += 1;
                pos.play(b);
                // The attacker's win with the defender's free stone passed, then after each
                // free stone that could stop it.
                let state = pos.pass_turn();
                let win =
                    self.find_win_counted(pos, max_turns - 1, node_limit, &mut used, deadline);
                cut |= self.aborted;
                pos.set_turn_state(state);
                match win {
                    None => wins = false,
                    Some(win) => {
                        longest = longest.max(win.turns);
                        frees.clear();
                        frees.extend(win.turn.iter().copied());
                        let mut beam = Vec::new();
                        pos.push_beam(&mut beam, SINGLE_DEFENCES);
                        frees.extend(beam.into_iter().filter(|s| !win.turn.contains(s)));
                        for &x in &frees {
                            if pos.cells[x.index()] != 0 {
                                continue;
                            }
                            pos.play(x);
                            let win = self.find_win_counted(
                                pos,
                                max_turns - 1,
                                node_limit,
                                &mut used,
                                deadline,
                            );
                            cut |= self.aborted;
                            pos.undo(x);
                            match win {
                                Some(w) => longest = longest.max(w.turns),
                                None => {
                                    wins = false;
                                    break;
                                }
                            }
                        }
                    }
                }
                pos.undo(b);
            }
            pos.undo(sq);
            pos.undo(sp);
            if wins && !out_of_budget(used) {
                self.nodes = used;
                self.aborted = false;
                return Some(ThreatWin {
                    turn: vec![sp, sq],
                    turns: longest + 1,
                    nodes: used,
                });
            }
        }
        self.nodes = used;
        self.aborted = cut;
        None
    }

    /// Resets the node count and the abort flag, and sets the limits of a new search.
    fn start(&mut self, node_limit: u64, deadline: Option<std::time::Instant>) {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.aborted = false;
    }

    /// True when the last [`find_win`](ThreatSearch::find_win) or
    /// [`find_win_or_single`](ThreatSearch::find_win_or_single) stopped at its node limit or
    /// deadline before finishing: its `None` means "not known", not "no win".
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// [`find_win`](ThreatSearch::find_win) within what is left of a budget of
    /// `node_limit` nodes of which `used` are spent; adds its nodes to `used`.
    fn find_win_counted(
        &mut self,
        pos: &mut Connect6,
        max_turns: u32,
        node_limit: u64,
        used: &mut u64,
        deadline: Option<std::time::Instant>,
    ) -> Option<ThreatWin> {
        let win = self.find_win(pos, max_turns, node_limit.saturating_sub(*used), deadline);
        *used += self.nodes;
        win
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
        if depth == 0 || pos.game_end().is_some() {
            return false;
        }
        // The defender's threats must be answered first: with one blocking stone the turn's
        // other stone may still attack (a turn that blocks and threatens); with more, the
        // attack is over.
        let must_block = !pos.threat_windows(d).is_empty();
        if must_block && pos.hitting(d, &mut [u16::MAX; 3], 0, 2) != 1 {
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
        if must_block {
            blocking_pairs(pos, &mut pairs, &mut self.seen);
        } else {
            candidate_pairs(pos, &mut pairs, &mut self.seen);
        }
        self.index.build(pos, a);
        // Phase 1: a pair with three or more threats wins at once; keep the double threats.
        let mut doubles = 0;
        let mut won = None;
        for i in 0..pairs.len() {
            let (p, q) = pairs[i];
            let t = self.index.pair_threats(pos, a, p, q);
            debug_assert_eq!(t, threats_with(pos, a, &[p as usize, q as usize]));
            debug_assert!(
                !must_block || {
                    let mut hit = [p, q, u16::MAX];
                    pos.hitting(d, &mut hit, 2, 3) == 2
                }
            );
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
                if self.double_threat_wins(pos, &[p, q], depth, ply) {
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

    /// Plays the attacker's `stones` (the rest of its turn) making two threats and tries every
    /// blocking pair of the defender: true when the attacker wins after each of them.
    fn double_threat_wins(
        &mut self,
        pos: &mut Connect6,
        stones: &[u16],
        depth: u32,
        ply: usize,
    ) -> bool {
        let a = pos.side.index();
        while self.blocks.len() <= ply {
            self.pairs.push(Vec::with_capacity(256));
            self.blocks.push(Vec::with_capacity(16));
        }
        for &s in stones {
            pos.play_bare(Stone::from_index(s as usize));
        }
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
                pos.play_bare(b1);
                pos.play_bare(b2);
                let blocked = pos.threat_windows(a).is_empty();
                let ok = !blocked || self.attack(pos, depth - 1, ply + 1);
                pos.undo_bare(b2);
                pos.undo_bare(b1);
                if !ok {
                    all = false;
                    break 'outer;
                }
            }
        }
        self.blocks[ply] = blocks;
        for &s in stones.iter().rev() {
            pos.undo_bare(Stone::from_index(s as usize));
        }
        all && !self.aborted
    }
}

/// The attacker's live windows (2 or 3 of its stones, none of the defender's) through each
/// empty point, for counting the threats of many pairs at one node: a pair's threat windows
/// are among the windows through its two points, and most points lie in few live windows
/// (24 windows through a point to look at otherwise).
struct LiveIndex {
    /// Per cell: its slot in `lists`, or `NO_SLOT`.
    slot: Vec<u16>,
    /// Per slot: the cell and its live windows.
    lists: Vec<(u16, u8, [u16; crate::geometry::MAX_CELL_WINDOWS])>,
    /// Slots in use.
    used: usize,
}

const NO_SLOT: u16 = u16::MAX;

impl LiveIndex {
    fn new() -> Self {
        LiveIndex {
            slot: vec![NO_SLOT; crate::MAX_SIZE * crate::MAX_SIZE],
            lists: Vec::new(),
            used: 0,
        }
    }

    /// Indexes side `a`'s live windows of `pos` by their empty points (forgetting the
    /// previous node's).
    fn build(&mut self, pos: &Connect6, a: usize) {
        for &(c, _, _) in &self.lists[..self.used] {
            self.slot[c as usize] = NO_SLOT;
        }
        self.used = 0;
        // Live windows hold none of the other side's stones.
        for &w in pos.live.of(a) {
            for c in pos.window_empties(w as usize) {
                let mut s = self.slot[c] as usize;
                if s == NO_SLOT as usize {
                    s = self.used;
                    self.used += 1;
                    if s == self.lists.len() {
                        self.lists
                            .push((0, 0, [0; crate::geometry::MAX_CELL_WINDOWS]));
                    }
                    self.lists[s].0 = c as u16;
                    self.lists[s].1 = 0;
                    self.slot[c] = s as u16;
                }
                let list = &mut self.lists[s];
                list.2[list.1 as usize] = w;
                list.1 += 1;
            }
        }
    }

    /// The live windows through empty cell `c`.
    #[inline]
    fn windows(&self, c: u16) -> &[u16] {
        match self.slot[c as usize] {
            NO_SLOT => &[],
            s => {
                let list = &self.lists[s as usize];
                &list.2[..list.1 as usize]
            }
        }
    }

    /// [`threats_with`] for the pair `p`, `q` (distinct empty points) of side `a`, whose
    /// live windows of `pos` were indexed by [`LiveIndex::build`].
    fn pair_threats(&self, pos: &Connect6, a: usize, p: u16, q: u16) -> u8 {
        let mut threats = [0u16; 2 * crate::geometry::MAX_CELL_WINDOWS];
        let mut n = 0;
        for &w in self.windows(p) {
            let cells = &pos.geo.windows[w as usize];
            if pos.wcnt[w as usize][a] == 3 || cells.contains(&q) {
                threats[n] = w;
                n += 1;
            }
        }
        for &w in self.windows(q) {
            if pos.wcnt[w as usize][a] == 3 && !pos.geo.windows[w as usize].contains(&p) {
                threats[n] = w;
                n += 1;
            }
        }
        if n <= 1 {
            return n as u8;
        }
        if n == 2 {
            // Two windows: one stone blocks both when they share an empty point.
            let (u, v) = (
                &pos.geo.windows[threats[0] as usize],
                &pos.geo.windows[threats[1] as usize],
            );
            let shared = u
                .iter()
                .any(|&c| c != p && c != q && pos.cells[c as usize] == 0 && v.contains(&c));
            return if shared { 1 } else { 2 };
        }
        let mut blocked = [u16::MAX; 3];
        pos.hitting_windows(&threats[..n], &[p as usize, q as usize], &mut blocked, 0, 3)
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
/// threats alone is only tried on points of windows holding 2 or 3. Normalised (smaller index
/// first), without duplicates, in the order of the live windows.
fn candidate_pairs(pos: &mut Connect6, pairs: &mut Vec<(u16, u16)>, seen: &mut PairSet) {
    pairs.clear();
    let a = pos.side.index();
    let d = 1 - a;
    let mut e3 = [0u16; 64];
    let mut n3 = 0;
    let mut e2 = [0u16; 128];
    let mut n2 = 0;
    let mut mark = [0u8; crate::MAX_SIZE * crate::MAX_SIZE];
    for &w in pos.live.of(a) {
        let w = w as usize;
        let cnt = pos.wcnt[w];
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
                seen.push(pairs, em[i], em[j]);
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
    for (i, &p) in e3[..n3].iter().enumerate() {
        for &q in &e3[i + 1..n3] {
            seen.push(pairs, p, q);
        }
        let solo = threats_with(pos, a, &[p as usize]);
        if solo >= 2 {
            for &q in &e2[..n2] {
                if p != q {
                    seen.push(pairs, p, q);
                }
            }
        }
    }
    seen.forget(pairs);
}

/// The turns of an attacker (side to move, two stones) facing defender threats that one
/// stone stops: each point that blocks all of them paired with every other point of the
/// attacker's live windows (windows of two or more of its stones and none of the
/// defender's, the only ones a turn can make threats in; the blocking stone may add to them
/// too). [`candidate_pairs`] for the case the threat search used to give up on.
fn blocking_pairs(pos: &Connect6, pairs: &mut Vec<(u16, u16)>, seen: &mut PairSet) {
    pairs.clear();
    let a = pos.side.index();
    let d = 1 - a;
    let mut blocks = [0u16; 2];
    let nb = pos.single_blocks(d, &mut blocks);
    for &w in pos.live.of(a) {
        let w = w as usize;
        if pos.wcnt[w][d] != 0 {
            continue;
        }
        for c in pos.window_empties(w) {
            for &b in &blocks[..nb] {
                if b != c as u16 {
                    seen.push(pairs, b, c as u16);
                }
            }
        }
    }
    seen.forget(pairs);
}

/// A set of pairs of points for removing duplicates while candidate pairs are generated:
/// open addressing over [`PAIR_SLOTS`] slots, emptied by [`PairSet::forget`] after each
/// node (cheaper than sorting the list, which took an eighth of a node's time). Past 3/4
/// full it stops deduplicating and the list is sorted instead.
struct PairSet {
    /// Per slot: the pair as `(smaller << 16 | larger) + 1`, 0 for empty.
    slots: Vec<u32>,
    /// Entries in use.
    len: usize,
    /// Set when the table filled up: the list holds duplicates.
    overflow: bool,
}

/// Slots of a [`PairSet`] (a power of two).
const PAIR_SLOTS: usize = 2048;

impl PairSet {
    fn new() -> Self {
        PairSet {
            slots: vec![0; PAIR_SLOTS],
            len: 0,
            overflow: false,
        }
    }

    /// The slot holding `key` or the empty slot where it goes.
    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 21) as usize & (PAIR_SLOTS - 1);
        while self.slots[i] != 0 && self.slots[i] != key {
            i = (i + 1) & (PAIR_SLOTS - 1);
        }
        i
    }

    /// Appends the pair `x`, `y` (normalised: smaller first) to `pairs` unless already there.
    #[inline]
    fn push(&mut self, pairs: &mut Vec<(u16, u16)>, x: u16, y: u16) {
        let (x, y) = (x.min(y), x.max(y));
        if self.overflow {
            pairs.push((x, y));
            return;
        }
        let key = ((u32::from(x) << 16) | u32::from(y)) + 1;
        let i = self.slot(key);
        if self.slots[i] == 0 {
            self.slots[i] = key;
            self.len += 1;
            self.overflow = self.len >= PAIR_SLOTS * 3 / 4;
            pairs.push((x, y));
        }
    }

    /// Empties the set, whose entries are all in `pairs`; removes the duplicates `pairs`
    /// got after an overflow.
    fn forget(&mut self, pairs: &mut Vec<(u16, u16)>) {
        if self.overflow {
            self.slots.iter_mut().for_each(|s| *s = 0);
            pairs.sort_unstable();
            pairs.dedup();
        } else {
            // Latest first: the probe sequence of each entry then still holds the entries
            // that were there when it was inserted.
            for &(x, y) in pairs.iter().rev() {
                let i = self.slot(((u32::from(x) << 16) | u32::from(y)) + 1);
                self.slots[i] = 0;
            }
        }
        self.len = 0;
        self.overflow = false;
    }
}

/// The attacker's single-threat turns tried by [`ThreatSearch::find_win_or_single`]: a stone
/// on an empty point of a window holding 3 attacker stones and no defender's, with one of
/// the attacker's best [`SINGLE_BUILDERS`] other stones; and both empty points of a window
/// holding 2. Normalised (smaller index first), without duplicates, in a board-determined
/// order.
fn single_threat_pairs(pos: &Connect6, pairs: &mut Vec<(u16, u16)>) {
    pairs.clear();
    let a = pos.side.index();
    let d = 1 - a;
    let mut makers: Vec<u16> = Vec::new();
    for &w in pos.live.of(a) {
        let w = w as usize;
        let cnt = pos.wcnt[w];
        if cnt[d] != 0 || !(2..=3).contains(&cnt[a]) {
            continue;
        }
        let empties: Vec<u16> = pos.window_empties(w).map(|c| c as u16).collect();
        if cnt[a] == 3 {
            for &c in &empties {
                if !makers.contains(&c) {
                    makers.push(c);
                }
            }
        } else {
            for i in 0..empties.len() {
                for j in i + 1..empties.len() {
                    let (x, y) = (empties[i], empties[j]);
                    pairs.push((x.min(y), x.max(y)));
                }
            }
        }
    }
    let mut builders = Vec::new();
    pos.push_beam(&mut builders, SINGLE_BUILDERS);
    for &p in &makers {
        for b in &builders {
            let q = b.index() as u16;
            if q != p {
                pairs.push((p.min(q), p.max(q)));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
}

/// The threats side `a` would have after adding its stones `added` (one or two empty
/// points) to `pos`, counted as [`Connect6::threat_count`] counts them (capped at 3), without
/// playing them. Only windows through an added stone are looked at: the caller's side has no
/// threat window before (it would have completed a six).
pub(crate) fn threats_with(pos: &Connect6, a: usize, added: &[usize]) -> u8 {
    let d = 1 - a;
    let mut threats = [0u16; 2 * crate::geometry::MAX_CELL_WINDOWS];
    let mut n = 0;
    // A window needs 4 stones: 2 already when both added stones can lie in it, else 3.
    let least = 4 - added.len().min(2) as u8;
    for (i, &c) in added.iter().enumerate() {
        for &w in pos.geo.windows_of(c) {
            let cnt = pos.wcnt[w as usize];
            if cnt[d] != 0 || cnt[a] < least {
                continue;
            }
            let cells = &pos.geo.windows[w as usize];
            // A window through both stones is counted once, from the first.
            if added[..i].iter().any(|&e| cells.contains(&(e as u16))) {
                continue;
            }
            let extra = added
                .iter()
                .filter(|&&e| cells.contains(&(e as u16)))
                .count();
            if cnt[a] as usize + extra >= 4 {
                threats[n] = w;
                n += 1;
            }
        }
    }
    let mut blocked = [u16::MAX; 3];
    pos.hitting_windows(&threats[..n], added, &mut blocked, 0, 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The indexed count agrees with [`threats_with`] on every pair of empty central points
    /// of random positions in which the side counted has no threat yet.
    #[test]
    fn indexed_pair_threats_agree_with_threats_with() {
        let mut next = crate::test_rng(0x2545_F491_4F6C_DD1D_u64);
        let mut index = LiveIndex::new();
        let (mut pairs, mut doubles) = (0, 0);
        for game in 0..60 {
            let mut pos = Connect6::standard();
            for _ in 0..8 + game / 3 {
                let c = (5 + next(9)) * 19 + 5 + next(9);
                if pos.cells[c] == 0 {
                    pos.play(Stone::from_index(c));
                }
            }
            for a in 0..2 {
                if !pos.threat_windows(a).is_empty() {
                    continue;
                }
                index.build(&pos, a);
                let empties: Vec<u16> = (0..pos.cells.len() as u16)
                    .filter(|&c| pos.cells[c as usize] == 0 && pos.near[c as usize] > 0)
                    .collect();
                for (i, &p) in empties.iter().enumerate() {
                    for &q in &empties[i + 1..] {
                        let t = threats_with(&pos, a, &[p as usize, q as usize]);
                        assert_eq!(index.pair_threats(&pos, a, p, q), t, "game {game}");
                        pairs += 1;
                        doubles += usize::from(t >= 2);
                    }
                }
            }
        }
        assert!(
            pairs > 10_000 && doubles > 100,
            "{pairs} pairs, {doubles} doubles"
        );
    }

    /// The pair set keeps each pair once, in first-seen order, and is empty after `forget`,
    /// also past its overflow.
    #[test]
    fn pair_set_removes_duplicates_and_empties() {
        let mut rng = crate::test_rng(0x1234_5678_9ABC_DEF1_u64);
        let mut next = move |n: usize| rng(n) as u16;
        let mut set = PairSet::new();
        for round in 0..50 {
            let (count, range) = if round % 10 == 9 {
                (4000, 200)
            } else {
                (300, 40)
            };
            let mut pairs = Vec::new();
            let mut expected: Vec<(u16, u16)> = Vec::new();
            for _ in 0..count {
                let (x, y) = (next(range), next(range));
                set.push(&mut pairs, x, y);
                let p = (x.min(y), x.max(y));
                if !expected.contains(&p) {
                    expected.push(p);
                }
            }
            set.forget(&mut pairs);
            assert!(set.slots.iter().all(|&s| s == 0), "round {round}");
            if round % 10 == 9 {
                expected.sort_unstable();
            }
            assert_eq!(pairs, expected, "round {round}");
        }
    }
}
