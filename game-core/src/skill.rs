//! Playing below full strength: a weakened engine searches several principal variations
//! ([`Limits::multipv`](crate::search::Limits::multipv)) and plays one of them, chosen with a
//! weakness-scaled, seeded random push ([`Skill::choose`]) — Stockfish's "Skill Level"
//! method (`Skill::pick_best`): the weaker the level, the more a line's score deficit is
//! forgiven and the larger the random push, so a weak engine plays the plausible second-best
//! move of a human, not a random one. Unlike Stockfish, the deficit forgiven is capped at two
//! `unit`s, so a line about three units worse than the best (a lost piece, a missed win) is
//! never chosen.

use crate::Score;
use crate::search::{PvLine, SearchResult};
use crate::zobrist::SplitMix64;

/// The largest weakness: the score deficit of a line is forgiven almost entirely (120/128).
pub const MAX_WEAKNESS: i32 = 120;

/// How a weakened engine chooses among its lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skill {
    /// Lines searched (MultiPV), at least 1.
    pub multipv: u32,
    /// 0 (always the best line) to [`MAX_WEAKNESS`] (deficits forgiven, large random
    /// pushes).
    pub weakness: i32,
    /// The game's "pawn" in its evaluation units: the largest random push a line gets
    /// (xiangqi 100, a horse in centipawns... the game says; a stone game's open three).
    pub unit: Score,
    /// The seed of the choices: the same seed, position and lines give the same choice.
    pub seed: u64,
}

impl Skill {
    /// The index in `lines` (best first, as a MultiPV search returns them) of the line to
    /// play in the position with Zobrist key `key`: each line `i` scores
    /// `score_i + (weakness * min(top - score_i, 2 unit) + delta * r_i) / 128` with `r_i`
    /// uniform in `0..weakness` and `delta = min(top - worst, unit)`, and the highest wins
    /// (the later one on a tie, as in Stockfish). Deterministic in `seed`, `key` and the lines. Returns
    /// 0 for an empty or one-line list, or a weakness of 0.
    #[must_use]
    pub fn choose<M>(&self, lines: &[PvLine<M>], key: u64) -> usize {
        if lines.len() < 2 || self.weakness <= 0 {
            return 0;
        }
        let weakness = i64::from(self.weakness.min(MAX_WEAKNESS));
        let top = i64::from(lines[0].score);
        let worst = i64::from(lines[lines.len() - 1].score);
        let delta = (top - worst).min(i64::from(self.unit.max(0)));
        let mut rng = SplitMix64::new(self.seed ^ key.rotate_left(17));
        let mut best = 0;
        let mut best_value = i64::MIN;
        for (i, line) in lines.iter().enumerate() {
            let (r, next) = rng.next();
            rng = next;
            let score = i64::from(line.score);
            let forgiven = (top - score).min(2 * i64::from(self.unit.max(0)));
            let push = (weakness * forgiven + delta * (r % weakness as u64) as i64) / 128;
            if score + push >= best_value {
                best_value = score + push;
                best = i;
            }
        }
        best
    }
}

impl<M: Copy> SearchResult<M> {
    /// This result with the line a weakened engine's `skill` chooses
    /// ([`Skill::choose`], in the position with Zobrist key
    /// `key`) as its best move, ponder move, score and principal variation; unchanged without
    /// a skill or when the skill keeps the best line. [`lines`](SearchResult::lines) stays.
    #[must_use]
    pub fn play_line(self, skill: Option<Skill>, key: u64) -> Self {
        let chosen = skill.map_or(0, |k| k.choose(&self.lines, key));
        match self.lines.get(chosen) {
            Some(line) if chosen > 0 => SearchResult {
                best_move: line.pv.first().copied(),
                ponder_move: line.pv.get(1).copied(),
                score: line.score,
                pv: line.pv.clone(),
                ..self
            },
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(scores: &[Score]) -> Vec<PvLine<u8>> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| PvLine {
                score,
                pv: vec![i as u8],
            })
            .collect()
    }

    #[test]
    fn choices_are_deterministic_and_scale_with_weakness() {
        let l = lines(&[50, 40, 20, -10]);
        let skill = |weakness| Skill {
            multipv: 4,
            weakness,
            unit: 100,
            seed: 7,
        };
        // Full strength: always the best line.
        assert!((0..200).all(|key| skill(0).choose(&l, key) == 0));
        // The same seed and key: the same choice.
        for key in 0..50 {
            assert_eq!(skill(120).choose(&l, key), skill(120).choose(&l, key));
        }
        // Weaker: more often not the best line; the weakest plays every line sometimes.
        let off_best = |w| (0..1000).filter(|&k| skill(w).choose(&l, k) != 0).count();
        let (mild, weak) = (off_best(30), off_best(120));
        assert!(mild < weak, "{mild} {weak}");
        for i in 1..4 {
            assert!((0..1000).any(|k| skill(120).choose(&l, k) == i), "line {i}");
        }
        // Another seed, other choices.
        let other = Skill {
            seed: 8,
            ..skill(120)
        };
        assert!((0..100).any(|k| other.choose(&l, k) != skill(120).choose(&l, k)));
    }

    #[test]
    fn a_line_three_units_worse_is_never_chosen() {
        // A lost piece (-900 against +20) is never played, however weak.
        let l = lines(&[20, 10, -270, -900]);
        let skill = Skill {
            multipv: 4,
            weakness: MAX_WEAKNESS,
            unit: 100,
            seed: 1,
        };
        assert!((0..2000).all(|k| skill.choose(&l, k) < 2));
        assert_eq!(skill.choose(&lines(&[5]), 3), 0);
    }
}
