//! The connect6 position: stones, turn state, 6-window counts, threat windows, each side's
//! windows by stone count, incremental stone scores and the Zobrist key.

use std::fmt;

use game_core::zobrist::SplitMix64;
use game_core::{Move, Outcome, Side};
use thiserror::Error;

use crate::geometry::{Geometry, OFF, WIN};
use crate::notation::{
    NotationError, Point, format_littlegolem, parse_connectmore, parse_littlegolem,
};

pub(crate) mod search;

/// Gain for the mover of adding a stone to a window holding `a` of its stones and none of the
/// opponent's (6 = a six: decisive).
const OFFENSE: [i32; 6] = [1, 12, 50, 250, 260, 1_000_000];
/// Gain of putting a stone into a window holding `b` opposing stones and none of the mover's.
const DEFENSE: [i32; 7] = [0, 1, 11, 55, 5_000, 5_000, 0];

/// [`OFFENSE`] / [`DEFENSE`] looked up by a window's (black, white) counts, per side placing.
pub(crate) const STONE_VALUE: [[i32; 49]; 2] = {
    let mut t = [[0; 49]; 2];
    let mut s = 0;
    while s < 2 {
        let mut b = 0;
        while b < 7 {
            let mut w = 0;
            while w < 7 {
                let (own, opp) = if s == 0 { (b, w) } else { (w, b) };
                t[s][b * 7 + w] = if opp == 0 {
                    OFFENSE[if own < 5 { own } else { 5 }]
                } else if own == 0 {
                    DEFENSE[opp]
                } else {
                    0
                };
                w += 1;
            }
            b += 1;
        }
        s += 1;
    }
    t
};

/// [`STONE_VALUE`] of both sides in one integer, `white * 2^32 + black`, so that sums of
/// them are kept with one addition; [`unpack_score`] takes a sum apart.
const PACKED_VALUE: [i64; 49] = {
    let mut t = [0; 49];
    let mut code = 0;
    while code < 49 {
        t[code] = ((STONE_VALUE[1][code] as i64) << 32) + STONE_VALUE[0][code] as i64;
        code += 1;
    }
    t
};

/// Side `s`'s part of a sum of [`PACKED_VALUE`]s (each side's part fits an `i32`): the low
/// half, read as signed, is Black's, and what remains, shifted down, White's.
#[inline]
pub(crate) fn unpack_score(packed: i64, s: usize) -> i32 {
    let black = packed as i32;
    if s == 0 {
        black
    } else {
        ((packed - i64::from(black)) >> 32) as i32
    }
}

/// Smallest board side length supported (a six must fit with room to block).
pub const MIN_SIZE: usize = 7;
/// Largest board side length supported (columns `a..y`).
pub const MAX_SIZE: usize = 25;
/// The standard board side length, 19 (Connect(19,19,6,2,1)).
pub const DEFAULT_SIZE: usize = 19;

/// One stone: a board cell index `y * size + x` (row 0 at the bottom). Each stone is one ply
/// of the search; a turn is one or two of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Stone(pub(crate) u16);

impl Stone {
    /// The stone at cell index `index` (`y * size + x`); no check against a board.
    #[must_use]
    pub const fn from_index(index: usize) -> Self {
        Stone(index as u16)
    }

    /// The cell index `y * size + x`.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The stone's point on a `size` board.
    #[must_use]
    pub const fn point(self, size: usize) -> Point {
        Point::new(
            (self.0 as usize % size) as u8,
            (self.0 as usize / size) as u8,
        )
    }
}

impl Move for Stone {
    #[inline]
    fn code(self) -> u32 {
        self.0 as u32
    }
}

/// The content of one point of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No stone.
    Empty,
    /// A black stone (Black moves first).
    Black,
    /// A white stone.
    White,
}

impl Cell {
    /// The stone of `side` (`First` = Black).
    #[must_use]
    pub const fn of(side: Side) -> Cell {
        match side {
            Side::First => Cell::Black,
            Side::Second => Cell::White,
        }
    }
}

/// Why a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Six or more stones of the winner in a row (overlines count).
    Six,
    /// Every point is filled and nobody has six: a draw.
    BoardFull,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Six => "six in a row",
            EndReason::BoardFull => "the board is full",
        })
    }
}

/// The name of a side in connect6 (`Black` for `First`, `White` for `Second`).
#[must_use]
pub const fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Black",
        Side::Second => "White",
    }
}

