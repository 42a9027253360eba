//! Move legality with the rule a move breaks: [`check_move`] checks a move the way a referee
//! reads it (the piece, its geometry, then the king's safety) and names the first rule
//! broken ([`Illegal`]). The search's [`Position::is_legal`](game_core::Position::is_legal)
//! uses it to vet table and killer moves; the notation module uses it for its error texts.

use std::fmt;

use game_core::Side;

use super::{EMPTY, IN_PALACE, Position, attacked};
use crate::types::{Move, PieceKind, Square};

impl Position {
    /// True when `mv` is legal here ([`check_move`] finds no rule it breaks).
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        check_move(self, mv.from(), mv.to()).is_ok()
    }
}

/// Why a move is illegal in a position. `Display` is the rule broken, e.g. "horse leg blocked".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// No piece on the from point.
    NoPiece(Square),
    /// The piece on the from point belongs to the side not to move.
    NotYourPiece(Square),
    /// From and to are the same point.
    SamePoint,
    /// The destination holds a piece of the mover's own side.
    OwnPiece(Square),
    /// The destination is off the board.
    OffBoard,
    /// The king moves one point orthogonally.
    KingStep,
    /// The king or an advisor would leave the palace.
    LeavesPalace,
    /// The advisor moves one point diagonally.
    AdvisorStep,
    /// The elephant moves exactly two points diagonally.
    ElephantStep,
    /// The elephant may not cross the river.
    ElephantRiver,
    /// The point between the elephant and its destination is occupied.
    ElephantEye,
    /// The horse moves one point orthogonally then one diagonally.
    HorseStep,
    /// The first orthogonal point of the horse's move is occupied.
    HorseLeg,
    /// Rooks and cannons move along a file or a rank.
    NotStraight,
    /// A piece stands between the rook (or a non-capturing cannon) and its destination.
    PathBlocked,
    /// A cannon captures by jumping exactly one piece; the count found is given.
    CannonScreen(u8),
    /// A pawn never moves backward.
    PawnBackward,
    /// A pawn moves sideways only after crossing the river.
    PawnNotCrossed,
    /// A pawn moves one point forward (or sideways after the river).
    PawnStep,
    /// The move would leave the mover's king attacked.
    LeavesKingInCheck,
    /// The move would leave the two kings facing on an open file (flying general).
    KingsFacing,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NoPiece(sq) => write!(f, "no piece on {sq}"),
            Illegal::NotYourPiece(sq) => {
                write!(f, "the piece on {sq} belongs to the side not to move")
            }
            Illegal::SamePoint => write!(f, "a move must change points"),
            Illegal::OwnPiece(sq) => write!(f, "{sq} holds one of the mover's own pieces"),
            Illegal::OffBoard => write!(f, "the destination is off the board"),
            Illegal::KingStep => write!(f, "the king moves one point orthogonally"),
            Illegal::LeavesPalace => write!(f, "the piece may not leave the palace"),
            Illegal::AdvisorStep => write!(f, "the advisor moves one point diagonally"),
            Illegal::ElephantStep => write!(f, "the elephant moves exactly two points diagonally"),
            Illegal::ElephantRiver => write!(f, "the elephant may not cross the river"),
            Illegal::ElephantEye => write!(f, "elephant eye blocked"),
            Illegal::HorseStep => write!(
                f,
                "the horse moves one point orthogonally then one diagonally"
            ),
            Illegal::HorseLeg => write!(f, "horse leg blocked"),
            Illegal::NotStraight => write!(f, "rooks and cannons move along a file or a rank"),
            Illegal::PathBlocked => write!(f, "path blocked"),
            Illegal::CannonScreen(n) => {
                write!(
                    f,
                    "a cannon captures by jumping exactly one screen (found {n})"
                )
            }
            Illegal::PawnBackward => write!(f, "a pawn never moves backward"),
            Illegal::PawnNotCrossed => {
                write!(f, "a pawn moves sideways only after crossing the river")
            }
            Illegal::PawnStep => write!(
                f,
                "a pawn moves one point forward (or sideways after the river)"
            ),
            Illegal::LeavesKingInCheck => write!(f, "would leave the king in check"),
            Illegal::KingsFacing => write!(
                f,
                "would leave the kings facing each other (flying general)"
            ),
        }
    }
}

