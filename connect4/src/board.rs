//! The Connect Four position on two bitboards.
//!
//! Column `c` holds the bits `c·(height+1) .. c·(height+1)+height`: one bit a cell from the
//! bottom up, plus an empty sentinel bit on top, so that shifting a bitboard by 1 (up),
//! `height+1` (across) or `height+1 ± 1` (the diagonals) never carries a line from one column
//! into the next. A four is then found with two shifts and two ands per direction (the
//! classic bitboard test, as in John Tromp's Fhourstones).

use std::fmt;

use game_core::zobrist::SplitMix64;
use game_core::{Move, Outcome, Position, Side};

/// Smallest width and height (a four must fit both ways).
pub const MIN_SIZE: usize = 4;
/// Widest board: one character a column in the notation (`1`..`9`).
pub const MAX_WIDTH: usize = 9;
/// Tallest board; also `(height + 1) · width <= 64` must hold (one `u64` holds the board).
pub const MAX_HEIGHT: usize = 15;

/// Zobrist keys: `side · 64 + bit`, then the side-to-move key.
const KEYS: [u64; 129] = SplitMix64::new(0xC0_4E_C7_F0_00_00_00_04).table();
const SIDE_KEY: u64 = KEYS[128];

/// A move: the column a stone is dropped into, from 0 (the leftmost) to `width - 1`. Written
/// for people as the column's number from 1 (`4` is the centre of the 7-column board), the
/// notation of John Tromp's and Pascal Pons's solvers; letters `a`.. are read too.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl Column {
    /// The column's index from 0.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl Move for Column {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// What was wrong with a board size, a column or a move list.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Connect4Error {
    /// The size is outside what the board holds.
    #[error(
        "bad board size {width}x{height}: width and height must be at least {MIN_SIZE}, the \
         width at most {MAX_WIDTH}, and (height + 1) x width at most 64"
    )]
    BadSize {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// The text names no column of this board.
    #[error(
        "'{text}' is not a column here: expected a column number 1..{width} or a letter a..{last}"
    )]
    NotAColumn {
        /// The text, trimmed.
        text: String,
        /// The board's width.
        width: usize,
        /// The last column's letter.
        last: char,
    },
    /// The column has no empty cell left.
    #[error("column {column} is full")]
    ColumnFull {
        /// The column's number from 1.
        column: usize,
    },
    /// The game has ended; no stone may be played.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// A move of a move list was refused.
    #[error("move {index} ('{text}') of the list: {error}")]
    InList {
        /// The move's number in the list, from 1.
        index: usize,
        /// The move's text.
        text: String,
        /// Why it was refused.
        error: Box<Connect4Error>,
    },
}

/// A Connect Four position: the stones, the side to move and the Zobrist key.
///
/// `Copy` and small (two bitboards, the column heights). Stones of [`Side::First`] are drawn
/// `X`, of [`Side::Second`] `O`.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct ConnectFour {
    width: u8,
    height: u8,
    /// Stones by side.
    stones: [u64; 2],
    /// Stones in each column.
    heights: [u8; MAX_WIDTH],
    side: Side,
    plies: u16,
    key: u64,
    /// The columns from the centre out (move generation order).
    order: [u8; MAX_WIDTH],
    /// Every cell of the board, the bottom cell of each column, and the cells of the odd
    /// rows (1st, 3rd, ... from the bottom): fixed by the size, kept off the hot path.
    board: u64,
    bottom: u64,
    odd_rows: u64,
}

impl ConnectFour {
    /// An empty `width` x `height` board, the first side to move.
    ///
    /// # Errors
    /// [`Connect4Error::BadSize`] outside `MIN_SIZE..=MAX_WIDTH` columns, `MIN_SIZE..=MAX_HEIGHT`
    /// rows, or when `(height + 1) · width > 64`.
    pub fn new(width: usize, height: usize) -> Result<ConnectFour, Connect4Error> {
        if !(MIN_SIZE..=MAX_WIDTH).contains(&width)
            || !(MIN_SIZE..=MAX_HEIGHT).contains(&height)
            || (height + 1) * width > 64
        {
            return Err(Connect4Error::BadSize { width, height });
        }
        let stride = height as u32 + 1;
        let column = (1u64 << height) - 1;
        let odd = (0..height as u32).step_by(2).fold(0u64, |m, r| m | 1 << r);
        let (mut board, mut bottom, mut odd_rows) = (0, 0, 0);
        for c in 0..width as u32 {
            board |= column << (c * stride);
            bottom |= 1 << (c * stride);
            odd_rows |= odd << (c * stride);
        }
        Ok(ConnectFour {
            board,
            bottom,
            odd_rows,
            width: width as u8,
            height: height as u8,
            stones: [0; 2],
            heights: [0; MAX_WIDTH],
            side: Side::First,
            plies: 0,
            key: 0,
            order: centre_order(width),
        })
    }

