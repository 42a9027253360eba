//! Threat-space search (Allis, van den Herik and Huntjens, "Go-Moku and Threat-Space
//! Search", 1993): VCF (victory by continuous fours) and VCT (victory by continuous threats:
//! fours and open threes), each with its own small table, and the defender's side (the moves
//! that stop the opponent's VCF).
//!
//! The attacker is the side to move. Under renju the forbidden points count both ways: Black
//! never plays a forbidden point, and a White four whose only defence is a point forbidden for
//! Black wins at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use game_core::Side;

use crate::board::Board;
use crate::pattern::Class;
use crate::point::{Point, Rule};

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    depth: u8,
    win: bool,
}

/// A small always-replace table of solved threat-search nodes.
struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        Table {
            entries: vec![Entry::default(); 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    fn probe(&self, key: u64, depth: u8) -> Option<bool> {
        let e = self.entries[key as usize & self.mask];
        if e.key == key && (e.win || e.depth >= depth) {
            Some(e.win)
        } else {
            None
        }
    }

    #[inline]
    fn store(&mut self, key: u64, depth: u8, win: bool) {
        self.entries[key as usize & self.mask] = Entry { key, depth, win };
    }

    fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

/// Threat-space solver with its VCF and VCT tables and a node budget.
///
/// Depths count the attacker's moves. A search that runs out of nodes answers "no win found".
pub struct ThreatSolver {
    vcf_table: Table,
    vct_table: Table,
    nodes: u64,
    node_limit: u64,
    deadline: Option<std::time::Instant>,
    /// Set from another thread to abort the running search (checked with the deadline).
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    scratch: Vec<Vec<Point>>,
}

impl Default for ThreatSolver {
    fn default() -> Self {
        ThreatSolver::new()
    }
}

/// Scratch move lists, one per recursion level, so the search does not allocate per node.
fn take_list(scratch: &mut Vec<Vec<Point>>) -> Vec<Point> {
    let mut v = scratch.pop().unwrap_or_else(|| Vec::with_capacity(64));
    v.clear();
    v
}

impl ThreatSolver {
    /// A solver with 64 Ki-entry VCF and VCT tables (1 MiB each) and no node limit.
    #[must_use]
    pub fn new() -> ThreatSolver {
        ThreatSolver {
            vcf_table: Table::new(16),
            vct_table: Table::new(16),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: None,
            aborted: false,
            scratch: Vec::new(),
        }
    }

    /// Forgets every solved node.
    pub fn clear(&mut self) {
        self.vcf_table.clear();
        self.vct_table.clear();
    }

    /// Nodes visited since the last [`ThreatSolver::set_node_limit`].
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Limits the nodes of the following searches (the count restarts at 0) and clears the
    /// deadline.
    pub fn set_node_limit(&mut self, limit: u64) {
        self.nodes = 0;
        self.node_limit = limit;
        self.deadline = None;
        self.aborted = false;
    }

    /// Stops the following searches at `deadline` (checked every 256 nodes).
    pub fn set_deadline(&mut self, deadline: Option<std::time::Instant>) {
        self.deadline = deadline;
    }

    /// Aborts the following searches when `stop` is set (checked every 256 nodes, like the
    /// deadline), until it is replaced; `None` removes it.
    pub fn set_stop(&mut self, stop: Option<Arc<AtomicBool>>) {
        self.stop = stop;
    }

    /// True if the last search stopped on its node limit or deadline (its "no" is then unproven).
    #[must_use]
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// A VCF for the side to move, the shortest first: the winning line (attacker and defender
    /// moves alternating, ending with the five), or `None` when there is none within `max_depth` attacker moves
    /// (or the node budget ran out).
    pub fn vcf(&mut self, board: &Board, max_depth: u32) -> Option<Vec<Point>> {
        let mut b = board.clone();
        let mut line = Vec::new();
        self.aborted = false;
        // Iterative deepening: the shortest VCF first (failures of shallower depths are in the
        // table and cut the next iteration).
        for depth in 1..=max_depth.min(60) as u8 {
            line.clear();
            if self.vcf_node(&mut b, depth, &mut line) {
                return Some(line);
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// A VCT for the side to move (fours and open threes; the defender may answer a three with
    /// any block or a counter-four): the main line, or `None`.
    pub fn vct(&mut self, board: &Board, max_depth: u32) -> Option<Vec<Point>> {
        let mut b = board.clone();
        let mut line = Vec::new();
        self.aborted = false;
        if self.vct_attack(&mut b, max_depth.min(60) as u8, &mut line) {
            Some(line)
        } else {
            None
        }
    }

    /// The moves of the side to move after which the opponent has no VCF within `max_depth`
    /// (the defender's side), among the search moves ([`game_core::Position::generate_search_moves`]).
    /// When the opponent has no VCF at all every search move is returned; an empty list means
    /// every move loses to a VCF.
    pub fn vcf_defences(&mut self, board: &Board, max_depth: u32) -> Vec<Point> {
        use game_core::Position;
        let mut b = board.clone();
        let mut cands = Vec::new();
        b.generate_search_moves(&mut cands);
        let mut out = Vec::new();
        self.aborted = false;
        for p in cands {
            if self.aborted {
                // Out of budget: the remaining moves are unproven, keep them.
                out.push(p);
                continue;
            }
            b.play(p);
            let mut line = Vec::new();
            let lost = b.game_end().is_none() && self.vcf_node(&mut b, max_depth as u8, &mut line);
            b.undo(p);
            if !lost {
                out.push(p);
            }
        }
        out
    }

    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            self.aborted = true;
        } else if self.nodes & 255 == 0 {
            if let Some(d) = self.deadline {
                if std::time::Instant::now() >= d {
                    self.aborted = true;
                }
            }
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Four candidates of `me`, best first; when the opponent has a five point only the block
    /// (if it is itself a four).
    fn four_moves(b: &Board, me: Side, out: &mut Vec<Point>) {
        out.clear();
        let opp = me.opponent();
        if let Some(q) = b.five_point(opp) {
            if b.class_count(opp, Class::Five) == 1 && b.makes_four(q, me) && legal_for(b, q, me) {
                out.push(q);
            }
            return;
        }
        for p in b.points() {
            if b.is_empty(p) && b.makes_four(p, me) && legal_for(b, p, me) {
                out.push(p);
            }
        }
        out.sort_by_cached_key(|&p| -(b.class(p, me) as i32 * 10_000 + b.point_value(p, me)));
    }

    fn vcf_node(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Point>) -> bool {
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(p) = b.five_point(me) {
            line.push(p);
            return true;
        }
        if depth == 0 || self.count_node() {
            return false;
        }
        let key = b.key();
        if let Some(win) = self.vcf_table.probe(key, depth) {
            if !win {
                return false;
            }
        }
        let mut moves = take_list(&mut self.scratch);
        Self::four_moves(b, me, &mut moves);
        let mut won = false;
        for &p in &moves {
            let mark = line.len();
            line.push(p);
            b.play(p);
            if b.game_end().is_some() {
                b.undo(p);
                line.truncate(mark);
                continue;
            }
            let fives = b.class_count(me, Class::Five);
            if fives >= 2 {
                // An open four (or two fours): whatever the defender blocks, the other five.
                let f = b.five_point(me).expect("five point");
                line.push(f);
                b.play(f);
                if let Some(g) = b.five_point(me) {
                    line.push(g);
                    won = true;
                }
                b.undo(f);
            } else if let Some(q) = b.five_point(me) {
                line.push(q);
                if opp == Side::First && b.rule() == Rule::Renju && b.is_forbidden(q) {
                    // Black cannot block a forbidden point: White fives there next.
                    won = true;
                } else {
                    b.play(q);
                    if b.game_end().is_none() && self.vcf_node(b, depth - 1, line) {
                        won = true;
                    }
                    b.undo(q);
                }
            }
            b.undo(p);
            if won {
                break;
            }
            line.truncate(mark);
            if self.aborted {
                break;
            }
        }
        self.scratch.push(moves);
        if !self.aborted || won {
            self.vcf_table.store(key, depth, won);
        }
        won
    }

    /// Attacker node of the VCT: fives, forced blocks, VCF, then fours and threes.
    fn vct_attack(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Point>) -> bool {
        let me = b.side_to_move();
        let opp = me.opponent();
        if let Some(p) = b.five_point(me) {
            line.push(p);
            return true;
        }
        if depth == 0 || self.count_node() {
            return false;
        }
        let key = b.key();
        if let Some(win) = self.vct_table.probe(key, depth) {
            if !win {
                return false;
            }
        }
        let mark = line.len();
        if self.vcf_node(b, depth.min(12), line) {
            self.vct_table.store(key, depth, true);
            return true;
        }
        line.truncate(mark);
        let mut moves = take_list(&mut self.scratch);
        if let Some(q) = b.five_point(opp) {
            if b.class_count(opp, Class::Five) == 1 && legal_for(b, q, me) {
                moves.push(q);
            }
        } else {
            for p in b.points() {
                if !b.is_empty(p) {
                    continue;
                }
                let c = b.class(p, me);
                let threat = matches!(c, Class::Three | Class::DoubleThree | Class::FourThree)
                    || b.makes_four(p, me);
                if threat && legal_for(b, p, me) {
                    moves.push(p);
                }
            }
            moves.sort_by_cached_key(|&p| -(b.class(p, me) as i32 * 10_000 + b.point_value(p, me)));
        }
        let mut won = false;
        for &p in &moves {
            line.push(p);
            b.play(p);
            if b.game_end().is_none() && self.vct_defend(b, depth - 1, line) {
                won = true;
            }
            b.undo(p);
            if won {
                break;
            }
            line.truncate(mark);
            if self.aborted {
                break;
            }
        }
        self.scratch.push(moves);
        if !self.aborted || won {
            self.vct_table.store(key, depth, won);
        }
        won
    }

    /// Defender node of the VCT: the attacker (`opponent of the side to move`) has just made a
    /// threat; every defence must lose for the attacker to win.
    fn vct_defend(&mut self, b: &mut Board, depth: u8, line: &mut Vec<Point>) -> bool {
        let me = b.side_to_move();
        let att = me.opponent();
        if b.has_five_point(me) {
            return false;
        }
        let mut moves = take_list(&mut self.scratch);
        if b.has_five_point(att) {
            if b.class_count(att, Class::Five) >= 2 {
                self.scratch.push(moves);
                line.push(b.five_point(att).expect("five point"));
                return true;
            }
            let q = b.five_point(att).expect("five point");
            if !legal_for(b, q, me) {
                self.scratch.push(moves);
                line.push(q);
                return true;
            }
            moves.push(q);
        } else {
            if b.class_count(att, Class::OpenFour) == 0 {
                // Not a threat after all.
                self.scratch.push(moves);
                return false;
            }
            // A defender VCF refutes a three.
            let mut dummy = Vec::new();
            if self.vcf_node(b, 10, &mut dummy) {
                self.scratch.push(moves);
                return false;
            }
            for p in b.points() {
                if b.is_empty(p)
                    && (b.makes_four(p, att) || b.makes_four(p, me))
                    && legal_for(b, p, me)
                {
                    moves.push(p);
                }
            }
        }
        let mark = line.len();
        let mut all = true;
        for &d in &moves {
            b.play(d);
            let ok = b.game_end().is_none() && {
                line.truncate(mark);
                line.push(d);
                self.vct_attack(b, depth, line)
            };
            b.undo(d);
            if !ok {
                all = false;
                break;
            }
        }
        if !all {
            line.truncate(mark);
        } else if moves.is_empty() {
            all = false;
        }
        self.scratch.push(moves);
        all
    }
}

/// True if `side` may play the empty point `p` (not forbidden for Black under renju).
#[inline]
fn legal_for(b: &Board, p: Point, side: Side) -> bool {
    side == Side::Second || b.rule() != Rule::Renju || !b.is_forbidden(p)
}