/// Checks that `from`-`to` is a legal move here, naming the rule it breaks if not.
///
/// # Errors
/// The first [`Illegal`] reason found: piece and destination, the piece's geometry (palace,
/// river, eye, leg, screen, path), then the king's safety.
pub fn check_move(pos: &Position, from: Square, to: Square) -> Result<(), Illegal> {
    let b = &pos.board;
    let p = b[from.raw()];
    let Some(piece) = pos.piece_on(from) else {
        return Err(Illegal::NoPiece(from));
    };
    if piece.side != pos.side() {
        return Err(Illegal::NotYourPiece(from));
    }
    if from == to {
        return Err(Illegal::SamePoint);
    }
    let target = pos.piece_on(to);
    if target.is_some_and(|t| t.side == piece.side) {
        return Err(Illegal::OwnPiece(to));
    }
    let df = i32::from(to.file()) - i32::from(from.file());
    let dr = i32::from(to.rank()) - i32::from(from.rank());
    let (adf, adr) = (df.abs(), dr.abs());
    let red = piece.side == Side::First;
    let at = |f: i32, r: i32| b[Square::new(f as u8, r as u8).expect("on board").raw()];
    let between = || -> u8 {
        let (sf, sr) = (df.signum(), dr.signum());
        let (mut f, mut r) = (i32::from(from.file()) + sf, i32::from(from.rank()) + sr);
        let mut n = 0;
        while (f, r) != (i32::from(to.file()), i32::from(to.rank())) {
            if at(f, r) != EMPTY {
                n += 1;
            }
            f += sf;
            r += sr;
        }
        n
    };
    match piece.kind {
        PieceKind::King => {
            if adf + adr != 1 {
                return Err(Illegal::KingStep);
            }
            if !IN_PALACE[to.raw()] {
                return Err(Illegal::LeavesPalace);
            }
        }
        PieceKind::Advisor => {
            if adf != 1 || adr != 1 {
                return Err(Illegal::AdvisorStep);
            }
            if !IN_PALACE[to.raw()] {
                return Err(Illegal::LeavesPalace);
            }
        }
        PieceKind::Elephant => {
            if adf != 2 || adr != 2 {
                return Err(Illegal::ElephantStep);
            }
            if (to.rank() >= 5) == red {
                return Err(Illegal::ElephantRiver);
            }
            if at(
                i32::from(from.file()) + df / 2,
                i32::from(from.rank()) + dr / 2,
            ) != EMPTY
            {
                return Err(Illegal::ElephantEye);
            }
        }
        PieceKind::Horse => {
            let leg = match (adf, adr) {
                (1, 2) => (i32::from(from.file()), i32::from(from.rank()) + dr / 2),
                (2, 1) => (i32::from(from.file()) + df / 2, i32::from(from.rank())),
                _ => return Err(Illegal::HorseStep),
            };
            if at(leg.0, leg.1) != EMPTY {
                return Err(Illegal::HorseLeg);
            }
        }
        PieceKind::Rook => {
            if df != 0 && dr != 0 {
                return Err(Illegal::NotStraight);
            }
            if between() != 0 {
                return Err(Illegal::PathBlocked);
            }
        }
        PieceKind::Cannon => {
            if df != 0 && dr != 0 {
                return Err(Illegal::NotStraight);
            }
            let n = between();
            if target.is_some() {
                if n != 1 {
                    return Err(Illegal::CannonScreen(n));
                }
            } else if n != 0 {
                return Err(Illegal::PathBlocked);
            }
        }
        PieceKind::Pawn => {
            let fwd = if red { 1 } else { -1 };
            let crossed = (from.rank() >= 5) == red;
            if dr == fwd && df == 0 {
            } else if dr == 0 && adf == 1 {
                if !crossed {
                    return Err(Illegal::PawnNotCrossed);
                }
            } else if dr * fwd < 0 {
                return Err(Illegal::PawnBackward);
            } else {
                return Err(Illegal::PawnStep);
            }
        }
    }
    // King safety on a scratch board.
    let mut scratch = pos.board;
    scratch[to.raw()] = p;
    scratch[from.raw()] = EMPTY;
    let side = pos.side().index();
    let k = if piece.kind == PieceKind::King {
        to
    } else {
        pos.king_square(pos.side())
    };
    if attacked(&scratch, k.raw(), side) {
        let other = pos.king_square(pos.side().opponent());
        if other.file() == k.file() {
            let (lo, hi) = if k.rank() < other.rank() {
                (k, other)
            } else {
                (other, k)
            };
            let open = (lo.rank() + 1..hi.rank())
                .all(|r| scratch[Square::new(k.file(), r).expect("on board").raw()] == EMPTY);
            if open {
                return Err(Illegal::KingsFacing);
            }
        }
        return Err(Illegal::LeavesKingInCheck);
    }
    Ok(())
}
