//! FEN in two stages: text -> [`Setup`] ([`ParseFenError`]), setup -> [`Position`]
//! ([`PositionError`]).
//!
//! Format (xqbase FEN): `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//! Ranks from Black's back rank (rank 9) down to Red's (rank 0), files `a`..`i` left to right;
//! letters `K A B N R C P` (Red uppercase, Black lowercase; `E`/`H` accepted for `B`/`N`).
//! Side to move `w`/`r` (Red) or `b`; fields 3-4 are `-`; then the half-move clock (plies since
//! the last capture) and the full-move number. The last four fields may be missing.

use std::fmt;
use std::str::FromStr;

use game_core::Side;
use thiserror::Error;

use crate::position::Position;
use crate::types::{Piece, PieceKind, Square};

/// The start position's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// What is wrong inside the piece-placement field.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlacementProblem {
    /// A character that is neither a piece letter, a digit 1..9 nor `/`.
    #[error(
        "unexpected character '{0}' (expected a piece letter KABNRCP/kabnrcp, a digit 1-9 or '/')"
    )]
    BadChar(char),
    /// A rank describes more than 9 points.
    #[error("rank has more than 9 points")]
    RankTooLong,
    /// A rank describes fewer than 9 points.
    #[error("rank has {0} points, expected 9")]
    RankTooShort(usize),
    /// Not 10 ranks.
    #[error("{0} ranks, expected 10")]
    RankCount(usize),
}

/// A FEN that cannot be read as text (first stage). Each field has its own variant naming the
/// offending text; positions are 0-based byte offsets into the whole FEN string (character
/// offsets for ASCII text).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseFenError {
    /// The FEN is empty or blank.
    #[error("empty FEN")]
    Empty,
    /// Field 1 (piece placement) is malformed.
    #[error(
        "piece placement '{text}': {problem} (rank {rank} from Red's side, at character {position})"
    )]
    Placement {
        /// The placement field.
        text: String,
        /// The rank (0..10 from Red's back rank) being read.
        rank: usize,
        /// Character offset of the problem in the FEN.
        position: usize,
        /// What is wrong.
        problem: PlacementProblem,
    },
    /// Field 2 is not `w`, `r` or `b`.
    #[error("side to move '{text}' at character {position}: expected 'w', 'r' or 'b'")]
    SideToMove {
        /// The field's text.
        text: String,
        /// Character offset of the field.
        position: usize,
    },
    /// Field 3 (castling in chess) is not `-`.
    #[error("field 3 '{text}' at character {position}: expected '-'")]
    Castling {
        /// The field's text.
        text: String,
        /// Character offset of the field.
        position: usize,
    },
    /// Field 4 (en passant in chess) is not `-`.
    #[error("field 4 '{text}' at character {position}: expected '-'")]
    EnPassant {
        /// The field's text.
        text: String,
        /// Character offset of the field.
        position: usize,
    },
    /// Field 5 is not a number 0..=65535.
    #[error("half-move clock '{text}' at character {position}: expected a number 0..=65535")]
    HalfmoveClock {
        /// The field's text.
        text: String,
        /// Character offset of the field.
        position: usize,
    },
    /// Field 6 is not a number >= 1.
    #[error("full-move number '{text}' at character {position}: expected a number >= 1")]
    FullmoveNumber {
        /// The field's text.
        text: String,
        /// Character offset of the field.
        position: usize,
    },
    /// Fields after the sixth.
    #[error("unexpected text '{text}' after the six FEN fields at character {position}")]
    TrailingText {
        /// The extra text.
        text: String,
        /// Character offset of it.
        position: usize,
    },
}

/// A set-up read from a FEN but not yet checked for possibility.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// `board[rank][file]`, rank 0 = Red's back rank, file 0 = `a`.
    pub board: [[Option<Piece>; 9]; 10],
    /// The side to move (`Side::First` = Red).
    pub side: Side,
    /// Plies since the last capture.
    pub halfmove_clock: u16,
    /// Full-move number, >= 1.
    pub fullmove_number: u32,
}

