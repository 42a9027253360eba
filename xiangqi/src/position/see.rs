//! Static exchange evaluation: the material a capture wins or loses when both sides keep
//! recapturing on the target point with their least valuable attacker.
//!
//! Attackers are found on a scratch copy of the board, so pieces that leave the exchange
//! uncover rooks behind them and make or remove cannon screens. Pins are ignored, the king
//! counts as worth [`SEE_VALUE`]`[0]` (it may only capture last), and the flying-general rule
//! is not applied: an approximation for move ordering and quiescence pruning.

use super::{EMPTY, IN_PALACE, OFF, Position, kind_of};
use crate::line::{NONE, at as at_line, coords, lines_of};
use crate::types::Move;

/// Exchange values of each kind (king, advisor, elephant, horse, rook, cannon, pawn). Horse
/// and cannon are equal, so trading one for the other is an even exchange.
pub const SEE_VALUE: [i32; 7] = [5_000, 40, 40, 100, 220, 100, 25];

/// Kinds in the order attackers are tried: cheapest first.
const CHEAPEST_FIRST: [u8; 7] = [6, 1, 2, 3, 5, 4, 0];

const ORTHO: [isize; 4] = [1, -1, 16, -16];

/// Occupancy bits of ranks and files (a scratch copy for the exchange).
type Occupancy = ([u16; 10], [u16; 9]);

/// Clears the occupancy bit of mailbox point `sq`.
#[inline(always)]
fn vacate(occ: &mut Occupancy, sq: usize) {
    let (file, rank) = coords(sq as u8);
    occ.0[rank as usize] &= !(1 << file);
    occ.1[file as usize] &= !(1 << rank);
}

/// Horse moves as (leg offset, target offset) from the horse.
const HORSE: [(isize, isize); 8] = [
    (16, 31),
    (16, 33),
    (-16, -31),
    (-16, -33),
    (1, 18),
    (1, -14),
    (-1, -18),
    (-1, 14),
];

/// `sq + d` on the mailbox, masked to 0..256 so indexing the board needs no bounds check
/// (the padding stops every walk before it could wrap).
#[inline(always)]
fn at(sq: usize, d: isize) -> usize {
    (sq as isize + d) as usize & 255
}

/// The point of the least valuable piece of side `side` (0 Red, 1 Black) attacking `to` on
/// `b`, if any.
fn least_attacker(b: &[u8; 256], occ: &Occupancy, to: usize, side: usize) -> Option<usize> {
    let own = 16u8 << side;
    let is = |sq: usize, kind: u8| {
        let p = b[sq];
        p & own != 0 && kind_of(p) == kind
    };
    for kind in CHEAPEST_FIRST {
        match kind {
            6 => {
                let back: isize = if side == 0 { -16 } else { 16 };
                if is(at(to, back), 6) {
                    return Some(at(to, back));
                }
                for d in [1isize, -1] {
                    let sq = at(to, d);
                    // Only a pawn across the river moves sideways.
                    if is(sq, 6) && (sq >= 0x80) == (side == 0) {
                        return Some(sq);
                    }
                }
            }
            1 => {
                if IN_PALACE[to] {
                    for d in [15isize, 17, -15, -17] {
                        if is(at(to, d), 1) {
                            return Some(at(to, d));
                        }
                    }
                }
            }
            2 => {
                for (eye, d) in [(17isize, 34isize), (15, 30), (-15, -30), (-17, -34)] {
                    let sq = at(to, d);
                    if b[sq] != OFF && is(sq, 2) && (sq ^ to) & 0x80 == 0 && b[at(to, eye)] == EMPTY
                    {
                        return Some(sq);
                    }
                }
            }
            3 => {
                for (leg, t) in HORSE {
                    let from = at(to, -t);
                    if b[from] != OFF && is(from, 3) && b[at(from, leg)] == EMPTY {
                        return Some(from);
                    }
                }
            }
            5 => {
                let (file, rank) = coords(to as u8);
                for (l, geo) in lines_of(&occ.0, &occ.1, file, rank) {
                    if l.second != NONE && is(at_line(geo, l.second), 5) {
                        return Some(at_line(geo, l.second));
                    }
                }
            }
            4 => {
                let (file, rank) = coords(to as u8);
                for (l, geo) in lines_of(&occ.0, &occ.1, file, rank) {
                    if l.first != NONE && is(at_line(geo, l.first), 4) {
                        return Some(at_line(geo, l.first));
                    }
                }
            }
            _ => {
                if IN_PALACE[to] {
                    for d in ORTHO {
                        if is(at(to, d), 0) {
                            return Some(at(to, d));
                        }
                    }
                }
            }
        }
    }
    None
}

