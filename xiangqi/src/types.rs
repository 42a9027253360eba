//! Squares, pieces and moves.

use std::fmt;

use game_core::Side;

/// A point of the 9x10 board.
///
/// Files `0..9` are `a`..`i` from Red's left, ranks `0..10` count from Red's back rank (ICCS
/// coordinates). Internally the point is an index into a 16x16 padded mailbox
/// (`(rank + 3) * 16 + file + 3`), which the move generator uses directly.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(pub(crate) u8);

impl Square {
    /// The point at `file` (0..9, `a`..`i`) and `rank` (0..10, Red's back rank is 0), or `None`
    /// when either is off the board.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square((rank + 3) * 16 + file + 3))
        } else {
            None
        }
    }

    /// The file, 0..9 (`a`..`i`, from Red's left).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        (self.0 & 15) - 3
    }

    /// The rank, 0..10 (0 is Red's back rank).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        (self.0 >> 4) - 3
    }

    /// The dense index `rank * 9 + file`, 0..90.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.rank() as usize * 9 + self.file() as usize
    }

    /// The point with dense index `index` (`rank * 9 + file`), or `None` when `index >= 90`.
    #[inline]
    #[must_use]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 90 {
            Square::new((index % 9) as u8, (index / 9) as u8)
        } else {
            None
        }
    }

    /// Every point, in dense index order (rank 0 file a first).
    pub fn all() -> impl Iterator<Item = Square> {
        (0..90).filter_map(Square::from_index)
    }

    /// The padded mailbox index (internal representation).
    #[inline]
    pub(crate) const fn raw(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Square {
    /// ICCS coordinates, e.g. `e0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// King (general): one step orthogonally inside the palace. FEN `K`.
    King,
    /// Advisor (guard): one step diagonally inside the palace. FEN `A`.
    Advisor,
    /// Elephant (minister): two points diagonally, not across the river. FEN `B` (`E` accepted).
    Elephant,
    /// Horse: one orthogonal then one diagonal step, blocked at the leg. FEN `N` (`H` accepted).
    Horse,
    /// Rook (chariot). FEN `R`.
    Rook,
    /// Cannon: moves like a rook, captures by jumping one screen. FEN `C`.
    Cannon,
    /// Pawn (soldier). FEN `P`.
    Pawn,
}

impl PieceKind {
    /// All kinds, king first.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// How many pieces of this kind one side's set holds (1, 2 or 5).
    #[must_use]
    pub const fn max_count(self) -> usize {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The uppercase FEN letter (`K A B N R C P`).
    #[must_use]
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The WXF letter (`K A E H R C P`).
    #[must_use]
    pub const fn wxf_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The kind a letter names, either case: FEN letters `K A B N R C P` and the WXF aliases
    /// `E` (elephant) and `H` (horse).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'K' => Some(PieceKind::King),
            'A' => Some(PieceKind::Advisor),
            'B' | 'E' => Some(PieceKind::Elephant),
            'N' | 'H' => Some(PieceKind::Horse),
            'R' => Some(PieceKind::Rook),
            'C' => Some(PieceKind::Cannon),
            'P' => Some(PieceKind::Pawn),
            _ => None,
        }
    }

    /// The English name (`king`, `advisor`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }

    /// True for the kinds that move diagonally (advisor, elephant, horse): WXF and Chinese
    /// notation give their destination file instead of a step count.
    #[must_use]
    pub const fn moves_diagonally(self) -> bool {
        matches!(
            self,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
        )
    }
}

/// A piece: a kind and a side (`Side::First` is Red, `Side::Second` is Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind.
    pub kind: PieceKind,
    /// The owner: `Side::First` = Red (uppercase in FEN), `Side::Second` = Black.
    pub side: Side,
}

impl Piece {
    /// The FEN letter: uppercase for Red, lowercase for Black.
    #[must_use]
    pub fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        if self.side == Side::First {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// The piece a FEN letter names (`K A B N R C P` red, lowercase black; `E`/`H` aliases).
    #[must_use]
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        Some(Piece { kind, side })
    }
}

impl fmt::Display for Piece {
    /// The FEN letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

/// A move: a from and a to point, packed in 16 bits.
///
/// [`game_core::Move::code`] is `from_raw * 256 + to_raw` (mailbox indices), below 2^16.
/// Its `Display`/`Debug` is ICCS, e.g. `h2e2`.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub(crate) u16);

impl Move {
    /// The move from `from` to `to` (not checked for legality).
    #[inline]
    #[must_use]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(((from.0 as u16) << 8) | to.0 as u16)
    }

    #[inline]
    pub(crate) const fn from_raw(from: usize, to: usize) -> Move {
        Move(((from as u16) << 8) | to as u16)
    }

    /// The point the piece leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square((self.0 >> 8) as u8)
    }

    /// The point the piece lands on.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square(self.0 as u8)
    }
}

impl game_core::Move for Move {
    #[inline]
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

impl fmt::Display for Move {
    /// ICCS lowercase, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
