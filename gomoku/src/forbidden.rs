//! Renju's forbidden points for Black: the three kinds the RIF rules name (double three,
//! double four, overline). The board finds them ([`crate::Board::forbidden_kind`]); errors and
//! endings name them.

use std::fmt;

/// Why a point is forbidden for Black under renju.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenKind {
    /// Two or more real open threes at once.
    DoubleThree,
    /// Two or more fours at once (also two fours on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl ForbiddenKind {
    /// The digit the reference file uses: 3, 4 or 6.
    #[must_use]
    pub const fn digit(self) -> u8 {
        match self {
            ForbiddenKind::DoubleThree => 3,
            ForbiddenKind::DoubleFour => 4,
            ForbiddenKind::Overline => 6,
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbiddenKind::DoubleThree => "double three",
            ForbiddenKind::DoubleFour => "double four",
            ForbiddenKind::Overline => "overline",
        })
    }
}