/// A set-up that cannot be a xiangqi position (second stage). Each impossibility has a variant.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// A side has no king.
    #[error("{} has no king", side_name(*side))]
    MissingKing {
        /// The side.
        side: Side,
    },
    /// A side has more than one king.
    #[error("{} has {count} kings", side_name(*side))]
    TooManyKings {
        /// The side.
        side: Side,
        /// How many.
        count: usize,
    },
    /// A king outside its palace.
    #[error("{} king on {square} is outside its palace", side_name(*side))]
    KingOutsidePalace {
        /// The side.
        side: Side,
        /// Where.
        square: Square,
    },
    /// An advisor off its five palace points.
    #[error("{} advisor on {square} is off the advisor points of its palace", side_name(*side))]
    AdvisorOffPoints {
        /// The side.
        side: Side,
        /// Where.
        square: Square,
    },
    /// An elephant off its seven points (or across the river).
    #[error("{} elephant on {square} is off its seven elephant points", side_name(*side))]
    ElephantOffPoints {
        /// The side.
        side: Side,
        /// Where.
        square: Square,
    },
    /// A pawn behind its starting rank, or on its own half off the five pawn files.
    #[error("{} pawn on {square} is behind its starting rank or off the pawn files before the river", side_name(*side))]
    PawnOffPoints {
        /// The side.
        side: Side,
        /// Where.
        square: Square,
    },
    /// More pieces of a kind than a set holds.
    #[error("{} has {count} {}s, a set has {max}", side_name(*side), kind.name())]
    TooManyPieces {
        /// The side.
        side: Side,
        /// The kind.
        kind: PieceKind,
        /// How many are on the board.
        count: usize,
        /// How many a set has.
        max: usize,
    },
    /// The kings face each other on an open file.
    #[error("the kings face each other on an open file (flying general)")]
    KingsFacing,
    /// The side that just moved is in check.
    #[error("{} is not to move but is in check", side_name(*side))]
    SideNotToMoveInCheck {
        /// The side in check.
        side: Side,
    },
}

/// Any error reading a FEN into a position: unreadable text or an impossible position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum FenError {
    /// The text is not a FEN.
    #[error("bad FEN: {0}")]
    Parse(#[from] ParseFenError),
    /// The FEN describes an impossible position.
    #[error("impossible position: {0}")]
    Position(#[from] PositionError),
}

pub(crate) fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Black",
    }
}

/// Splits on ASCII whitespace, keeping each field's character offset.
fn fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