impl Position {
    /// The static exchange value of `mv` (a legal move, usually a capture) for the side to
    /// move, in [`SEE_VALUE`] units: what it captures minus what it loses if the opponent
    /// recaptures on the target point, and so on, each side stopping when continuing would
    /// lose. A quiet move scores 0 or less (the piece moved may be lost).
    #[must_use]
    pub fn see(&self, mv: Move) -> i32 {
        let from = mv.from().raw();
        let to = mv.to().raw();
        let mut b = self.board;
        let victim = b[to];
        let mut gain = [0i32; 34];
        gain[0] = if victim == EMPTY {
            0
        } else {
            SEE_VALUE[kind_of(victim) as usize]
        };
        let mut on_target = SEE_VALUE[kind_of(b[from]) as usize];
        let mut occ: Occupancy = (self.occ_rank, self.occ_file);
        b[to] = b[from];
        b[from] = EMPTY;
        vacate(&mut occ, from);
        if victim == EMPTY {
            let (file, rank) = coords(to as u8);
            occ.0[rank as usize] |= 1 << file;
            occ.1[file as usize] |= 1 << rank;
        }
        let mut side = self.side ^ 1;
        let mut d = 0;
        while d + 1 < gain.len() {
            let Some(sq) = least_attacker(&b, &occ, to, side) else {
                break;
            };
            d += 1;
            gain[d] = on_target - gain[d - 1];
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            on_target = SEE_VALUE[kind_of(b[sq]) as usize];
            b[to] = b[sq];
            b[sq] = EMPTY;
            vacate(&mut occ, sq);
            side ^= 1;
        }
        while d > 0 {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
            d -= 1;
        }
        gain[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let mv = pos.parse_iccs(mv).unwrap();
        pos.see(mv)
    }

    #[test]
    fn exchanges() {
        // Undefended pawn.
        assert_eq!(see("5k3/9/9/9/4p4/9/9/9/9/3KR4 w - - 0 1", "e0e5"), 25);
        // Defended by a pawn: the rook is lost.
        assert_eq!(see("5k3/9/9/4p4/4p4/9/9/9/9/3KR4 w - - 0 1", "e0e5"), -195);
        // A cannon recaptures over a screen ...
        assert_eq!(
            see("5k3/4c4/4n4/9/4p4/9/9/9/9/3KR4 w - - 0 1", "e0e5"),
            -195
        );
        // ... but not without one.
        assert_eq!(see("5k3/4c4/9/9/4p4/9/9/9/9/3KR4 w - - 0 1", "e0e5"), 25);
        // A rook behind the capturer (x-ray) keeps the exchange even.
        assert_eq!(see("3kr4/9/9/9/4p4/9/9/9/4R4/4RK3 w - - 0 1", "e1e5"), 25);
        assert_eq!(see("3kr4/9/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1", "e1e5"), -195);
        // Horse takes a rook defended by a horse: wins rook for horse.
        assert_eq!(see("3k5/9/9/9/3r5/9/2N1n4/9/9/5K3 w - - 0 1", "c3d5"), 120);
    }
}
