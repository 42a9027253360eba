//! Points and their notations.
//!
//! - LittleGolem: a column letter `a..` (no letter skipped: `a..s` on 19x19, up to `y` on
//!   25x25) then a row number `1..=size` counted from the bottom; `j10` is the centre of 19x19.
//!   A turn is its points written together (`j9l11`), or separated by a space or a comma.
//! - ConnectMore (the GUI protocol of Cloudict): two capital letters per stone, column then row,
//!   row `A` at the bottom; `JJ` is the centre of 19x19 and a turn is four letters (`JKKJ`).

use std::fmt;

use thiserror::Error;

/// A point of the board: `x` is the column counted from the left (0-based), `y` the row
/// counted from the bottom (0-based). `Point { x: 9, y: 9 }` is `j10` / `JJ`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0-based from the left (`a` / `A` = 0).
    pub x: u8,
    /// Row, 0-based from the bottom (`1` / `A` = 0).
    pub y: u8,
}

impl Point {
    /// The point at column `x`, row `y` (both 0-based, row 0 at the bottom).
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Self {
        Point { x, y }
    }

    /// The point's LittleGolem name (`j10`). Columns past `z` never occur (boards are at most
    /// 25 wide).
    #[must_use]
    pub fn to_littlegolem(self) -> String {
        format!("{}{}", (b'a' + self.x) as char, self.y as u32 + 1)
    }

    /// The point's ConnectMore name (`JJ`).
    #[must_use]
    pub fn to_connectmore(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'A' + self.x) as char);
        s.push((b'A' + self.y) as char);
        s
    }
}

/// LittleGolem form, like [`Point::to_littlegolem`].
impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.x) as char, self.y as u32 + 1)
    }
}

/// Why a point or a list of points could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// Nothing to read.
    #[error("empty point list: expected points like `j10` or `JJ`")]
    Empty,
    /// A character where a column letter was expected.
    #[error("unexpected `{found}` at byte {at} of `{text}`: expected a column letter a..{last}")]
    BadColumn {
        /// The whole text.
        text: String,
        /// Byte offset of the bad character.
        at: usize,
        /// The character found.
        found: char,
        /// The last column letter of this board.
        last: char,
    },
    /// A column letter with no row number after it.
    #[error("column `{column}` at byte {at} of `{text}` has no row number: expected 1..{size}")]
    MissingRow {
        /// The whole text.
        text: String,
        /// Byte offset of the column letter.
        at: usize,
        /// The column letter.
        column: char,
        /// The board size (highest row number).
        size: usize,
    },
    /// A row number outside the board.
    #[error("row {row} at byte {at} of `{text}` is off the board: expected 1..{size}")]
    BadRow {
        /// The whole text.
        text: String,
        /// Byte offset of the row number.
        at: usize,
        /// The row number read.
        row: u32,
        /// The board size.
        size: usize,
    },
    /// ConnectMore text of odd length or with a character that is not a capital letter of the board.
    #[error(
        "bad ConnectMore stone `{text}`: expected pairs of letters A..{last} (column then row)"
    )]
    BadConnectMore {
        /// The text.
        text: String,
        /// The last letter of this board.
        last: char,
    },
}

fn last_letter(size: usize, base: u8) -> char {
    (base + size as u8 - 1) as char
}

/// Reads LittleGolem points on a `size` board: `j10`, `j9l11`, `j9 l11`, `j9,l11`, or longer
/// lists (`1.j10 2.i9l10`: move numbers ending in `.` are skipped). Letters may be any case.
///
/// # Errors
/// [`NotationError`] naming the first bad character and what was expected there.
pub fn parse_littlegolem(text: &str, size: usize) -> Result<Vec<Point>, NotationError> {
    let bytes = text.as_bytes();
    let mut points = Vec::new();
    let mut i = 0;
    let last = last_letter(size, b'a');
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' || b == b';' {
            i += 1;
            continue;
        }
        if b.is_ascii_digit() {
            // A move number `12.`.
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'.' {
                i += 1;
                continue;
            }
            return Err(NotationError::BadColumn {
                text: text.to_string(),
                at: start,
                found: b as char,
                last,
            });
        }
        let lower = b.to_ascii_lowercase();
        if !lower.is_ascii_lowercase() || (lower - b'a') as usize >= size {
            let found = text[i..].chars().next().unwrap_or('?');
            return Err(NotationError::BadColumn {
                text: text.to_string(),
                at: i,
                found,
                last,
            });
        }
        let col_at = i;
        i += 1;
        let row_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if row_start == i {
            return Err(NotationError::MissingRow {
                text: text.to_string(),
                at: col_at,
                column: lower as char,
                size,
            });
        }
        let row: u32 = text[row_start..i].parse().unwrap_or(u32::MAX);
        if row == 0 || row as usize > size {
            return Err(NotationError::BadRow {
                text: text.to_string(),
                at: row_start,
                row,
                size,
            });
        }
        points.push(Point::new(lower - b'a', (row - 1) as u8));
    }
    if points.is_empty() {
        return Err(NotationError::Empty);
    }
    Ok(points)
}

