//! Evaluations: [`MaterialEval`] (material + simple piece-square bonus, the baseline) and
//! [`Eval`], the engine's evaluation.
//!
//! Scale: centi-units where 100 is about a horse (as UCCI engines report). Scores are
//! side-to-move relative and zero-sum (one side's features minus the other's, no tempo).
//!
//! [`Eval`] combines
//! - material and piece-square tables for every kind, each with an opening ("middle game") and
//!   an endgame value, kept incrementally in the position as one packed pair (Red minus Black)
//!   and blended by a game phase that falls as rooks, horses and cannons leave the board;
//! - king safety: missing advisors and elephants cost more the more attacking force the
//!   opponent has left; a cannon facing the enemy king on an open file ("hollow cannon") is a
//!   bonus;
//! - mobility of rooks, horses and cannons (pseudo-legal destinations, blocked legs count);
//! - pawn structure across the river: crossed pawns side by side.

use game_core::{Evaluate, Score};

use crate::line::{NONE, at, coords, lines};
use crate::position::{EMPTY, OFF, PAWN, Position, kind_of};

/// Material of each kind (king, advisor, elephant, horse, rook, cannon, pawn), the baseline
/// values of [`MaterialEval`].
pub const MATERIAL: [i32; 7] = [0, 40, 40, 100, 220, 105, 20];

/// A piece-square bonus for a Red piece of kind `kind` at `file` (0..9) and `rank` (0..10,
/// from Red's side); Black's is mirrored.
const fn bonus(kind: usize, file: i32, rank: i32) -> i32 {
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file }; // 0 at the edge .. 4 in the centre
    match kind {
        // Horse: towards the centre and forward.
        3 => centre * 4 + if rank >= 3 && rank <= 7 { rank * 2 } else { 0 },
        // Rook: mobility on open files is dynamic; a small bonus off the back rank.
        4 => (if rank > 0 { 6 } else { 0 }) + centre,
        // Cannon: central file.
        5 if file == 4 => 8,
        // Pawn: worth much more after crossing, most near the enemy palace (not on the last rank).
        6 if rank >= 5 => {
            let near = if file >= 3 && file <= 5 { 10 } else { 0 };
            let adv = if rank == 9 { 10 } else { (rank - 4) * 6 };
            25 + adv + near
        }
        _ => 0,
    }
}

const fn build_psq() -> [[[i32; 256]; 7]; 2] {
    let mut t = [[[0i32; 256]; 7]; 2];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                let v = MATERIAL[kind] + bonus(kind, file, rank);
                let red_sq = ((rank + 3) * 16 + file + 3) as usize;
                let black_sq = ((9 - rank + 3) * 16 + (8 - file) + 3) as usize;
                t[0][kind][red_sq] = v;
                t[1][kind][black_sq] = -v;
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    t
}

/// `PSQ[side][kind][mailbox square]`: Red's entries positive, Black's negative.
pub(crate) static PSQ: [[[i32; 256]; 7]; 2] = build_psq();

// ---------------------------------------------------------------------------------------
// The engine evaluation: tapered material + piece-square tables.
// ---------------------------------------------------------------------------------------

/// Packs an opening and an endgame value into one `i32` (opening in the high half), so both
/// are updated with one addition.
#[inline]
const fn pair(mg: i32, eg: i32) -> i32 {
    (mg << 16).wrapping_add(eg)
}

/// The opening half of a packed pair.
#[inline]
const fn mg_of(p: i32) -> i32 {
    (p.wrapping_add(0x8000)) >> 16
}

/// The endgame half of a packed pair.
#[inline]
const fn eg_of(p: i32) -> i32 {
    p as i16 as i32
}

/// Opening and endgame material of each kind (king, advisor, elephant, horse, rook, cannon,
/// pawn). A horse gains and a cannon loses value as the board empties.
pub const MATERIAL_MG_EG: [(i32, i32); 7] = [
    (0, 0),
    (40, 40),
    (40, 40),
    (97, 108),
    (220, 235),
    (108, 95),
    (15, 20),
];

/// Phase weight of each kind: the phase is the sum over the pieces on the board, at most
/// [`PHASE_MAX`] (the start position) and 0 with no rook, horse or cannon left.
pub(crate) const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];

/// The phase of the start position (and the cap).
pub const PHASE_MAX: i32 = 32;