/// An illegal or unreadable stone or turn.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text could not be read as points.
    #[error(transparent)]
    Notation(#[from] NotationError),
    /// A point outside the board.
    #[error("point ({x}, {y}) is off the {size}x{size} board")]
    OffBoard {
        /// Column (0-based).
        x: u8,
        /// Row (0-based from the bottom).
        y: u8,
        /// Board size.
        size: usize,
    },
    /// The point already holds a stone.
    #[error("{point} is occupied by {by}")]
    Occupied {
        /// The point.
        point: Point,
        /// "Black" or "White".
        by: &'static str,
    },
    /// The two stones of a turn are the same point.
    #[error("both stones of the turn are on {point}: a turn is two different points")]
    SamePoint {
        /// The point.
        point: Point,
    },
    /// The game is already over.
    #[error("the game is over ({reason}): no more stones")]
    GameOver {
        /// How it ended.
        reason: EndReason,
    },
    /// A turn with the wrong number of stones.
    #[error("{side} must place {expected} stone(s) this turn, got {found}")]
    WrongStoneCount {
        /// "Black" or "White".
        side: &'static str,
        /// Stones the side to move places now (1 on Black's first turn or mid-turn, else 2).
        expected: usize,
        /// Stones given.
        found: usize,
    },
}

/// A position that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Board size outside `MIN_SIZE..=MAX_SIZE`.
    #[error("board size {0} is not supported: expected 7..=25")]
    BadSize(usize),
    /// A point outside the board.
    #[error("point ({x}, {y}) is off the {size}x{size} board")]
    OffBoard {
        /// Column (0-based).
        x: u8,
        /// Row (0-based).
        y: u8,
        /// Board size.
        size: usize,
    },
    /// The same point listed twice (in one set or in both).
    #[error("{0} is listed twice")]
    Duplicate(Point),
    /// Both sides have six in a row: no game reaches that.
    #[error("both Black and White have six in a row")]
    TwoWinners,
    /// `stones_left` must be 1 or 2.
    #[error("stones left in the turn must be 1 or 2, got {0}")]
    BadStonesLeft(u8),
    /// A move list that does not replay.
    #[error("move {index} of the list: {error}")]
    Move {
        /// 1-based index of the stone in the list.
        index: usize,
        /// What was wrong.
        error: MoveError,
    },
}

const CELL_KEYS: usize = 2 * MAX_SIZE * MAX_SIZE;
/// Zobrist keys: 2 per cell (black, white) then 4 turn states (side x stones left).
static ZOBRIST: [u64; CELL_KEYS + 4] = SplitMix64::new(0xC0_77EC_7600_0006).table();

const NO_POS: u16 = u16::MAX;

/// Per side, a set of window indices with constant-time insert and remove (a list, and each
/// window's place in it), in no particular order.
#[derive(Clone)]
pub(crate) struct WindowSets {
    /// Per side: the windows in the set.
    list: [Vec<u16>; 2],
    /// Per window and side: its index in `list[side]`, or `NO_POS`.
    place: Vec<[u16; 2]>,
}

impl WindowSets {
    /// Empty sets for a board of `windows` windows.
    fn new(windows: usize) -> Self {
        WindowSets {
            list: [Vec::with_capacity(windows), Vec::with_capacity(windows)],
            place: vec![[NO_POS; 2]; windows],
        }
    }

    /// Side `s`'s windows.
    #[inline]
    pub(crate) fn of(&self, s: usize) -> &[u16] {
        &self.list[s]
    }

    /// Adds window `w` (not in the set) to side `s`'s set.
    #[inline]
    fn insert(&mut self, s: usize, w: usize) {
        self.place[w][s] = self.list[s].len() as u16;
        self.list[s].push(w as u16);
    }

    /// Takes window `w` (in the set) out of side `s`'s set.
    #[inline]
    fn remove(&mut self, s: usize, w: usize) {
        let i = self.place[w][s] as usize;
        let last = self.list[s].pop().expect("window in the set");
        if last as usize != w {
            self.list[s][i] = last;
            self.place[last as usize][s] = i as u16;
        }
        self.place[w][s] = NO_POS;
    }
}

/// A connect6 position on a square board of `MIN_SIZE..=MAX_SIZE` (default 19).
///
/// Black places one stone first, then each side places two stones per turn; six or more in a
/// row wins; a full board is a draw (Wu & Huang 2005). Each stone is one
/// [`game_core::Position`] ply ([`Stone`]); the side to move and the stones it still places in
/// this turn (1 or 2) are part of the position and of its Zobrist key. Kept incrementally on
/// every stone: the black/white counts of every 6-window, each side's threat windows (4 or 5
/// own stones, none of the opponent's), and each side's window score sum.
#[derive(Clone)]
pub struct Connect6 {
    pub(crate) geo: &'static Geometry,
    pub(crate) size: usize,
    /// 0 empty, 1 black, 2 white.
    pub(crate) cells: Vec<u8>,
    /// Per window: [black count, white count].
    pub(crate) wcnt: Vec<[u8; 2]>,
    /// Per window: `7 * black + white`, an index into per-window value tables.
    pub(crate) wcode: Vec<u8>,
    /// Per cell: [`Connect6::stone_score`] of both sides, the sums of
    /// `STONE_VALUE[side][wcode]` over the windows through the cell, packed as
    /// [`PACKED_VALUE`] is (one addition updates both), kept up to date as window codes change.
    pub(crate) cell_score: Vec<i64>,
    /// Per side: the windows that are threats (>= 4 own stones, no opposing stone).
    pub(crate) threats: WindowSets,
    /// Per side: the live windows (>= 2 own stones, no opposing stone), the only ones from
    /// which a turn can make a threat.
    pub(crate) live: WindowSets,
    /// Per side and stone count `n` (1..=5): the windows holding `n` of that side's stones and
    /// none of the other's (indices 0 and 6 stay 0: empty windows and sixes are not counted).
    pub(crate) counts: [[i32; WIN + 1]; 2],
    /// Per side: windows holding six of its stones.
    sixes: [u16; 2],
    /// Per cell: stones within Chebyshev distance [`NEAR`](crate::geometry::NEAR) (the
    /// search's candidate zone).
    pub(crate) near: Vec<u8>,
    /// The empty cells with `near > 0` (the search's candidates), in no particular order.
    pub(crate) cand: Vec<u16>,
    /// Per cell: its index in `cand`, or `NO_POS`.
    cand_pos: Vec<u16>,
    pub(crate) side: Side,
    pub(crate) left: u8,
    pub(crate) stones: usize,
    key: u64,
    /// Stones played since the setup, in order.
    history: Vec<Stone>,
    /// The turn state before the first played stone.
    initial: (Side, u8),
    /// Setup stones (black, white) the game started from, empty from the start position.
    setup: (Vec<Point>, Vec<Point>),
}

