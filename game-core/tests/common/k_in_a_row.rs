//! Connect(w, h, k, p, q), a family of small k-in-a-row games for proving the search, with a
//! deterministic random evaluation. Shared by the search tests and the search benchmark.
#![allow(dead_code)]

use game_core::zobrist::SplitMix64;
use game_core::{Evaluate, Move, Outcome, Position, Score, Side};

/// A cell index on a board of at most 6x6.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell(pub u8);

impl Move for Cell {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

const KEYS: [u64; 80] = SplitMix64::new(11).table();

/// Connect(w, h, k, p, q): a w x h board, k in a row wins, p stones per turn, q stones on the
/// first player's first turn. With p = 2 the side to move stays the same within a turn, as in
/// connect6.
#[derive(Clone, Debug)]
pub struct KInARow {
    w: usize,
    h: usize,
    k: usize,
    per_turn: u8,
    pub cells: Vec<Option<Side>>,
    to_move: Side,
    /// Stones still to place in this turn.
    left: u8,
    stones: usize,
    pub winner: Option<Side>,
    key: u64,
    /// Undo information: (left before, winner before, to_move before).
    history: Vec<(u8, Option<Side>, Side)>,
}

#[derive(Debug, thiserror::Error)]
#[error("bad cell '{0}'")]
pub struct BadCell(String);

impl KInARow {
    pub fn new(w: usize, h: usize, k: usize, per_turn: u8, first_turn: u8) -> Self {
        KInARow {
            w,
            h,
            k,
            per_turn,
            cells: vec![None; w * h],
            to_move: Side::First,
            left: first_turn,
            stones: 0,
            winner: None,
            key: 0,
            history: Vec::new(),
        }
    }

    fn state_key(&self) -> u64 {
        self.key
            ^ if self.to_move == Side::Second {
                KEYS[72]
            } else {
                0
            }
            ^ KEYS[73 + self.left as usize]
    }

    fn makes_line(&self, at: usize, side: Side) -> bool {
        let (x, y) = ((at % self.w) as i32, (at / self.w) as i32);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dx, dy)| {
            let count = |sign: i32| {
                let mut n = 0;
                let (mut cx, mut cy) = (x + dx * sign, y + dy * sign);
                while cx >= 0
                    && cy >= 0
                    && (cx as usize) < self.w
                    && (cy as usize) < self.h
                    && self.cells[cy as usize * self.w + cx as usize] == Some(side)
                {
                    n += 1;
                    cx += dx * sign;
                    cy += dy * sign;
                }
                n
            };
            1 + count(1) + count(-1) >= self.k
        })
    }
}

impl Position for KInARow {
    type Move = Cell;
    type MoveError = BadCell;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Cell>) -> Option<Outcome> {
        moves.clear();
        if let Some(side) = self.winner {
            return Some(Outcome::Win(side));
        }
        moves.extend(
            (0..self.cells.len())
                .filter(|&i| self.cells[i].is_none())
                .map(|i| Cell(i as u8)),
        );
        moves.is_empty().then_some(Outcome::Draw)
    }

    fn play(&mut self, mv: Cell) {
        self.history.push((self.left, self.winner, self.to_move));
        let at = usize::from(mv.0);
        self.cells[at] = Some(self.to_move);
        self.key ^= KEYS[self.to_move.index() * 36 + at];
        self.stones += 1;
        if self.makes_line(at, self.to_move) {
            self.winner = Some(self.to_move);
        }
        self.left -= 1;
        if self.left == 0 {
            self.to_move = self.to_move.opponent();
            self.left = self.per_turn;
        }
    }

    fn undo(&mut self, mv: Cell) {
        let (left, winner, to_move) = self.history.pop().expect("undo without play");
        let at = usize::from(mv.0);
        self.cells[at] = None;
        self.key ^= KEYS[to_move.index() * 36 + at];
        self.stones -= 1;
        self.left = left;
        self.winner = winner;
        self.to_move = to_move;
    }

    fn key(&self) -> u64 {
        self.state_key()
    }

    fn parse_move(&self, text: &str) -> Result<Cell, BadCell> {
        text.parse::<u8>()
            .ok()
            .filter(|&i| usize::from(i) < self.cells.len() && self.cells[usize::from(i)].is_none())
            .map(Cell)
            .ok_or_else(|| BadCell(text.to_string()))
    }

    fn format_move(&self, mv: Cell) -> String {
        mv.0.to_string()
    }

    // Ordering hints that vary, so ordering matters to the proof.
    fn order_hint(&self, mv: Cell) -> i32 {
        (KEYS[usize::from(mv.0)] % 97) as i32
    }
}

/// A deterministic random evaluation: a hash of the position's key, -500..=500.
pub struct RandomEval;

impl Evaluate<KInARow> for RandomEval {
    fn evaluate(&self, pos: &KInARow) -> Score {
        let (h, _) = SplitMix64::new(pos.key()).next();
        (h % 1001) as Score - 500
    }
}
