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
//!
//! Every number of [`Eval`] a tuner may move is a named entry of [`crate::weights::WEIGHTS`], and the score
//! is linear in them: each term is a weight times an integer coefficient (the [`Terms`] it
//! passes), so [`crate::tune`] can record the coefficients as features. [`MaterialEval`] has
//! fixed numbers.

use game_core::{Evaluate, Score};

use crate::line::{NONE, at, coords};
use crate::position::{EMPTY, OFF, PAWN, Position, kind_of, side_of};
use crate::pst::*;
pub use crate::pst::{MATERIAL, MATERIAL_MG_EG, PHASE_MAX};

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
/// `-MAX_EVAL..=MAX_EVAL`. Every weight is an entry of [`crate::weights::WEIGHTS`], and the
/// score is linear in them up to the final rounding (see [`crate::tune`]).
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

/// The evaluation's sums: (opening, endgame), Red minus Black.
struct Sums {
    mg: i32,
    eg: i32,
}

impl Terms for Sums {
    #[inline(always)]
    fn mg(&mut self, weight: usize, coefficient: i32) {
        self.mg += VALUES[weight] * coefficient;
    }

    #[inline(always)]
    fn eg(&mut self, weight: usize, coefficient: i32) {
        self.eg += VALUES[weight] * coefficient;
    }
}

impl Eval {
    /// The score from Red's point of view: (opening, endgame) pair blended by phase,
    /// `(mg × phase + eg × (PHASE_MAX − phase)) / PHASE_MAX` rounded toward zero.
    #[must_use]
    pub fn red_score(position: &Position) -> Score {
        let mut sums = Sums {
            mg: mg_of(position.pst),
            eg: eg_of(position.pst),
        };
        dynamic_terms(position, &mut sums);
        let phase = position.phase.clamp(0, PHASE_MAX);
        (sums.mg * phase + sums.eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

impl Evaluate<Position> for Eval {
    #[inline]
    fn evaluate(&self, position: &Position) -> Score {
        let s = Eval::red_score(position);
        if position.side == 0 { s } else { -s }
    }
}

/// The piece-square terms (material included) of every piece on the board, Red minus Black,
/// from scratch: what the incremental [`Position`] `pst` sums.
pub(crate) fn psq_terms<T: Terms>(pos: &Position, terms: &mut T) {
    for sq in crate::types::Square::all() {
        let p = pos.board[sq.raw()];
        if p == EMPTY {
            continue;
        }
        let (file, rank) = (i32::from(sq.file()), i32::from(sq.rank()));
        let kind = kind_of(p) as usize;
        if side_of(p) == 0 {
            square_terms(kind, file, rank).feed(1, terms);
        } else {
            square_terms(kind, 8 - file, 9 - rank).feed(-1, terms);
        }
    }
}

/// `sq + d` on the mailbox, wrapping in `u8` so indexing a 256-point board needs no bounds
/// check (the padding stops every walk before it wraps).
#[inline(always)]
fn step(sq: u8, d: u8) -> u8 {
    sq.wrapping_add(d)
}

/// The non-incremental terms, Red minus Black: mobility, trapped horses, hollow cannons,
/// connected crossed pawns, king safety.
#[inline]
pub(crate) fn dynamic_terms<T: Terms>(pos: &Position, terms: &mut T) {
    let b = &pos.board;
    let mut force = [0i32; 2];
    let mut defenders = [(0i32, 0i32); 2];
    for side in 0..2 {
        let sign = if side == 0 { 1 } else { -1 };
        let base = 16usize << side;
        let own = 16u8 << side;
        let enemy_king = pos.pieces[32 >> side];
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
            for (line, geo) in pos.lines(file, rank) {
                mob += line.empties;
                mob += i32::from(line.first != NONE && b[at(geo, line.first)] & own == 0);
            }
            terms.both(W_MOBILITY_ROOK, sign * (mob - 8));
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
            for (k, (line, geo)) in pos.lines(file, rank).into_iter().enumerate() {
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
                    terms.both(W_CANNON_HOLLOW, sign);
                }
            }
            terms.both(W_MOBILITY_CANNON, sign * (mob - 6));
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
            terms.both(W_MOBILITY_HORSE, sign * (mob - 3));
            if mob <= 1 {
                terms.both(W_HORSE_TRAPPED, sign);
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
                    terms.both(W_PAWN_CONNECTED, sign);
                }
            }
        }
        // Defenders at home.
        let adv = (1..3).filter(|&s| pos.pieces[base + s] != 0).count() as i32;
        let ele = (3..5).filter(|&s| pos.pieces[base + s] != 0).count() as i32;
        defenders[side] = (adv, ele);
        force[side] = f;
    }
    // King safety: each missing advisor / elephant costs more against more attacking force
    // (the attacking force counts rooks 3, horses and cannons 2, crossed pawns 1).
    for side in 0..2 {
        let sign = if side == 0 { 1 } else { -1 };
        let (adv, ele) = defenders[side];
        let attack = force[side ^ 1];
        let (missing_adv, missing_ele) = (2 - adv, 2 - ele);
        terms.both(W_SAFETY_ADVISOR, sign * missing_adv);
        terms.both(W_SAFETY_ADVISOR_ATTACK, sign * missing_adv * attack);
        terms.both(W_SAFETY_ELEPHANT, sign * missing_ele);
        terms.mg(W_SAFETY_ELEPHANT_ATTACK, sign * missing_ele * attack);
        terms.eg(
            W_SAFETY_ELEPHANT_ATTACK_HALF,
            sign * (missing_ele * attack / 2),
        );
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The same position with the colours swapped (board turned 180 degrees, cases swapped,
    /// the other side to move).
    pub(crate) fn colour_flipped(fen: &str) -> Position {
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
