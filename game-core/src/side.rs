//! The two players of a two-player game.

use std::fmt;

/// One of the two players.
///
/// `First` moves first from a game's standard start: Black in gomoku, renju and connect6,
/// Red in xiangqi. Games name their sides in their own notation and map them onto this type.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The player who moves first from the standard start (Black in stone games, Red in xiangqi).
    First,
    /// The other player (White in stone games, Black in xiangqi).
    Second,
}

impl Side {
    /// Both sides, `First` then `Second`.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side tables.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}