/// Piece-square values (opening, endgame) of a Red piece of `kind` at `file` (0..9) and
/// `rank` (0..10, Red's back rank 0).
const fn square_value(kind: usize, file: i32, rank: i32) -> (i32, i32) {
    let off_centre = if file > 4 { file - 4 } else { 4 - file }; // 0 centre .. 4 edge
    let centre = 4 - off_centre;
    match kind {
        // King: at home in the opening; in the endgame leaving the back rank is less bad.
        0 => {
            let mg = -(rank * 12) - if file == 4 { 0 } else { 6 };
            let eg = -(rank * 4) + if file == 4 { 4 } else { 0 };
            (mg, eg)
        }
        // Advisor: the palace centre is best, the corners are home.
        1 => {
            if file == 4 && rank == 1 {
                (4, 4)
            } else if rank == 0 {
                (0, 0)
            } else {
                (-3, -3)
            }
        }
        // Elephant: the centre point and the home points; the edges are poor.
        2 => {
            if file == 4 && rank == 2 {
                (5, 5)
            } else if file == 0 || file == 8 {
                (-4, -4)
            } else if rank == 4 {
                (-2, -2)
            } else {
                (0, 0)
            }
        }
        // Horse: centre, forward, strongest on the points next to the enemy palace; poor on
        // the edges and on the enemy's back rank.
        3 => {
            let mut v = centre * 3;
            v += match rank {
                0 => -6,
                1 => -4,
                2 => 2,
                3 => 4,
                4 => 8,
                5 => 12,
                6 => 16,
                7 => 20,
                8 => 16,
                _ => 0,
            };
            if (rank == 7 || rank == 8) && file >= 2 && file <= 6 {
                v += 10;
            }
            if file == 0 || file == 8 {
                v -= 8;
            }
            (v, v / 2 + centre * 2)
        }
        // Rook: off the back rank, on the ribs and on the enemy's side of the river.
        4 => {
            let mut v = if rank > 0 { 6 } else { 0 };
            if file == 3 || file == 5 {
                v += 4;
            }
            if file == 4 {
                v += 2;
            }
            if rank >= 5 && rank <= 7 {
                v += 8;
            }
            if rank == 8 {
                v += 12;
            }
            (v, v / 2 + centre)
        }
        // Cannon: the central file; its home rank and the enemy's back rank.
        5 => {
            let mut v = 0;
            if file == 4 {
                v += 12;
            }
            if file == 3 || file == 5 {
                v += 2;
            }
            if rank == 9 {
                v += 6;
            }
            if rank >= 5 && rank <= 7 && file != 4 {
                v -= 3;
            }
            (v, v / 3)
        }
        // Pawn: worth much more once across the river, most next to the enemy palace; an old
        // pawn on the last rank is worth little.
        6 => {
            if rank < 5 {
                let v = if rank == 4 && (file == 2 || file == 4 || file == 6) {
                    4
                } else {
                    0
                };
                (v, v)
            } else {
                let near = if file >= 3 && file <= 5 { 14 } else { 0 };
                let adv = match rank {
                    5 => 20,
                    6 => 30,
                    7 => 38,
                    8 => 40,
                    _ => 8,
                };
                let edge = if file == 0 || file == 8 { -6 } else { 0 };
                let mg = adv + near + edge;
                (mg, mg + 15)
            }
        }
        _ => (0, 0),
    }
}

const fn build_pst() -> [[[i32; 256]; 7]; 2] {
    let mut t = [[[0i32; 256]; 7]; 2];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                let (mg, eg) = square_value(kind, file, rank);
                let mg = mg + MATERIAL_MG_EG[kind].0;
                let eg = eg + MATERIAL_MG_EG[kind].1;
                let red_sq = ((rank + 3) * 16 + file + 3) as usize;
                let black_sq = ((9 - rank + 3) * 16 + (8 - file) + 3) as usize;
                t[0][kind][red_sq] = pair(mg, eg);
                t[1][kind][black_sq] = pair(-mg, -eg);
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    t
}

/// `PST[side][kind][mailbox square]`: packed (opening, endgame) material + square values,
/// Red's positive, Black's negated, so their sum over the board is Red minus Black.
pub(crate) static PST: [[[i32; 256]; 7]; 2] = build_pst();

/// An ordering hint for a quiet move: how much it improves the mover's opening
/// piece-square value (a few dozen at most), so that before the history table has learnt
/// anything, developing moves come first.
#[inline]
pub(crate) fn quiet_hint(pos: &Position, mv: crate::Move) -> i32 {
    let p = pos.board[mv.from().raw()];
    let t = &PST[pos.side][kind_of(p) as usize];
    let gain = mg_of(t[mv.to().raw()]) - mg_of(t[mv.from().raw()]);
    if pos.side == 0 { gain } else { -gain }
}

/// Material + piece-square evaluation, side-to-move relative (zero-sum: no tempo bonus).
#[derive(Copy, Clone, Debug, Default)]
pub struct MaterialEval;

