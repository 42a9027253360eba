//! Wu & Huang's threat-based evaluation.

use game_core::{Evaluate, Score};

use crate::board::Connect6;
use crate::tune;
use crate::weights::WEIGHTS;

/// Static score of a position the side to move wins on this turn (a six it can complete),
/// or loses next turn (more opposing threats than stones left to block): decisive but below
/// the search's mate scores.
pub const DECISIVE: Score = 20_000;

/// Bonus per stone the side to move still places this turn (tempo; hand-set to about a two's
/// value): the `tempo.stone` weight.
const TEMPO: Score = WEIGHTS[tune::TEMPO].value;

/// The connect6 evaluation (Wu & Huang, "A New Family of k-in-a-row Games", 2005): every
/// 6-window holding only one side's stones scores by how many it holds (the `window.1` ..
/// `window.5` weights of [`WEIGHTS`]; Wu & Huang's 1, 12, 60, 300, 300 until tuned), summed per
/// side and kept incrementally by [`Connect6`]; the score is the side to move's sum minus the
/// opponent's, plus a tempo per stone in hand (`tempo.stone`). Linear in the weights outside
/// the decisive cases (see [`crate::tune`]). Threats decide:
/// a six completable this turn scores [`DECISIVE`], more opposing threats than stones left to
/// block scores `-DECISIVE`. Zero-sum by construction; |score| <= [`DECISIVE`].
#[derive(Copy, Clone, Debug, Default)]
pub struct ThreatEval;

impl Evaluate<Connect6> for ThreatEval {
    fn evaluate(&self, pos: &Connect6) -> Score {
        if pos.can_win_now() {
            return DECISIVE;
        }
        let side = pos.to_move();
        let left = pos.stones_left();
        if pos.threat_count(side.opponent()) > left {
            return -DECISIVE;
        }
        let s = side.index();
        let score = pos.sums[s] - pos.sums[1 - s] + TEMPO * Score::from(left);
        score.clamp(-DECISIVE + 1, DECISIVE - 1)
    }
}
