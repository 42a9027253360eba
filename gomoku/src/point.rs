//! Points (moves), coordinates and rules.

use std::fmt;
use std::str::FromStr;

use crate::error::GomokuError;

/// Padding of the internal board array on every side (the line patterns read five cells each way).
pub(crate) const PAD: usize = 5;
/// Row stride of the internal board array: the largest board (26) plus padding on both sides.
pub(crate) const STRIDE: usize = 26 + 2 * PAD;
/// Number of cells of the internal board array.
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// The four line directions as index steps: horizontal, vertical, diagonal, anti-diagonal.
pub(crate) const DIRS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// Smallest supported board size.
pub const MIN_SIZE: usize = 5;
/// Largest supported board size.
pub const MAX_SIZE: usize = 26;
/// Default board size (15x15).
pub const DEFAULT_SIZE: usize = 15;

/// A point of the board, which is also a gomoku move: a compact `Copy` value.
///
/// Coordinates are Gomocup's: `x` the column from 0 at the left, `y` the row from 0 at the
/// **top**, both `0..26`. The same point is `h8` in human notation on a 15x15 board (column
/// letter from `a`, `i` not skipped; row from 1 at the bottom), see
/// [`Board::format_point`](crate::Board::format_point). Whether the point is on a given board
/// depends on the board's size. The [`code`](game_core::Move::code) is an index unique over all
/// board sizes.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The point at column `x` and row `y` (0-based, `y = 0` at the top).
    ///
    /// # Panics
    /// If `x` or `y` is 26 or more (no board is that large); use [`Point::try_new`] for input.
    #[must_use]
    pub const fn new(x: usize, y: usize) -> Point {
        assert!(x < MAX_SIZE && y < MAX_SIZE, "point outside every board");
        Point(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    /// The point at `(x, y)` if both are below [`MAX_SIZE`].
    #[must_use]
    pub const fn try_new(x: usize, y: usize) -> Option<Point> {
        if x < MAX_SIZE && y < MAX_SIZE {
            Some(Point::new(x, y))
        } else {
            None
        }
    }

    /// Column, 0 at the left.
    #[inline]
    #[must_use]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    /// Row, 0 at the top.
    #[inline]
    #[must_use]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    /// Index into the internal padded board array.
    #[inline]
    pub(crate) const fn idx(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.x(), self.y())
    }
}

impl game_core::Move for Point {
    #[inline]
    fn code(self) -> u32 {
        self.0 as u32
    }
}

/// The rule set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins, for both sides (Gomocup freestyle).
    #[default]
    Freestyle,
    /// Exactly five wins; six or more wins for nobody (both sides).
    Standard,
    /// RIF renju: Black's double-three, double-four and overline are forbidden (a forbidden move
    /// loses); Black wins with exactly five, White with five or more.
    Renju,
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        })
    }
}

impl FromStr for Rule {
    type Err = GomokuError;

    /// Reads `freestyle` (or `free`, `gomoku`), `standard` (or `exact`), `renju`, case-insensitive.
    fn from_str(s: &str) -> Result<Rule, GomokuError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "freestyle" | "free" | "gomoku" => Ok(Rule::Freestyle),
            "standard" | "exact" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            _ => Err(GomokuError::BadRule(s.to_string())),
        }
    }
}

/// Parses one human coordinate (`h8`, `a15`) at the start of `text` for a board of `size`.
/// Returns the point and the number of bytes read.
pub(crate) fn parse_coord_prefix(text: &str, size: usize) -> Result<(Point, usize), GomokuError> {
    let b = text.as_bytes();
    // A message quotes the whole bad token (up to a space or comma), not just its start.
    let word = text.split([' ', ',', '\t']).next().unwrap_or(text);
    let bad = || GomokuError::BadCoordinate {
        text: word.to_string(),
        size,
    };
    if b.is_empty() || !b[0].is_ascii_alphabetic() {
        return Err(bad());
    }
    let col = (b[0].to_ascii_lowercase() - b'a') as usize;
    let mut n = 1;
    while n < b.len() && b[n].is_ascii_digit() {
        n += 1;
    }
    if n == 1 || n > 3 {
        return Err(bad());
    }
    let row: usize = text[1..n].parse().map_err(|_| bad())?;
    if col >= size || row == 0 || row > size {
        return Err(GomokuError::OffBoard {
            text: text[..n].to_string(),
            size,
        });
    }
    Ok((Point::new(col, size - row), n))
}

/// Parses Gomocup coordinates `x,y` (0-based, `0,0` top-left) on a board of `size`.
///
/// # Errors
/// [`GomokuError::BadGomocupCoordinate`] for unreadable text, [`GomokuError::OffBoard`] outside
/// the board.
pub fn parse_gomocup(text: &str, size: usize) -> Result<Point, GomokuError> {
    let t = text.trim();
    let bad = || GomokuError::BadGomocupCoordinate {
        text: t.to_string(),
        size,
    };
    let (a, b) = t.split_once(',').ok_or_else(bad)?;
    let x: i64 = a.trim().parse().map_err(|_| bad())?;
    let y: i64 = b.trim().parse().map_err(|_| bad())?;
    if x < 0 || y < 0 || x >= size as i64 || y >= size as i64 {
        return Err(GomokuError::OffBoard {
            text: t.to_string(),
            size,
        });
    }
    Ok(Point::new(x as usize, y as usize))
}