impl Evaluate<Position> for MaterialEval {
    fn evaluate(&self, position: &Position) -> Score {
        let s = position.material_psq();
        if position.side == 0 { s } else { -s }
    }
}

/// The engine's evaluation: tapered material and piece-square tables (incremental), king
/// safety, mobility of rooks, horses and cannons, crossed-pawn structure. Side-to-move
/// relative, zero-sum, in centi-units (100 = about a horse), always well inside
/// `-MAX_EVAL..=MAX_EVAL`.
///
/// ```
/// use game_core::Evaluate;
/// use xiangqi::{Eval, Position};
/// assert_eq!(Eval.evaluate(&Position::startpos()), 0);
/// let up = Position::from_fen("rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
/// assert!(Eval.evaluate(&up) > 80); // Red is a horse up
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Eval;

/// Per-unit weights of the dynamic terms.
const ROOK_MOBILITY: i32 = 2;
const HORSE_MOBILITY: i32 = 5;
const CANNON_MOBILITY: i32 = 1;
/// A horse with at most this many moves is trapped.
const HORSE_TRAPPED: i32 = 12;
/// A cannon on the enemy king's file with nothing between ("hollow cannon").
const HOLLOW_CANNON: i32 = 35;
/// Two crossed pawns side by side.
const CONNECTED_PAWNS: i32 = 12;