impl Setup {
    /// Reads a FEN's text (first stage; no check that the position is possible).
    ///
    /// # Errors
    /// [`ParseFenError`], one variant per field, with the offending text and offset.
    pub fn parse(text: &str) -> Result<Setup, ParseFenError> {
        let f = fields(text);
        if f.is_empty() {
            return Err(ParseFenError::Empty);
        }
        let (p0, placement) = f[0];
        let mut board = [[None; 9]; 10];
        let ranks: Vec<&str> = placement.split('/').collect();
        let perr =
            |rank: usize, position: usize, problem: PlacementProblem| ParseFenError::Placement {
                text: placement.to_string(),
                rank,
                position,
                problem,
            };
        if ranks.len() != 10 {
            // Still report a bad character first, if any, on the rank it is on (the first
            // FEN rank is rank 9, Black's back rank).
            let mut slashes = 0;
            for (i, c) in placement.char_indices() {
                if c == '/' {
                    slashes += 1;
                } else if slashes <= 9
                    && !('1'..='9').contains(&c)
                    && Piece::from_fen_char(c).is_none()
                {
                    return Err(perr(9 - slashes, p0 + i, PlacementProblem::BadChar(c)));
                }
            }
            // Reported at the start of the placement: the first FEN rank, rank 9.
            return Err(perr(9, p0, PlacementProblem::RankCount(ranks.len())));
        }
        let mut offset = p0;
        for (row, rank_text) in ranks.iter().enumerate() {
            let rank = 9 - row;
            let mut file = 0usize;
            for (i, c) in rank_text.char_indices() {
                let pos = offset + i;
                if let Some(d) = c.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                    if file > 9 {
                        return Err(perr(rank, pos, PlacementProblem::RankTooLong));
                    }
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    if file >= 9 {
                        return Err(perr(rank, pos, PlacementProblem::RankTooLong));
                    }
                    board[rank][file] = Some(piece);
                    file += 1;
                } else {
                    return Err(perr(rank, pos, PlacementProblem::BadChar(c)));
                }
            }
            if file < 9 {
                return Err(perr(
                    rank,
                    offset + rank_text.len(),
                    PlacementProblem::RankTooShort(file),
                ));
            }
            offset += rank_text.len() + 1;
        }
        let mut setup = Setup {
            board,
            side: Side::First,
            halfmove_clock: 0,
            fullmove_number: 1,
        };
        if let Some(&(pos, s)) = f.get(1) {
            setup.side = match s {
                "w" | "r" | "W" | "R" => Side::First,
                "b" | "B" => Side::Second,
                _ => {
                    return Err(ParseFenError::SideToMove {
                        text: s.to_string(),
                        position: pos,
                    });
                }
            };
        }
        if let Some(&(pos, s)) = f.get(2)
            && s != "-"
        {
            return Err(ParseFenError::Castling {
                text: s.to_string(),
                position: pos,
            });
        }
        if let Some(&(pos, s)) = f.get(3)
            && s != "-"
        {
            return Err(ParseFenError::EnPassant {
                text: s.to_string(),
                position: pos,
            });
        }
        if let Some(&(pos, s)) = f.get(4) {
            setup.halfmove_clock = s.parse().map_err(|_| ParseFenError::HalfmoveClock {
                text: s.to_string(),
                position: pos,
            })?;
        }
        if let Some(&(pos, s)) = f.get(5) {
            setup.fullmove_number = s.parse().ok().filter(|&n: &u32| n >= 1).ok_or_else(|| {
                ParseFenError::FullmoveNumber {
                    text: s.to_string(),
                    position: pos,
                }
            })?;
        }
        if let Some(&(pos, _)) = f.get(6) {
            return Err(ParseFenError::TrailingText {
                text: text[pos..].trim_end().to_string(),
                position: pos,
            });
        }
        Ok(setup)
    }

    /// The set-up of `position` (board, side, clock and move number).
    #[must_use]
    pub fn of(position: &Position) -> Setup {
        let mut board = [[None; 9]; 10];
        for (rank, row) in board.iter_mut().enumerate() {
            for (file, cell) in row.iter_mut().enumerate() {
                *cell = position.piece_at(file as u8, rank as u8);
            }
        }
        Setup {
            board,
            side: position.side(),
            halfmove_clock: position.halfmove_clock(),
            fullmove_number: position.fullmove_number(),
        }
    }

    /// Checks the set-up and builds the position (second stage).
    ///
    /// # Errors
    /// The first [`PositionError`] found, checked in this order: king counts, piece counts,
    /// points (king, advisor, elephant, pawn), kings facing, side not to move in check.
    pub fn to_position(&self) -> Result<Position, PositionError> {
        self.to_position_with(false)
    }

    /// Like [`to_position`](Setup::to_position), but when `allow_facing_kings` is true the kings
    /// may face each other on an open file, which then counts as a check on the side to move
    /// only (engines such as Fairy-Stockfish and Pikafish accept such positions, e.g. t11 of
    /// `tactics.txt`, where Red to move is checkmated). The side not to move must still not be
    /// in check by any other piece.
    ///
    /// # Errors
    /// As [`to_position`](Setup::to_position), without [`PositionError::KingsFacing`] when allowed.
    pub fn to_position_with(&self, allow_facing_kings: bool) -> Result<Position, PositionError> {
        let mut counts = [[0usize; 7]; 2];
        for row in &self.board {
            for p in row.iter().flatten() {
                counts[p.side.index()][p.kind as usize] += 1;
            }
        }
        for side in Side::BOTH {
            match counts[side.index()][0] {
                0 => return Err(PositionError::MissingKing { side }),
                1 => {}
                count => return Err(PositionError::TooManyKings { side, count }),
            }
        }
        for side in Side::BOTH {
            for kind in PieceKind::ALL {
                let count = counts[side.index()][kind as usize];
                if count > kind.max_count() {
                    return Err(PositionError::TooManyPieces {
                        side,
                        kind,
                        count,
                        max: kind.max_count(),
                    });
                }
            }
        }
        for (rank, row) in self.board.iter().enumerate() {
            for (file, p) in row.iter().enumerate() {
                let Some(p) = p else { continue };
                let square = Square::new(file as u8, rank as u8).expect("on board");
                // Ranks seen from the piece's own side.
                let r = if p.side == Side::First {
                    rank
                } else {
                    9 - rank
                };
                let ok = match p.kind {
                    PieceKind::King => (3..=5).contains(&file) && r <= 2,
                    PieceKind::Advisor => matches!((file, r), (3 | 5, 0 | 2) | (4, 1)),
                    PieceKind::Elephant => matches!((file, r), (2 | 6, 0 | 4) | (0 | 4 | 8, 2)),
                    PieceKind::Pawn => r >= 5 || (r >= 3 && file % 2 == 0),
                    _ => true,
                };
                if !ok {
                    let side = p.side;
                    return Err(match p.kind {
                        PieceKind::King => PositionError::KingOutsidePalace { side, square },
                        PieceKind::Advisor => PositionError::AdvisorOffPoints { side, square },
                        PieceKind::Elephant => PositionError::ElephantOffPoints { side, square },
                        _ => PositionError::PawnOffPoints { side, square },
                    });
                }
            }
        }
        let mut pos = Position::empty(self.side.index(), self.halfmove_clock, self.fullmove_number);
        for (rank, row) in self.board.iter().enumerate() {
            for (file, p) in row.iter().enumerate() {
                if let Some(p) = p {
                    let placed =
                        pos.put(*p, Square::new(file as u8, rank as u8).expect("on board"));
                    debug_assert!(placed, "counts were checked");
                }
            }
        }
        let rk = pos.king_square(Side::First);
        let bk = pos.king_square(Side::Second);
        let facing = rk.file() == bk.file()
            && (rk.rank() + 1..bk.rank()).all(|r| pos.piece_at(rk.file(), r).is_none());
        if facing && !allow_facing_kings {
            return Err(PositionError::KingsFacing);
        }
        let not_to_move = self.side.opponent();
        let k = pos.king_square(not_to_move);
        // The mover's king, seen as a plain blocker (an advisor never attacks), so that facing
        // kings (when allowed) do not count as a check on the side not to move.
        let mut scratch = pos.board;
        let mover_king = pos.king_square(self.side).raw();
        scratch[mover_king] = (16u8 << self.side.index()) | 1;
        if crate::position::attacked(&scratch, k.raw(), not_to_move.index()) {
            return Err(PositionError::SideNotToMoveInCheck { side: not_to_move });
        }
        pos.finish_setup();
        Ok(pos)
    }

    /// The FEN text of this set-up (side written `w` or `b`, fields 3-4 `-`).
    #[must_use]
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.board[rank][file] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = if self.side == Side::First { 'w' } else { 'b' };
        s.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        s
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Setup::parse(s)
    }
}

impl fmt::Display for Setup {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl Position {
    /// The standard start position, Red to move ([`START_FEN`]).
    #[must_use]
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// Reads a position from a FEN (both stages).
    ///
    /// # Errors
    /// [`FenError::Parse`] for unreadable text, [`FenError::Position`] for an impossible
    /// position.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Ok(Setup::parse(fen)?.to_position()?)
    }

    /// Reads a position from a FEN, accepting kings that face each other on an open file as a
    /// check on the side to move (see [`Setup::to_position_with`]); every other check of
    /// [`from_fen`](Position::from_fen) applies.
    ///
    /// # Errors
    /// As [`from_fen`](Position::from_fen), without [`PositionError::KingsFacing`].
    pub fn from_fen_lenient(fen: &str) -> Result<Position, FenError> {
        Ok(Setup::parse(fen)?.to_position_with(true)?)
    }

    /// The FEN of this position (`w`/`b`, `- -`, half-move clock, full-move number).
    #[must_use]
    pub fn to_fen(&self) -> String {
        Setup::of(self).to_fen()
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Position::from_fen(s)
    }
}