    /// The standard empty board: 7 columns, 6 rows.
    #[must_use]
    pub fn standard() -> ConnectFour {
        ConnectFour::new(7, 6).expect("7x6 is a valid size")
    }

    /// The position after the moves of `text` from an empty `width` x `height` board: one
    /// column a character (`4453`, or `d d e c`; spaces and commas are skipped).
    ///
    /// # Errors
    /// [`Connect4Error::BadSize`], or [`Connect4Error::InList`] naming the first move refused
    /// (not a column, a full column, a move after the game ended).
    pub fn from_moves(
        width: usize,
        height: usize,
        text: &str,
    ) -> Result<ConnectFour, Connect4Error> {
        let mut p = ConnectFour::new(width, height)?;
        for (i, c) in text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
        {
            let token = c.to_string();
            let refuse = |error| Connect4Error::InList {
                index: i + 1,
                text: token.clone(),
                error: Box::new(error),
            };
            let col = p.parse_column(&token).map_err(refuse)?;
            p.try_play(col).map_err(refuse)?;
        }
        Ok(p)
    }

    /// Columns.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width as usize
    }

    /// Rows.
    #[must_use]
    pub fn height(&self) -> usize {
        self.height as usize
    }

    /// Stones on the board.
    #[must_use]
    pub fn plies(&self) -> usize {
        self.plies as usize
    }

    /// The stones of `side` as a bitboard (see the module's layout).
    #[must_use]
    pub fn stones(&self, side: Side) -> u64 {
        self.stones[side.index()]
    }

    /// Every stone.
    #[inline]
    #[must_use]
    pub fn occupied(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// Bits a column apart: `height + 1`.
    #[inline]
    pub(crate) fn stride(&self) -> u32 {
        u32::from(self.height) + 1
    }

    /// The bit of cell (`column`, `row`), row 0 at the bottom.
    #[inline]
    #[must_use]
    pub fn bit(&self, column: usize, row: usize) -> u64 {
        1 << (column as u32 * self.stride() + row as u32)
    }

    /// Every cell of the board.
    #[inline]
    #[must_use]
    pub fn board_mask(&self) -> u64 {
        self.board
    }

    /// The bottom cell of every column.
    #[inline]
    #[must_use]
    pub fn bottom_mask(&self) -> u64 {
        self.bottom
    }

    /// The cells of the odd rows (1st, 3rd, ... from the bottom: row indices 0, 2, ...).
    #[inline]
    #[must_use]
    pub fn odd_rows_mask(&self) -> u64 {
        self.odd_rows
    }

    /// The cells a stone can be dropped into now: the lowest empty cell of each column that
    /// is not full.
    #[inline]
    #[must_use]
    pub fn playable(&self) -> u64 {
        (self.occupied() + self.bottom_mask()) & self.board_mask()
    }

    /// The stone on (`column`, `row`), row 0 at the bottom; `None` for an empty cell or one
    /// off the board.
    #[must_use]
    pub fn stone(&self, column: usize, row: usize) -> Option<Side> {
        if column >= self.width() || row >= self.height() {
            return None;
        }
        let b = self.bit(column, row);
        if self.stones[0] & b != 0 {
            Some(Side::First)
        } else if self.stones[1] & b != 0 {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// Stones in `column` (0 for a column off the board).
    #[must_use]
    pub fn column_height(&self, column: usize) -> usize {
        self.heights.get(column).map_or(0, |&h| h as usize)
    }

    /// Whether `column` is on the board and not full.
    #[must_use]
    pub fn can_play(&self, column: Column) -> bool {
        column.index() < self.width() && self.heights[column.index()] < self.height
    }

    /// The empty cells where a stone of `side` would complete four (playable now or not).
    #[must_use]
    pub fn winning_cells(&self, side: Side) -> u64 {
        winning_cells(self.stones[side.index()], self.stride())
            & self.board_mask()
            & !self.occupied()
    }

    /// Whether the side to move wins by dropping a stone into `column` (legal or not: false
    /// for a full column).
    #[must_use]
    pub fn is_winning_move(&self, column: Column) -> bool {
        self.can_play(column)
            && self.winning_cells(self.side)
                & self.bit(column.index(), self.column_height(column.index()))
                != 0
    }

    /// How the game ended, if it has: four in a row of the side that just moved, or a full
    /// board.
    #[must_use]
    pub fn game_end(&self) -> Option<Outcome> {
        let mover = self.side.opponent();
        if has_four(self.stones[mover.index()], self.stride()) {
            Some(Outcome::Win(mover))
        } else if self.plies() == self.width() * self.height() {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    /// Reads a column: its number from 1 (`4`) or its letter (`d`, either case).
    ///
    /// # Errors
    /// [`Connect4Error::NotAColumn`] for anything else or a column off this board.
    pub fn parse_column(&self, text: &str) -> Result<Column, Connect4Error> {
        let t = text.trim();
        let mut chars = t.chars();
        let index = match (chars.next(), chars.next()) {
            (Some(c @ '1'..='9'), None) => Some(c as usize - '1' as usize),
            (Some(c), None) if c.is_ascii_alphabetic() => {
                Some(c.to_ascii_lowercase() as usize - 'a' as usize)
            }
            _ => None,
        };
        match index {
            Some(i) if i < self.width() => Ok(Column(i as u8)),
            _ => Err(Connect4Error::NotAColumn {
                text: t.to_string(),
                width: self.width(),
                last: (b'a' + self.width - 1) as char,
            }),
        }
    }

    /// Plays `column` if the game is on and the column has room.
    ///
    /// # Errors
    /// [`Connect4Error::GameOver`] or [`Connect4Error::ColumnFull`]; the position is unchanged.
    pub fn try_play(&mut self, column: Column) -> Result<(), Connect4Error> {
        if let Some(end) = self.game_end() {
            return Err(Connect4Error::GameOver(match end {
                Outcome::Win(s) => format!("{} has four in a row", side_letter(s)),
                Outcome::Draw => "the board is full".to_string(),
            }));
        }
        if !self.can_play(column) {
            return Err(Connect4Error::ColumnFull {
                column: column.index() + 1,
            });
        }
        self.play(column);
        Ok(())
    }

    /// The Zobrist key computed from the stones (for tests of the incremental key).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = if self.side == Side::Second {
            SIDE_KEY
        } else {
            0
        };
        for s in 0..2 {
            let mut b = self.stones[s];
            while b != 0 {
                key ^= KEYS[s * 64 + b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        key
    }

    /// Columns ordered from the centre out (left before right at equal distance).
    pub(crate) fn centre_order(&self) -> impl Iterator<Item = Column> + '_ {
        self.order[..self.width()].iter().map(|&c| Column(c))
    }
}

/// The columns of a `width`-column board from the centre out, left first at equal distance.
fn centre_order(width: usize) -> [u8; MAX_WIDTH] {
    let mut order = [0u8; MAX_WIDTH];
    let mut columns: Vec<usize> = (0..width).collect();
    columns.sort_by_key(|&c| ((2 * c as i32 - (width as i32 - 1)).abs(), c));
    for (slot, c) in order.iter_mut().zip(columns) {
        *slot = c as u8;
    }
    order
}

/// `X` for the first side, `O` for the second.
fn side_letter(side: Side) -> &'static str {
    match side {
        Side::First => "X",
        Side::Second => "O",
    }
}

/// Whether the bitboard `b` holds four in a row (columns `stride` bits apart).
#[inline]
pub(crate) fn has_four(b: u64, stride: u32) -> bool {
    [1, stride, stride - 1, stride + 1].into_iter().any(|d| {
        let m = b & (b >> d);
        m & (m >> (2 * d)) != 0
    })
}

/// Every cell (empty or not, on the board or not) that would complete four with the stones
/// `b`: three in a line and the fourth cell at either end or in a gap.
#[inline]
pub(crate) fn winning_cells(b: u64, stride: u32) -> u64 {
    // Up: three stones below the cell.
    let mut r = (b << 1) & (b << 2) & (b << 3);
    for d in [stride, stride - 1, stride + 1] {
        let p = (b << d) & (b << (2 * d));
        r |= p & (b << (3 * d));
        r |= p & (b >> d);
        let p = (b >> d) & (b >> (2 * d));
        r |= p & (b << d);
        r |= p & (b >> (3 * d));
    }
    r
}

impl Position for ConnectFour {
    type Move = Column;
    type MoveError = Connect4Error;

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn generate_moves(&self, moves: &mut Vec<Column>) -> Option<Outcome> {
        moves.clear();
        if let Some(end) = self.game_end() {
            return Some(end);
        }
        moves.extend(self.centre_order().filter(|&c| self.can_play(c)));
        None
    }

    #[inline]
    fn play(&mut self, mv: Column) {
        let c = mv.index();
        let bit = self.bit(c, self.heights[c] as usize);
        let s = self.side.index();
        self.stones[s] |= bit;
        self.key ^= KEYS[s * 64 + bit.trailing_zeros() as usize] ^ SIDE_KEY;
        self.heights[c] += 1;
        self.plies += 1;
        self.side = self.side.opponent();
    }

    #[inline]
    fn undo(&mut self, mv: Column) {
        let c = mv.index();
        self.side = self.side.opponent();
        self.plies -= 1;
        self.heights[c] -= 1;
        let bit = self.bit(c, self.heights[c] as usize);
        let s = self.side.index();
        self.stones[s] &= !bit;
        self.key ^= KEYS[s * 64 + bit.trailing_zeros() as usize] ^ SIDE_KEY;
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn parse_move(&self, text: &str) -> Result<Column, Connect4Error> {
        let col = self.parse_column(text)?;
        let mut trial = *self;
        trial.try_play(col)?;
        Ok(col)
    }

    fn format_move(&self, mv: Column) -> String {
        mv.to_string()
    }

    /// A win on the spot is the only move searched; facing the opponent's win, only the
    /// block; otherwise every column except those that put a stone right under the
    /// opponent's winning cell (handing it the win), unless nothing else is left.
    fn generate_search_moves(&self, moves: &mut Vec<Column>) -> Option<Outcome> {
        if let Some(end) = self.generate_moves(moves) {
            return Some(end);
        }
        let playable = self.playable();
        let cell = |c: Column| self.bit(c.index(), self.column_height(c.index()));
        let mine = self.winning_cells(self.side) & playable;
        if mine != 0 {
            moves.retain(|&c| cell(c) & mine != 0);
            moves.truncate(1);
            return None;
        }
        let theirs = self.winning_cells(self.side.opponent());
        let forced = theirs & playable;
        if forced != 0 {
            moves.retain(|&c| cell(c) & forced != 0);
            return None;
        }
        if moves.iter().any(|&c| cell(c) & (theirs >> 1) == 0) {
            moves.retain(|&c| cell(c) & (theirs >> 1) == 0);
        }
        None
    }

    /// Central columns first: a column's distance from the centre, in tenths.
    #[inline]
    fn order_hint(&self, mv: Column) -> i32 {
        let mid2 = self.width as i32 - 1;
        -10 * (2 * mv.index() as i32 - mid2).abs()
    }

    /// A move that wins or blocks the opponent's win on the spot.
    #[inline]
    fn is_tactical(&self, mv: Column) -> bool {
        if !self.can_play(mv) {
            return false;
        }
        let cell = self.bit(mv.index(), self.column_height(mv.index()));
        (self.winning_cells(self.side) | self.winning_cells(self.side.opponent())) & cell != 0
    }

    /// The opponent has a stone to play that wins: the side to move must block.
    #[inline]
    fn in_check(&self) -> bool {
        self.winning_cells(self.side.opponent()) & self.playable() != 0
    }
}

impl fmt::Display for ConnectFour {
    /// The board from the top row down, `X` and `O` stones, `.` empty, column numbers below.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height()).rev() {
            for col in 0..self.width() {
                let c = match self.stone(col, row) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                write!(f, "{}{c}", if col == 0 { "" } else { " " })?;
            }
            writeln!(f)?;
        }
        let numbers: Vec<String> = (1..=self.width()).map(|c| c.to_string()).collect();
        writeln!(f, "{}", numbers.join(" "))
    }
}

impl fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ConnectFour {}x{} {} to move\n{self}",
            self.width,
            self.height,
            side_letter(self.side)
        )
    }
}
