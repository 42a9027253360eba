//! The engine evaluation [`Eval`] as a linear function of [`WEIGHTS`], for Texel tuning
//! ([`game_core::tune`]).
//!
//! Every term of [`Eval`] is a weight times an integer count, Red's minus Black's:
//! - `material.*` and the piece-square terms (`king.*`, `advisor.*`, `elephant.*`,
//!   `horse.centre` .. `horse.rank8`, `rook.*`, `cannon.centre_file` .. `cannon.rib_river`,
//!   `pawn.bank` .. `pawn.edge`): the pieces of a kind, or on a region of the board, counted
//!   from each side's own view (Black's board turned 180 degrees); `horse.centre` and
//!   `rook.centre` count file steps towards the centre (0 on an edge file .. 4), `king.rank`
//!   ranks off the back rank;
//! - `mobility.*`: destinations above a par (rook 8, horse 3, cannon 6, a cannon's capture
//!   counting 2), per piece, so negative for a cramped piece;
//! - `horse.trapped`, `cannon.hollow`, `pawn.connected`: trapped horses (at most one
//!   destination), cannons facing the enemy king over at least two empty points, crossed
//!   pawns with a crossed pawn of their side on their right;
//! - `safety.*`: per missing advisor or elephant, alone and times the opponent's attacking
//!   force (rooks 3, horses and cannons 2, crossed pawns 1); the endgame elephant term
//!   `safety.elephant_attack_half` counts half that product, rounded down. The plain
//!   `safety.advisor` and `safety.elephant` counts are the `material.advisor` and
//!   `material.elephant` ones negated (a side has two of each at most), so they are fixed and
//!   material carries that direction.
//!
//! The evaluation blends an opening sum and an endgame sum by the game phase `p`
//! ([`Position::phase`], 0..=[`PHASE_MAX`] = 32): `(mg · p + eg · (32 − p)) / 32`. So the
//! feature of an `.mg` weight is its count times `p`, that of an `.eg` weight its count times
//! `32 − p`, and [`FEATURE_SCALE`](Tunable::FEATURE_SCALE) is 32. Features are from the side
//! to move's view: Red's counts as they are when Red is to move, negated when Black is.
//!
//! Rounding: [`Eval`] divides Red's sum by 32 toward zero and negates the result when Black is
//! to move, so the static evaluation is `floor(Σ / 32)` or one more (never less): exactly
//! `floor` when the side to move's sum is a multiple of 32 or it is Red to move with a
//! positive sum or Black to move with a negative one. No other rounding is involved:
//! [`features`](Tunable::features) always returns `true`.

use game_core::tune::{Features, Tunable, Weight};
use game_core::{Evaluate, Score};

use crate::eval::{dynamic_terms, psq_terms};
use crate::pst::Terms;
use crate::weights::WEIGHTS;
use crate::{Eval, PHASE_MAX, Position, START_FEN};

/// Per-weight counts of one position, Red minus Black, for each half.
struct Counts {
    mg: [i32; WEIGHTS.len()],
    eg: [i32; WEIGHTS.len()],
}

impl Terms for Counts {
    fn mg(&mut self, weight: usize, coefficient: i32) {
        self.mg[weight] += coefficient;
    }

    fn eg(&mut self, weight: usize, coefficient: i32) {
        self.eg[weight] += coefficient;
    }
}

impl Tunable for Position {
    const GAME: &'static str = "xiangqi";

    /// [`PHASE_MAX`] (32): the divisor of the phase blend.
    const FEATURE_SCALE: i32 = PHASE_MAX;