impl Eval {
    /// The score from Red's point of view: (opening, endgame) pair blended by phase.
    #[must_use]
    pub fn red_score(position: &Position) -> Score {
        let (mg, eg) = dynamic_terms(position);
        let mg = mg + mg_of(position.pst);
        let eg = eg + eg_of(position.pst);
        let phase = position.phase.clamp(0, PHASE_MAX);
        (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

impl Evaluate<Position> for Eval {
    #[inline]
    fn evaluate(&self, position: &Position) -> Score {
        let s = Eval::red_score(position);
        if position.side == 0 { s } else { -s }
    }
}

/// `sq + d` on the mailbox, wrapping in `u8` so indexing a 256-point board needs no bounds
/// check (the padding stops every walk before it wraps).
#[inline(always)]
fn step(sq: u8, d: u8) -> u8 {
    sq.wrapping_add(d)
}

/// The non-incremental terms, Red minus Black, (opening, endgame).
#[inline]
fn dynamic_terms(pos: &Position) -> (i32, i32) {
    let b = &pos.board;
    let mut mg = 0;
    let mut eg = 0;
    let mut force = [0i32; 2];
    let mut defenders = [(0i32, 0i32); 2];
    for side in 0..2 {
        let sign = if side == 0 { 1 } else { -1 };
        let base = 16usize << side;
        let own = 16u8 << side;
        let enemy_king = pos.pieces[32 >> side];
        let (mut smg, mut seg) = (0, 0);
        let mut f = 0;
        // Rooks: pseudo-legal destinations, from the occupancy bits of the rank and file.
        for slot in 7..9 {
            let from = pos.pieces[base + slot];
            if from == 0 {
                continue;
            }
            f += 3;
            let (file, rank) = coords(from);
            let mut mob = 0;
            for (line, geo) in lines(pos, file, rank) {
                mob += line.empties;
                mob += i32::from(line.first != NONE && b[at(geo, line.first)] & own == 0);
            }
            smg += ROOK_MOBILITY * (mob - 8);
            seg += ROOK_MOBILITY * (mob - 8);
        }
        // Cannons: quiet destinations, captures over a screen, the hollow cannon.
        for slot in 9..11 {
            let from = pos.pieces[base + slot];
            if from == 0 {
                continue;
            }
            f += 2;
            let (file, rank) = coords(from);
            let mut mob = 0;
            for (k, (line, geo)) in lines(pos, file, rank).into_iter().enumerate() {
                mob += line.empties;
                if line.second != NONE && b[at(geo, line.second)] & own == 0 {
                    mob += 2;
                }
                // Directions 2 and 3 run along the file.
                if k >= 2
                    && line.first != NONE
                    && at(geo, line.first) == enemy_king as usize
                    && line.empties >= 2
                {
                    smg += HOLLOW_CANNON;
                    seg += HOLLOW_CANNON / 3;
                }
            }
            smg += CANNON_MOBILITY * (mob - 6);
        }
        // Horses: destinations with a free leg, not on own pieces.
        for slot in 5..7 {
            let from = pos.pieces[base + slot];
            if from == 0 {
                continue;
            }
            f += 2;
            let mut mob = 0;
            for (leg, t1, t2) in [
                (16u8, 31u8, 33u8),
                (240, 225, 223),
                (1, 18, 242),
                (255, 238, 14),
            ] {
                if b[step(from, leg) as usize] != EMPTY {
                    continue;
                }
                for t in [t1, t2] {
                    let x = b[step(from, t) as usize];
                    if x != OFF && x & own == 0 {
                        mob += 1;
                    }
                }
            }
            smg += HORSE_MOBILITY * (mob - 3);
            seg += HORSE_MOBILITY * (mob - 3);
            if mob <= 1 {
                smg -= HORSE_TRAPPED;
                seg -= HORSE_TRAPPED;
            }
        }
        // Pawns across the river: attacking force, connected pairs.
        for slot in 11..16 {
            let sq = pos.pieces[base + slot] as usize;
            if sq == 0 {
                continue;
            }
            let crossed = (sq >= 0x80) == (side == 0);
            if crossed {
                f += 1;
                let right = b[(sq as u8).wrapping_add(1) as usize];
                if right & own != 0 && kind_of(right) == PAWN {
                    smg += CONNECTED_PAWNS;
                    seg += CONNECTED_PAWNS;
                }
            }
        }
        // Defenders at home.
        let adv = (1..3).filter(|&s| pos.pieces[base + s] != 0).count() as i32;
        let ele = (3..5).filter(|&s| pos.pieces[base + s] != 0).count() as i32;
        defenders[side] = (adv, ele);
        force[side] = f;
        mg += sign * smg;
        eg += sign * seg;
    }
    // King safety: each missing advisor / elephant costs more against more attacking force.
    for side in 0..2 {
        let sign = if side == 0 { 1 } else { -1 };
        let (adv, ele) = defenders[side];
        let attack = force[side ^ 1];
        let penalty = (2 - adv) * (4 + attack * 2) + (2 - ele) * (2 + attack);
        mg -= sign * penalty;
        eg -= sign * penalty / 2;
    }
    (mg, eg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same position with the colours swapped (board turned 180 degrees, cases swapped,
    /// the other side to move).
    fn colour_flipped(fen: &str) -> Position {
        let mut parts = fen.split(' ');
        let board: String = parts
            .next()
            .unwrap()
            .chars()
            .rev()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let side = if parts.next() == Some("w") { "b" } else { "w" };
        Position::from_fen_lenient(&format!("{board} {side} - - 0 1")).unwrap()
    }

    #[test]
    fn incremental_terms_match_and_eval_is_colour_symmetric() {
        for game in 0..30u64 {
            random_game(0x1234_5678_9abc_def1 ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        }
    }

    /// Plays a random game of up to 200 plies from `seed`, checking the incremental state,
    /// the capture generator and the evaluation's symmetry after every move, then takes it
    /// all back.
    fn random_game(mut seed: u64) {
        let mut pos = Position::startpos();
        let mut moves = Vec::new();
        let mut played = Vec::new();
        for _ in 0..200 {
            pos.legal_moves_into(&mut moves);
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = moves[(seed % moves.len() as u64) as usize];
            pos.play(mv);
            played.push(mv);
            assert_eq!(pos.pst_from_scratch(), (pos.pst, pos.phase));
            assert_eq!(pos.occupancy_from_scratch(), (pos.occ_rank, pos.occ_file));
            assert_eq!(pos.compute_in_check(), pos.in_check_by_walking());
            // The capture generator (occupancy bits for rooks and cannons) agrees with the
            // full generator.
            let mut caps = Vec::new();
            pos.legal_captures_into(&mut caps);
            let mut all = pos.legal_moves();
            all.retain(|m| pos.piece_on(m.to()).is_some());
            caps.sort();
            all.sort();
            assert_eq!(caps, all, "{pos:?}");
            let flipped = colour_flipped(&pos.to_fen());
            assert_eq!(Eval.evaluate(&pos), Eval.evaluate(&flipped), "{pos:?}");
            assert!(Eval.evaluate(&pos).abs() < 5000);
        }
        while let Some(mv) = played.pop() {
            pos.undo(mv);
        }
        assert_eq!(pos.pst_from_scratch(), (pos.pst, pos.phase));
        assert_eq!((pos.pst, pos.phase), (0, PHASE_MAX));
    }

    #[test]
    fn packed_pairs_round_trip() {
        for (mg, eg) in [(0, 0), (5, -7), (-300, 200), (1200, -1300), (-1, -1)] {
            let p = pair(mg, eg);
            assert_eq!((mg_of(p), eg_of(p)), (mg, eg));
            let q = pair(3, 4);
            assert_eq!((mg_of(p + q), eg_of(p + q)), (mg + 3, eg + 4));
        }
    }
}