impl fmt::Debug for Connect6 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Connect6 {{ size: {}, to_move: {:?}, left: {} }}\n{}",
            self.size, self.side, self.left, self
        )
    }
}

impl PartialEq for Connect6 {
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && self.cells == other.cells
            && self.side == other.side
            && self.left == other.left
    }
}
impl Eq for Connect6 {}

#[inline]
fn state_key(side: Side, left: u8) -> u64 {
    ZOBRIST[CELL_KEYS + side.index() * 2 + (left as usize - 1)]
}

impl Connect6 {
    /// The empty `size` x `size` board, Black to place its single first stone.
    ///
    /// # Errors
    /// [`SetupError::BadSize`] unless `7 <= size <= 25`.
    pub fn new(size: usize) -> Result<Self, SetupError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(SetupError::BadSize(size));
        }
        let geo = Geometry::get(size);
        let cells = size * size;
        let mut pos = Connect6 {
            geo,
            size,
            cells: vec![0; cells],
            wcnt: vec![[0, 0]; geo.windows.len()],
            wcode: vec![0; geo.windows.len()],
            cell_score: (0..cells)
                .map(|c| {
                    let n = geo.windows_of(c).len() as i64;
                    n * PACKED_VALUE[0]
                })
                .collect(),
            threats: WindowSets::new(geo.windows.len()),
            live: WindowSets::new(geo.windows.len()),
            counts: [[0; WIN + 1]; 2],
            sixes: [0, 0],
            near: vec![0; cells],
            cand: Vec::with_capacity(cells),
            cand_pos: vec![NO_POS; cells],
            side: Side::First,
            left: 1,
            stones: 0,
            key: 0,
            history: Vec::with_capacity(cells),
            initial: (Side::First, 1),
            setup: (Vec::new(), Vec::new()),
        };
        pos.key = state_key(Side::First, 1);
        Ok(pos)
    }

    /// The standard empty 19x19 board.
    #[must_use]
    pub fn standard() -> Self {
        Self::new(DEFAULT_SIZE).expect("19 is a valid size")
    }

    /// Replays a LittleGolem move list from the empty `size` board: `j10 j9l11 k9l8`, also
    /// `1.j10 2.j9l11`, `j9 l11` or `j9,l11`. The turn structure is implied (1 stone, then 2
    /// per turn), so the points are simply played in order.
    ///
    /// # Errors
    /// [`SetupError::BadSize`], or [`SetupError::Move`] with the 1-based stone number and the
    /// [`MoveError`] (unreadable text, occupied point, a stone after the game ended).
    pub fn from_moves(size: usize, moves: &str) -> Result<Self, SetupError> {
        let mut pos = Self::new(size)?;
        if moves.trim().is_empty() {
            return Ok(pos);
        }
        let points = parse_littlegolem(moves, size).map_err(|e| SetupError::Move {
            index: 1,
            error: e.into(),
        })?;
        for (i, p) in points.into_iter().enumerate() {
            pos.play_point(p).map_err(|error| SetupError::Move {
                index: i + 1,
                error,
            })?;
        }
        Ok(pos)
    }

    /// A position from stone sets with `to_move` about to start a full turn (2 stones; 1 if the
    /// board is empty and Black is to move). Positions in the reference files give the side to
    /// move from the counts, see [`Connect6::side_from_counts`].
    ///
    /// # Errors
    /// [`SetupError`]: bad size, a point off the board or listed twice, both sides with six.
    pub fn from_stones(
        size: usize,
        black: &[Point],
        white: &[Point],
        to_move: Side,
    ) -> Result<Self, SetupError> {
        let left = if black.is_empty() && white.is_empty() && to_move == Side::First {
            1
        } else {
            2
        };
        Self::from_stones_in_turn(size, black, white, to_move, left)
    }

    /// Like [`Connect6::from_stones`] with the number of stones (1 or 2) `to_move` still
    /// places in the current turn.
    ///
    /// # Errors
    /// As [`Connect6::from_stones`], and [`SetupError::BadStonesLeft`].
    pub fn from_stones_in_turn(
        size: usize,
        black: &[Point],
        white: &[Point],
        to_move: Side,
        stones_left: u8,
    ) -> Result<Self, SetupError> {
        let mut pos = Self::new(size)?;
        if !(1..=2).contains(&stones_left) {
            return Err(SetupError::BadStonesLeft(stones_left));
        }
        for (set, colour) in [(black, 0u8), (white, 1u8)] {
            for &p in set {
                let cell = pos.cell_index(p).ok_or(SetupError::OffBoard {
                    x: p.x,
                    y: p.y,
                    size,
                })?;
                if pos.cells[cell] != 0 {
                    return Err(SetupError::Duplicate(p));
                }
                pos.place(cell, colour);
            }
        }
        if pos.sixes[0] > 0 && pos.sixes[1] > 0 {
            return Err(SetupError::TwoWinners);
        }
        pos.key ^= state_key(pos.side, pos.left) ^ state_key(to_move, stones_left);
        pos.side = to_move;
        pos.left = stones_left;
        pos.initial = (to_move, stones_left);
        pos.setup = (black.to_vec(), white.to_vec());
        Ok(pos)
    }

    /// The side to move at the start of a turn, from the stone counts of a game played from
    /// the empty board, where Black's count is odd at every turn's start (one stone, then two
    /// a turn): Black when both are empty or White has one stone more, White when Black has one
    /// stone more; `None` for any other counts (2 black and 3 white stones, say: no game
    /// reaches them at a turn's start).
    #[must_use]
    pub fn side_from_counts(black: usize, white: usize) -> Option<Side> {
        if black == 0 && white == 0 {
            Some(Side::First)
        } else if black % 2 == 0 {
            None
        } else if black == white + 1 {
            Some(Side::Second)
        } else if white == black + 1 {
            Some(Side::First)
        } else {
            None
        }
    }

    /// Board side length.
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The side placing the next stone.
    #[must_use]
    pub fn to_move(&self) -> Side {
        self.side
    }

    /// Stones the side to move still places in this turn: 1 on Black's first turn and after
    /// the first stone of a turn, else 2.
    #[must_use]
    pub fn stones_left(&self) -> u8 {
        self.left
    }

    /// Stones the side to move must place to complete this turn:
    /// [`stones_left`](Connect6::stones_left), or fewer when fewer points are empty (the last
    /// turn on a board with an odd number of empty points is one stone).
    #[must_use]
    pub fn stones_this_turn(&self) -> usize {
        (self.left as usize).min(self.cells.len() - self.stones)
    }

    /// Stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// What is on `point`; `None` off the board.
    #[must_use]
    pub fn cell(&self, point: Point) -> Option<Cell> {
        self.cell_index(point).map(|i| self.cell_at(i))
    }

    pub(crate) fn cell_at(&self, index: usize) -> Cell {
        match self.cells[index] {
            0 => Cell::Empty,
            1 => Cell::Black,
            _ => Cell::White,
        }
    }

    /// The cell index of `point`, `None` off the board.
    #[must_use]
    pub fn cell_index(&self, point: Point) -> Option<usize> {
        ((point.x as usize) < self.size && (point.y as usize) < self.size)
            .then(|| point.y as usize * self.size + point.x as usize)
    }

    /// The stone at `point` if it is on the board (no emptiness check).
    #[must_use]
    pub fn stone_at(&self, point: Point) -> Option<Stone> {
        self.cell_index(point).map(Stone::from_index)
    }

    /// The stones played since the start or the setup, in order.
    #[must_use]
    pub fn history(&self) -> &[Stone] {
        &self.history
    }

    /// The played stones grouped into turns, as points (the first turn from the empty board
    /// has one stone; a turn still in progress comes last and may be short).
    #[must_use]
    pub fn turns(&self) -> Vec<(Side, Vec<Point>)> {
        let mut out: Vec<(Side, Vec<Point>)> = Vec::new();
        let (mut side, mut left) = self.initial;
        let mut current = Vec::new();
        for &s in &self.history {
            current.push(s.point(self.size));
            left -= 1;
            if left == 0 {
                out.push((side, std::mem::take(&mut current)));
                side = side.opponent();
                left = 2;
            }
        }
        if !current.is_empty() {
            out.push((side, current));
        }
        out
    }

    /// The game's turns in LittleGolem form, space separated: `j10 j9l11 k9l8`.
    #[must_use]
    pub fn moves_littlegolem(&self) -> String {
        self.turns()
            .iter()
            .map(|(_, t)| format_littlegolem(t))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The setup stones (black, white) this position started from; empty from the start position.
    #[must_use]
    pub fn setup_stones(&self) -> (&[Point], &[Point]) {
        (&self.setup.0, &self.setup.1)
    }

    /// The turn state (side to move, stones left) before the first played stone.
    #[must_use]
    pub fn initial_state(&self) -> (Side, u8) {
        self.initial
    }

    /// How the game ended, or `None` while it goes on: a six for the side that made it, or a
    /// full board (draw).
    #[must_use]
    pub fn game_end(&self) -> Option<(Outcome, EndReason)> {
        if self.sixes[0] > 0 {
            Some((Outcome::Win(Side::First), EndReason::Six))
        } else if self.sixes[1] > 0 {
            Some((Outcome::Win(Side::Second), EndReason::Six))
        } else if self.stones == self.cells.len() {
            Some((Outcome::Draw, EndReason::BoardFull))
        } else {
            None
        }
    }

    /// Places one stone of the side to move at `point` (checked), advancing the turn state.
    /// A stone is refused once the game is over, except the second stone of the turn in which
    /// the side to move made its six.
    ///
    /// # Errors
    /// [`MoveError::OffBoard`], [`MoveError::Occupied`], [`MoveError::GameOver`].
    pub fn play_point(&mut self, point: Point) -> Result<Stone, MoveError> {
        let stone = self.check_point(point)?;
        game_core::Position::play(self, stone);
        Ok(stone)
    }

    fn check_point(&self, point: Point) -> Result<Stone, MoveError> {
        if let Some((outcome, reason)) = self.game_end() {
            let finishing =
                self.left == 1 && outcome == Outcome::Win(self.side) && !self.history.is_empty();
            if !finishing {
                return Err(MoveError::GameOver { reason });
            }
        }
        let cell = self.cell_index(point).ok_or(MoveError::OffBoard {
            x: point.x,
            y: point.y,
            size: self.size,
        })?;
        match self.cells[cell] {
            0 => Ok(Stone::from_index(cell)),
            c => Err(MoveError::Occupied {
                point,
                by: if c == 1 { "Black" } else { "White" },
            }),
        }
    }

    /// Checks a whole turn for the side to move without playing it: exactly
    /// [`stones_this_turn`](Connect6::stones_this_turn) different empty points.
    ///
    /// # Errors
    /// [`MoveError::WrongStoneCount`], [`MoveError::SamePoint`], and those of
    /// [`Connect6::play_point`].
    pub fn check_turn(&self, points: &[Point]) -> Result<(), MoveError> {
        let expected = self.stones_this_turn();
        if points.len() != expected {
            return Err(MoveError::WrongStoneCount {
                side: side_name(self.side),
                expected,
                found: points.len(),
            });
        }
        if points.len() == 2 && points[0] == points[1] {
            return Err(MoveError::SamePoint { point: points[0] });
        }
        if let Some((_, reason)) = self.game_end() {
            return Err(MoveError::GameOver { reason });
        }
        for &p in points {
            self.check_point(p)?;
        }
        Ok(())
    }

    /// Plays a whole turn (checked, all or nothing): see [`Connect6::check_turn`].
    ///
    /// # Errors
    /// As [`Connect6::check_turn`]; the position is unchanged on error.
    pub fn play_turn(&mut self, points: &[Point]) -> Result<(), MoveError> {
        self.check_turn(points)?;
        for &p in points {
            let stone = Stone::from_index(self.cell_index(p).expect("checked"));
            game_core::Position::play(self, stone);
        }
        Ok(())
    }

    /// Parses a turn in LittleGolem (`j9l11`, `j9 l11`, `j9,l11`) or ConnectMore (`JKKJ`)
    /// form and checks it like [`Connect6::check_turn`].
    ///
    /// # Errors
    /// [`MoveError::Notation`] for unreadable text, else as [`Connect6::check_turn`].
    pub fn parse_turn(&self, text: &str) -> Result<Vec<Point>, MoveError> {
        let points = match parse_littlegolem(text, self.size) {
            Ok(p) => p,
            Err(e) => {
                let t = text.trim();
                if t.len() % 2 == 0 && t.bytes().all(|b| b.is_ascii_alphabetic()) {
                    parse_connectmore(t, self.size)?
                } else {
                    return Err(e.into());
                }
            }
        };
        self.check_turn(&points)?;
        Ok(points)
    }

    /// Moves the codes of the windows through `cell` by `step` (a stone of one colour placed
    /// or taken there) and carries the change of their stone values to the cells they cover,
    /// so that [`Connect6::stone_score`] is a lookup. Per direction the six windows' changes
    /// slide along the line's eleven cells as a running sum: 11 additions instead of 36.
    #[inline]
    fn rescore_lines(&mut self, cell: usize, step: i32) {
        for line in &self.geo.lines[cell] {
            let mut delta = [0i64; WIN];
            let mut changed = false;
            for (d, &w) in delta.iter_mut().zip(&line.windows) {
                if w != OFF {
                    let w = w as usize;
                    let old = self.wcode[w];
                    let new = (i32::from(old) + step) as u8;
                    self.wcode[w] = new;
                    *d = PACKED_VALUE[new as usize] - PACKED_VALUE[old as usize];
                    changed |= *d != 0;
                }
            }
            if !changed {
                continue;
            }
            // `cells[i]` lies in the windows `k` with `i - 5 <= k <= i`.
            let mut sum = 0i64;
            for (i, &c) in line.cells.iter().enumerate() {
                if i < WIN {
                    sum += delta[i];
                }
                if i >= WIN {
                    sum -= delta[i - WIN];
                }
                if sum != 0 {
                    self.cell_score[c as usize] += sum;
                }
            }
        }
    }

    /// Places a stone of `colour` (0 black, 1 white) on empty `cell`, updating windows,
    /// threats, window counts, neighbourhood and the stone part of the key (not the turn state).
    #[inline]
    pub(crate) fn place(&mut self, cell: usize, colour: u8) {
        self.place_with::<true>(cell, colour);
    }

    /// [`Connect6::place`]; with `FULL` false only the stones, window counts, live and
    /// threat windows, sixes and key are updated, not the window codes, stone values
    /// ([`Connect6::stone_score`]) or the search's candidate points: see
    /// [`Connect6::play_bare`].
    #[inline]
    fn place_with<const FULL: bool>(&mut self, cell: usize, colour: u8) {
        let s = colour as usize;
        let o = 1 - s;
        if FULL && self.cand_pos[cell] != NO_POS {
            self.cand_remove(cell);
        }
        self.cells[cell] = colour + 1;
        self.key ^= ZOBRIST[cell * 2 + s];
        self.stones += 1;
        let code_step = if s == 0 { 7 } else { 1 };
        let geo = self.geo;
        for &w in geo.windows_of(cell) {
            let w = w as usize;
            let cnt = self.wcnt[w];
            let a = cnt[s] as usize;
            let b = cnt[o] as usize;
            self.wcnt[w][s] += 1;
            if b == 0 {
                self.counts[s][a] -= i32::from(a > 0);
                self.counts[s][a + 1] += i32::from(a + 1 < WIN);
                if a + 1 == 2 {
                    self.live.insert(s, w);
                } else if a + 1 == 4 {
                    self.threats.insert(s, w);
                } else if a + 1 == WIN {
                    self.sixes[s] += 1;
                }
            }
            if a == 0 && b > 0 {
                self.counts[o][b] -= i32::from(b < WIN);
                if b >= 2 {
                    self.live.remove(o, w);
                }
                if b >= 4 {
                    self.threats.remove(o, w);
                }
            }
        }
        if FULL {
            self.rescore_lines(cell, code_step);
            self.bump_near(cell, 1);
        }
    }

    /// Takes `colour`'s stone off `cell`: the inverse of [`Connect6::place`].
    #[inline]
    pub(crate) fn remove(&mut self, cell: usize, colour: u8) {
        self.remove_with::<true>(cell, colour);
    }

    /// The inverse of [`Connect6::place_with`] with the same `FULL`.
    #[inline]
    fn remove_with<const FULL: bool>(&mut self, cell: usize, colour: u8) {
        let s = colour as usize;
        let o = 1 - s;
        self.key ^= ZOBRIST[cell * 2 + s];
        self.stones -= 1;
        let code_step = if s == 0 { 7 } else { 1 };
        let geo = self.geo;
        for &w in geo.windows_of(cell) {
            let w = w as usize;
            let cnt = self.wcnt[w];
            let a = cnt[s] as usize;
            let b = cnt[o] as usize;
            self.wcnt[w][s] -= 1;
            if b == 0 {
                self.counts[s][a] -= i32::from(a < WIN);
                self.counts[s][a - 1] += i32::from(a > 1);
                if a == 2 {
                    self.live.remove(s, w);
                } else if a == 4 {
                    self.threats.remove(s, w);
                } else if a == WIN {
                    self.sixes[s] -= 1;
                }
            }
            if a == 1 && b > 0 {
                self.counts[o][b] += i32::from(b < WIN);
                if b >= 2 {
                    self.live.insert(o, w);
                }
                if b >= 4 {
                    self.threats.insert(o, w);
                }
            }
        }
        if FULL {
            self.rescore_lines(cell, -code_step);
            self.bump_near(cell, -1);
        }
        self.cells[cell] = 0;
        if FULL && self.near[cell] > 0 {
            self.cand_insert(cell);
        }
    }

    /// Plays `stone` for the side to move for the threat-space search: stones, window
    /// counts, live and threat windows, sixes, key and turn state, but not the evaluation's
    /// window codes and stone values, the candidate points or the move history, which stay
    /// as they were until [`Connect6::undo_bare`] takes the stone back. Between the two, only
    /// what the threat search reads is valid (no `stone_score`, `push_beam`, search moves or
    /// evaluation). About a third of a threat-search node's time went to the full update.
    #[inline]
    pub(crate) fn play_bare(&mut self, stone: Stone) {
        let colour = self.side.index() as u8;
        self.place_with::<false>(stone.index(), colour);
        self.advance();
    }

    /// Takes back a stone of [`Connect6::play_bare`] (the last one played).
    #[inline]
    pub(crate) fn undo_bare(&mut self, stone: Stone) {
        self.retreat();
        let colour = self.side.index() as u8;
        self.remove_with::<false>(stone.index(), colour);
    }

    /// Moves the stone count of every point near `cell` by `delta` (+1 for a stone placed,
    /// -1 taken), adding empty points to the candidates when their count leaves 0 and
    /// dropping them when it returns there.
    #[inline]
    fn bump_near(&mut self, cell: usize, delta: i8) {
        let geo = self.geo;
        for &c in geo.neighbours_of(cell) {
            let c = c as usize;
            let before = self.near[c];
            let after = before.wrapping_add_signed(delta);
            self.near[c] = after;
            if self.cells[c] == 0 {
                if before == 0 {
                    self.cand_insert(c);
                } else if after == 0 {
                    self.cand_remove(c);
                }
            }
        }
    }

    #[inline]
    fn cand_insert(&mut self, c: usize) {
        self.cand_pos[c] = self.cand.len() as u16;
        self.cand.push(c as u16);
    }

    #[inline]
    fn cand_remove(&mut self, c: usize) {
        let i = self.cand_pos[c] as usize;
        let last = self.cand.pop().expect("candidate present");
        if last as usize != c {
            self.cand[i] = last;
            self.cand_pos[last as usize] = i as u16;
        }
        self.cand_pos[c] = NO_POS;
    }

    /// Advances the turn state after one stone.
    #[inline]
    pub(crate) fn advance(&mut self) {
        let old = state_key(self.side, self.left);
        self.left -= 1;
        if self.left == 0 {
            self.side = self.side.opponent();
            self.left = 2;
        }
        self.key ^= old ^ state_key(self.side, self.left);
    }

    /// Takes the turn state back by one stone (the inverse of [`Connect6::advance`]).
    #[inline]
    pub(crate) fn retreat(&mut self) {
        let old = state_key(self.side, self.left);
        if self.left == 2 {
            self.side = self.side.opponent();
            self.left = 1;
        } else {
            self.left = 2;
        }
        self.key ^= old ^ state_key(self.side, self.left);
    }

    /// Hands the move to the opponent at the start of a full turn (a null turn for the
    /// defensive threat search); returns the state to give back to [`Connect6::set_turn_state`].
    pub(crate) fn pass_turn(&mut self) -> (Side, u8) {
        let old = (self.side, self.left);
        self.set_turn_state((self.side.opponent(), 2));
        old
    }

    /// Sets the side to move and the stones it has left, updating the key.
    pub(crate) fn set_turn_state(&mut self, (side, left): (Side, u8)) {
        self.key ^= state_key(self.side, self.left) ^ state_key(side, left);
        self.side = side;
        self.left = left;
    }

    pub(crate) fn push_history(&mut self, stone: Stone) {
        self.history.push(stone);
    }

    pub(crate) fn pop_history(&mut self) {
        self.history.pop();
    }

    pub(crate) fn raw_key(&self) -> u64 {
        self.key
    }

    /// The number of threats `side` has (Wu & Huang): how many stones the opponent needs to
    /// stop every six `side` could make on its next turn, capped at 3 (3 means 3 or more: two
    /// stones cannot defend). Exact minimum over the threat windows (windows with 4 or 5 of
    /// `side`'s stones and none of the opponent's); a window holding six counts as 3.
    #[must_use]
    pub fn threat_count(&self, side: Side) -> u8 {
        let mut blocked = [u16::MAX; 3];
        self.hitting(side.index(), &mut blocked, 0, 3)
    }

    /// The smallest number of blocking points (capped at `cap`) that hit every threat window
    /// of side `s` not already hit by `blocked[..nb]`.
    pub(crate) fn hitting(&self, s: usize, blocked: &mut [u16; 3], nb: usize, cap: u8) -> u8 {
        self.hitting_windows(self.threats.of(s), &[], blocked, nb, cap)
    }

    /// The smallest number of empty points (not among `added`, which count as occupied;
    /// capped at `cap`) that hit every window of `windows` not already hit by
    /// `blocked[..nb]`: the number of stones needed to block all those threats.
    pub(crate) fn hitting_windows(
        &self,
        windows: &[u16],
        added: &[usize],
        blocked: &mut [u16; 3],
        nb: usize,
        cap: u8,
    ) -> u8 {
        for &w in windows {
            let cells = &self.geo.windows[w as usize];
            if cells.iter().any(|c| blocked[..nb].contains(c)) {
                continue;
            }
            if nb as u8 >= cap {
                return cap;
            }
            let mut best = cap;
            for &c in cells {
                if self.cells[c as usize] == 0 && !added.contains(&(c as usize)) {
                    blocked[nb] = c;
                    best = best.min(self.hitting_windows(windows, added, blocked, nb + 1, cap));
                    if best as usize == nb + 1 {
                        break;
                    }
                }
            }
            return best;
        }
        nb as u8
    }

    /// The number of live windows of `side`: windows holding 2 or more of its stones (a six
    /// included) and none of the other side's (kept incrementally for the threat search; for
    /// tests).
    #[doc(hidden)]
    #[must_use]
    pub fn live_window_count(&self, side: Side) -> usize {
        self.live.of(side.index()).len()
    }

    /// The threat windows of `side` (indices into the geometry), for diagnostics and search.
    pub(crate) fn threat_windows(&self, s: usize) -> &[u16] {
        self.threats.of(s)
    }

    /// The Zobrist key computed from scratch (stones and turn state), for checking the
    /// incremental [`game_core::Position::key`].
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = state_key(self.side, self.left);
        for (c, &v) in self.cells.iter().enumerate() {
            if v != 0 {
                key ^= ZOBRIST[c * 2 + (v as usize - 1)];
            }
        }
        key
    }

    /// The windows of `side` by stone count: entry `n` (1..=5) is the number of 6-windows
    /// holding `n` of `side`'s stones and none of the other side's; entries 0 (empty windows)
    /// and 6 (sixes) are 0. Kept incrementally on every stone.
    #[must_use]
    pub fn window_counts(&self, side: Side) -> [i32; WIN + 1] {
        self.counts[side.index()]
    }
}