/// Reads ConnectMore stones on a `size` board: `JJ`, `JKKJ` (pairs of capital letters, column
/// then row, row `A` at the bottom). Lower case is accepted too.
///
/// # Errors
/// [`NotationError::BadConnectMore`] for odd lengths or letters off the board,
/// [`NotationError::Empty`] for no text.
pub fn parse_connectmore(text: &str, size: usize) -> Result<Vec<Point>, NotationError> {
    let t = text.trim();
    let last = last_letter(size, b'A');
    let bad = || NotationError::BadConnectMore {
        text: t.to_string(),
        last,
    };
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    if !t.is_ascii() || t.len() % 2 != 0 {
        return Err(bad());
    }
    let mut points = Vec::with_capacity(t.len() / 2);
    let coord = |c: u8| -> Option<u8> {
        let u = c.to_ascii_uppercase();
        (u.is_ascii_uppercase() && ((u - b'A') as usize) < size).then(|| u - b'A')
    };
    for pair in t.as_bytes().chunks(2) {
        match (coord(pair[0]), coord(pair[1])) {
            (Some(x), Some(y)) => points.push(Point::new(x, y)),
            _ => return Err(bad()),
        }
    }
    Ok(points)
}

/// Writes points in LittleGolem form, joined (`j9l11`; a single stone `j10`).
#[must_use]
pub fn format_littlegolem(points: &[Point]) -> String {
    points.iter().map(|p| p.to_littlegolem()).collect()
}

/// Writes points in ConnectMore form, joined (`JKKJ`; a single stone `JJ`).
#[must_use]
pub fn format_connectmore(points: &[Point]) -> String {
    points.iter().map(|p| p.to_connectmore()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn littlegolem_forms() {
        let p = |x, y| Point::new(x, y);
        assert_eq!(parse_littlegolem("j10", 19).unwrap(), vec![p(9, 9)]);
        assert_eq!(
            parse_littlegolem("j9l11", 19).unwrap(),
            vec![p(9, 8), p(11, 10)]
        );
        assert_eq!(
            parse_littlegolem("j9 l11", 19).unwrap(),
            vec![p(9, 8), p(11, 10)]
        );
        assert_eq!(
            parse_littlegolem("J9,L11", 19).unwrap(),
            vec![p(9, 8), p(11, 10)]
        );
        assert_eq!(parse_littlegolem("1.j10 2.i9l10", 19).unwrap().len(), 3);
        assert_eq!(parse_littlegolem("s19", 19).unwrap(), vec![p(18, 18)]);
        assert!(matches!(
            parse_littlegolem("t1", 19),
            Err(NotationError::BadColumn { .. })
        ));
        assert!(matches!(
            parse_littlegolem("a20", 19),
            Err(NotationError::BadRow { row: 20, .. })
        ));
        assert!(matches!(
            parse_littlegolem("a0", 19),
            Err(NotationError::BadRow { row: 0, .. })
        ));
        assert!(matches!(
            parse_littlegolem("ab", 19),
            Err(NotationError::MissingRow { .. })
        ));
        assert_eq!(parse_littlegolem("  ", 19), Err(NotationError::Empty));
        assert!(parse_littlegolem("é1", 19).is_err());
        assert_eq!(format_littlegolem(&[p(9, 8), p(11, 10)]), "j9l11");
    }

    #[test]
    fn connectmore_forms() {
        let p = |x, y| Point::new(x, y);
        assert_eq!(parse_connectmore("JJ", 19).unwrap(), vec![p(9, 9)]);
        assert_eq!(
            parse_connectmore("JKKJ", 19).unwrap(),
            vec![p(9, 10), p(10, 9)]
        );
        assert!(parse_connectmore("JKK", 19).is_err());
        assert!(parse_connectmore("TA", 19).is_err());
        assert!(parse_connectmore("ÉÉ", 19).is_err());
        assert_eq!(format_connectmore(&[p(9, 10), p(10, 9)]), "JKKJ");
    }
}