    /// [`WEIGHTS`].
    fn weights() -> &'static [Weight] {
        &WEIGHTS
    }

    /// [`Eval`]'s score for the side to move.
    fn static_eval(&self) -> Score {
        Eval.evaluate(self)
    }

    /// The counts of the module documentation, from scratch (walking the board), times the
    /// phase (`.mg` weights) or 32 minus the phase (`.eg` weights), from the side to move's
    /// view; zero coefficients are left out, each weight appears at most once. Always `true`:
    /// the evaluation has no special case.
    fn features(&self, out: &mut Features) -> bool {
        out.clear();
        let mut counts = Counts {
            mg: [0; WEIGHTS.len()],
            eg: [0; WEIGHTS.len()],
        };
        psq_terms(self, &mut counts);
        dynamic_terms(self, &mut counts);
        let phase = self.phase().clamp(0, PHASE_MAX);
        let sign = if self.side == 0 { 1 } else { -1 };
        for (k, (mg, eg)) in counts.mg.iter().zip(&counts.eg).enumerate() {
            let c = sign * (mg * phase + eg * (PHASE_MAX - phase));
            if c != 0 {
                out.push((k as u16, c));
            }
        }
        true
    }

    /// The FEN ([`Position::to_fen`]).
    fn to_text(&self) -> String {
        self.to_fen()
    }

    /// A FEN ([`Position::from_fen`]); the game history is not part of it.
    fn from_text(text: &str) -> Result<Self, String> {
        Position::from_fen(text.trim())
            .map_err(|e| format!("{e}; expected a xiangqi FEN such as {START_FEN}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::tune::dot;

    /// Positions of seeded random games (up to 160 plies each, every ply).
    fn sample_positions(games: u64) -> Vec<Position> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for game in 0..games {
            let mut seed = 0x2545_f491_4f6c_dd1d ^ game.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            let mut pos = Position::startpos();
            for _ in 0..160 {
                pos.legal_moves_into(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play(moves[(seed % moves.len() as u64) as usize]);
                out.push(pos.clone());
            }
        }
        out
    }

    fn values() -> Vec<i32> {
        WEIGHTS.iter().map(|w| w.value).collect()
    }

    fn features_of(pos: &Position) -> Features {
        let mut f = Features::new();
        assert!(pos.features(&mut f));
        f
    }

    fn index(name: &str) -> usize {
        WEIGHTS.iter().position(|w| w.name == name).unwrap()
    }

    /// The contract: static eval = floor(dot / 32) up to the evaluation's own rounding.
    /// Tolerance: the evaluation may be 1 above `floor(dot / 32)`, never below and never
    /// more, because `Eval` divides Red's sum toward zero and then negates it for Black, so
    /// it rounds up (toward zero from the side to move's view) whenever the side to move's sum
    /// is negative with Red to move or positive with Black to move. That model is asserted
    /// exactly too.
    #[test]
    fn static_eval_is_the_feature_sum_over_32() {
        let values = values();
        let positions = sample_positions(24);
        assert!(positions.len() > 2000);
        let (mut rounded_up, mut black) = (0, 0);
        for pos in &positions {
            let f = features_of(pos);
            let sum = dot(&values, &f);
            let eval = i64::from(pos.static_eval());
            let scale = i64::from(Position::FEATURE_SCALE);
            let sign = if pos.side == 0 { 1 } else { -1 };
            black += usize::from(pos.side == 1);
            // Exactly what `Eval` computes: Red's sum, truncated, turned to the side to move.
            assert_eq!(eval, sign * ((sign * sum) / scale), "{}", pos.to_fen());
            let floor = sum.div_euclid(scale);
            assert!(eval == floor || eval == floor + 1, "{}", pos.to_fen());
            rounded_up += usize::from(eval == floor + 1);
        }
        // Both sides to move were seen, and the +1 case is real.
        assert!(black > 1000 && black < positions.len() - 1000);
        assert!(rounded_up > 100, "{rounded_up}");
    }

    #[test]
    fn features_are_side_to_move_relative() {
        for pos in sample_positions(4) {
            let mut a = features_of(&pos);
            let mut b = features_of(&crate::eval::tests::colour_flipped(&pos.to_fen()));
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{}", pos.to_fen());
        }
        // The start position is symmetric: every count cancels.
        assert!(features_of(&Position::startpos()).is_empty());
        assert_eq!(Position::startpos().static_eval(), 0);
    }

    #[test]
    fn material_features_count_pieces_times_phase() {
        // Black lacks a horse: phase 30, so a horse's opening count is 30, its endgame one 2.
        let fen = "rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let red = Position::from_fen(fen).unwrap();
        assert_eq!(red.phase(), 30);
        let f = features_of(&red);
        let coef = |f: &Features, name: &str| {
            let k = index(name) as u16;
            f.iter()
                .filter(|&&(i, _)| i == k)
                .map(|&(_, c)| c)
                .sum::<i32>()
        };
        assert_eq!(coef(&f, "material.horse.mg"), 30);
        assert_eq!(coef(&f, "material.horse.eg"), 2);
        assert_eq!(coef(&f, "material.rook.mg"), 0);
        // The h-file horse's home point (h0) is Red's alone now.
        assert_eq!(coef(&f, "horse.home.eg"), 2);
        // Black to move: the same counts, negated.
        let black = Position::from_fen(&fen.replace(" w ", " b ")).unwrap();
        let g = features_of(&black);
        assert_eq!(coef(&g, "material.horse.mg"), -30);
        assert_eq!(coef(&g, "material.horse.eg"), -2);
    }

    #[test]
    fn one_weight_moves_the_sum_by_its_coefficient() {
        // Red's rook on h6 is far more mobile than any Black rook.
        let pos = Position::from_fen(crate::bench::BENCH_FENS[2]).unwrap();
        let f = features_of(&pos);
        let k = index("mobility.rook.mg");
        let total: i32 = f
            .iter()
            .filter(|&&(i, _)| usize::from(i) == k)
            .map(|&(_, c)| c)
            .sum();
        assert!(total > 0, "{total}");
        let base = values();
        for d in [1, -3, 17] {
            let mut moved = base.clone();
            moved[k] += d;
            assert_eq!(
                dot(&moved, &f) - dot(&base, &f),
                i64::from(d) * i64::from(total)
            );
        }
    }

    #[test]
    fn every_movable_weight_has_features() {
        let mut seen = vec![false; WEIGHTS.len()];
        for pos in sample_positions(24) {
            for (i, _) in features_of(&pos) {
                seen[usize::from(i)] = true;
            }
        }
        for (w, seen) in WEIGHTS.iter().zip(seen) {
            assert!(seen || w.min == w.max, "{} never has a feature", w.name);
        }
    }

    /// Why `safety.advisor` and `safety.elephant` are fixed: their counts duplicate material.
    #[test]
    fn missing_defenders_mirror_material() {
        let pairs = [
            ("safety.advisor", "material.advisor"),
            ("safety.elephant", "material.elephant"),
        ];
        let mut nonzero = 0;
        for pos in sample_positions(8) {
            let f = features_of(&pos);
            let coef = |name: &str| {
                let k = index(name) as u16;
                f.iter()
                    .filter(|&&(i, _)| i == k)
                    .map(|&(_, c)| c)
                    .sum::<i32>()
            };
            for (safety, material) in pairs {
                for half in [".mg", ".eg"] {
                    let c = coef(&format!("{material}{half}"));
                    assert_eq!(coef(&format!("{safety}{half}")), -c, "{}", pos.to_fen());
                    nonzero += usize::from(c != 0);
                }
            }
        }
        assert!(nonzero > 100, "{nonzero}");
        for (safety, _) in pairs {
            for half in [".mg", ".eg"] {
                let w = &WEIGHTS[index(&format!("{safety}{half}"))];
                assert_eq!(w.min, w.max, "{}", w.name);
            }
        }
    }

    #[test]
    fn weights_are_named_and_in_range() {
        assert!(WEIGHTS.len() <= 150);
        let mut names = std::collections::HashSet::new();
        for w in &WEIGHTS {
            assert!(names.insert(w.name), "{} twice", w.name);
            assert!(
                w.name.bytes().all(|b| b.is_ascii_graphic()),
                "{} is not ASCII without spaces",
                w.name
            );
            let parts: Vec<&str> = w.name.split('.').collect();
            assert!(
                (2..=3).contains(&parts.len()) && parts.iter().all(|p| !p.is_empty()),
                "{}",
                w.name
            );
            if parts.len() == 3 {
                assert!(parts[2] == "mg" || parts[2] == "eg", "{}", w.name);
            }
            assert!(
                w.min <= w.value && w.value <= w.max,
                "{} out of range",
                w.name
            );
        }
        // The king's material cannot move.
        for name in ["material.king.mg", "material.king.eg"] {
            let w = &WEIGHTS[index(name)];
            assert_eq!((w.min, w.value, w.max), (0, 0, 0));
        }
        assert_eq!(Position::weights().len(), WEIGHTS.len());
        assert_eq!(Position::GAME, "xiangqi");
        assert_eq!(Position::FEATURE_SCALE, 32);
    }

    #[test]
    fn text_round_trips() {
        for pos in sample_positions(2).iter().step_by(7) {
            let text = pos.to_text();
            assert!(!text.contains('\t') && !text.contains('\n'));
            let back = Position::from_text(&text).unwrap();
            assert_eq!(back.to_text(), text);
            assert!(back == *pos);
            assert_eq!(features_of(&back), features_of(pos));
        }
        let err = Position::from_text("rnbakabnr/9 w").unwrap_err();
        assert!(err.contains("expected a xiangqi FEN"), "{err}");
    }
}