/// A plain text board: row numbers down the left from the top row (`size`) to 1, column
/// letters along the bottom, `X` black, `O` white, `.` empty; then the side to move.
impl fmt::Display for Connect6 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in (0..self.size).rev() {
            write!(f, "{:>2}", y + 1)?;
            for x in 0..self.size {
                let c = match self.cells[y * self.size + x] {
                    0 => '.',
                    1 => 'X',
                    _ => 'O',
                };
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        write!(f, "  ")?;
        for x in 0..self.size {
            write!(f, " {}", (b'a' + x as u8) as char)?;
        }
        writeln!(f)?;
        match self.game_end() {
            Some((Outcome::Win(s), r)) => write!(f, "{} wins ({r})", side_name(s)),
            Some((Outcome::Draw, r)) => write!(f, "draw ({r})"),
            None => write!(
                f,
                "{} to move, {} stone(s) to place",
                side_name(self.side),
                self.left
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Position;

    /// Everything [`Connect6::play_bare`] keeps up to date, with the window sets sorted.
    fn bare_state(p: &Connect6) -> impl PartialEq + std::fmt::Debug + use<> {
        let sorted = |v: &[u16]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        (
            p.cells.clone(),
            p.wcnt.clone(),
            [sorted(p.live.of(0)), sorted(p.live.of(1))],
            [sorted(p.threats.of(0)), sorted(p.threats.of(1))],
            p.counts,
            p.sixes,
            p.stones,
            p.key,
            (p.side, p.left),
            p.game_end(),
        )
    }

    /// Everything, for checking that a bare stone taken back leaves no trace.
    fn full_state(p: &Connect6) -> impl PartialEq + std::fmt::Debug + use<> {
        let mut cand = p.cand.clone();
        cand.sort_unstable();
        (
            bare_state(p),
            p.wcode.clone(),
            p.cell_score.clone(),
            p.near.clone(),
            cand,
            p.history.clone(),
        )
    }

    #[test]
    fn bare_stones_update_what_the_threat_search_reads_and_undo_exactly() {
        let mut next = crate::test_rng(0x9E37_79B9_7F4A_7C15_u64);
        let mut threats = 0;
        for game in 0..40 {
            let mut pos = Connect6::standard();
            // Random cells of the central 9 x 9 square, so that windows fill up to threats.
            let mut central = || (5 + next(9)) * 19 + 5 + next(9);
            // Random stones, then a few bare stones on top, taken back.
            for _ in 0..10 + game / 2 {
                let c = (0..)
                    .map(|_| central())
                    .find(|&c| pos.cells[c] == 0)
                    .unwrap();
                pos.play(Stone::from_index(c));
                if pos.game_end().is_some() {
                    break;
                }
            }
            let before = full_state(&pos);
            let mut bare = pos.clone();
            let mut full = pos.clone();
            let mut played = Vec::new();
            for _ in 0..6 {
                let c = (0..)
                    .map(|_| central())
                    .find(|&c| bare.cells[c] == 0)
                    .unwrap();
                bare.play_bare(Stone::from_index(c));
                full.play(Stone::from_index(c));
                played.push(c);
                assert_eq!(bare_state(&bare), bare_state(&full), "game {game}");
                threats += bare.threats.of(0).len() + bare.threats.of(1).len();
            }
            for &c in played.iter().rev() {
                bare.undo_bare(Stone::from_index(c));
            }
            assert_eq!(full_state(&bare), before, "game {game}");
        }
        assert!(
            threats > 100,
            "the positions have threat windows: {threats}"
        );
    }
}
