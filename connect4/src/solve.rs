//! A weak solver: whether the side to move wins, draws or loses with perfect play.
//!
//! Negamax over the three values with alpha-beta, a transposition table of bounds, and the
//! pruning every Connect Four solver uses (Pascal Pons's tutorial describes them): a win on
//! the spot is taken, the opponent's win on the spot must be blocked (two of them lose), a
//! stone is never put right under an opponent's winning cell, and moves are tried by the
//! number of winning cells they make, centre first. The root asks two null-window questions
//! ("a win?", then "at least a draw?").

use game_core::{Outcome, Position, Side};

use crate::board::{Column, ConnectFour, MAX_WIDTH, winning_cells};

/// The result of perfect play for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// The side to move loses.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins.
    Win,
}

impl Value {
    /// The value of the same result seen by the other side.
    #[must_use]
    pub fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }
}

/// A bound entry: the position's key and the value's lower and upper bounds.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    lower: i8,
    upper: i8,
    /// False for a slot never written (the empty board's key is 0).
    used: bool,
}

/// The solver with its transposition table (kept between calls: positions of one game share
/// their subtrees).
pub struct Solver {
    table: Vec<Entry>,
    nodes: u64,
}

impl Solver {
    /// A solver with a table of about `table_mib` MiB (at least 1).
    #[must_use]
    pub fn new(table_mib: usize) -> Solver {
        let entries = (table_mib.max(1) << 20) / std::mem::size_of::<Entry>();
        let entries = entries.next_power_of_two() / 2;
        Solver {
            table: vec![Entry::default(); entries.max(1024)],
            nodes: 0,
        }
    }

    /// Nodes visited since the solver was made.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `position` for its side to move. A finished game is a loss for the side
    /// to move (the other side made four) or a draw (a full board).
    #[must_use]
    pub fn solve(&mut self, position: &ConnectFour) -> Value {
        match position.game_end() {
            Some(Outcome::Win(s)) => {
                return if s == position.side_to_move() {
                    Value::Win
                } else {
                    Value::Loss
                };
            }
            Some(Outcome::Draw) => return Value::Draw,
            None => {}
        }
        let mut p = *position;
        if self.negamax(&mut p, 0, 1) >= 1 {
            Value::Win
        } else if self.negamax(&mut p, -1, 0) >= 0 {
            Value::Draw
        } else {
            Value::Loss
        }
    }

    /// Every legal column of `position` with its value for the side to move (the value of the
    /// position after it, seen from the mover). Empty when the game is over.
    pub fn solve_moves(&mut self, position: &ConnectFour) -> Vec<(Column, Value)> {
        let mut moves = Vec::new();
        if position.generate_moves(&mut moves).is_some() {
            return Vec::new();
        }
        let mut out: Vec<(Column, Value)> = moves
            .into_iter()
            .map(|c| {
                let mut p = *position;
                p.play(c);
                (c, self.solve(&p).flip())
            })
            .collect();
        out.sort_by_key(|&(c, _)| c);
        out
    }

    /// The value (-1, 0, 1) of `p` for its side to move, within `alpha < beta`; the game is
    /// not over at `p`.
    fn negamax(&mut self, p: &mut ConnectFour, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        let me = p.side_to_move();
        let playable = p.playable();
        if p.winning_cells(me) & playable != 0 {
            return 1;
        }
        let cells = p.width() * p.height();
        if p.plies() + 1 >= cells {
            // One cell left, and it does not win.
            return 0;
        }
        let theirs = p.winning_cells(me.opponent());
        let forced = theirs & playable;
        let mut candidates = playable;
        if forced != 0 {
            if forced.count_ones() > 1 {
                return -1;
            }
            candidates = forced;
        }
        candidates &= !(theirs >> 1);
        if candidates == 0 {
            return -1;
        }
        if p.plies() + 2 >= cells {
            // We play a stone that neither wins nor loses, the opponent the last one, which
            // cannot win either (it is not under a winning cell of theirs... nor is it one).
            return 0;
        }
        let slot = (p.key() as usize) & (self.table.len() - 1);
        let e = self.table[slot];
        if e.used && e.key == p.key() {
            alpha = alpha.max(e.lower);
            beta = beta.min(e.upper);
            if alpha >= beta {
                return alpha;
            }
        }
        // Order: more winning cells made first, then the centre.
        let mut order = [(0i32, Column(0)); MAX_WIDTH];
        let mut n = 0;
        let stride = p.height() as u32 + 1;
        let mine = p.stones(me);
        let empty = p.board_mask() & !p.occupied();
        for c in p.centre_order() {
            if !p.can_play(c) {
                continue;
            }
            let cell = p.bit(c.index(), p.column_height(c.index()));
            if cell & candidates == 0 {
                continue;
            }
            let threats = (winning_cells(mine | cell, stride) & empty & !cell).count_ones() as i32;
            // Insertion keeps the centre-first order among equal counts.
            let mut i = n;
            while i > 0 && order[i - 1].0 < threats {
                order[i] = order[i - 1];
                i -= 1;
            }
            order[i] = (threats, c);
            n += 1;
        }
        let alpha0 = alpha;
        let mut best = -1;
        for &(_, c) in &order[..n] {
            p.play(c);
            let v = -self.negamax(p, -beta, -alpha);
            p.undo(c);
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        let (lower, upper) = if best <= alpha0 {
            (-1, best)
        } else if best >= beta {
            (best, 1)
        } else {
            (best, best)
        };
        self.table[slot] = Entry {
            key: p.key(),
            lower,
            upper,
            used: true,
        };
        best
    }
}

impl Value {
    /// The value as an [`Outcome`] of the game for `to_move`, the side the value is for.
    #[must_use]
    pub fn outcome(self, to_move: Side) -> Outcome {
        match self {
            Value::Win => Outcome::Win(to_move),
            Value::Draw => Outcome::Draw,
            Value::Loss => Outcome::Win(to_move.opponent()),
        }
    }
}
