//! The threat-based window evaluation (after Wu & Huang), with values that depend on whose
//! window it is and on the stones left in the turn.

use game_core::{Evaluate, Score};

use crate::board::Connect6;
use crate::features::{TEMPO, max_own, opp, opp_threats, own, own_threats};
use crate::geometry::WIN;
use crate::weights::WEIGHTS;

/// Static score of a position the side to move wins on this turn (a six it can complete),
/// or loses next turn (more opposing threats than stones left to block): decisive but below
/// the search's mate scores.
pub const DECISIVE: Score = 20_000;

/// Bonus per stone the side to move still places this turn: the `tempo.stone` weight.
const TEMPO_VALUE: Score = WEIGHTS[TEMPO].value;

/// Window values by stones left (1 or 2; row 0 unused) and stone count: `OWN` for the side to
/// move's windows (0 past [`max_own`]), `OPP` for the opponent's.
const OWN: [[Score; WIN + 1]; 3] = window_table(true);
const OPP: [[Score; WIN + 1]; 3] = window_table(false);

const fn window_table(own_side: bool) -> [[Score; WIN + 1]; 3] {
    let mut t = [[0; WIN + 1]; 3];
    let mut left = 1u8;
    while left <= 2 {
        let mut n = 1;
        while n < WIN {
            if own_side && n <= max_own(left) {
                t[left as usize][n] = WEIGHTS[own(left, n)].value;
            } else if !own_side {
                t[left as usize][n] = WEIGHTS[opp(left, n)].value;
            }
            n += 1;
        }
        left += 1;
    }
    t
}

/// The cost of the opponent's threats by stones left and threat count (0 for none).
const OPP_THREATS: [[Score; 3]; 3] = [
    [0; 3],
    [0, WEIGHTS[opp_threats(1, 1)].value, 0],
    [
        0,
        WEIGHTS[opp_threats(2, 1)].value,
        WEIGHTS[opp_threats(2, 2)].value,
    ],
];

/// The value of the side to move's own threats with one stone left, by threat count capped
/// at 2.
const OWN_THREATS: [Score; 3] = [
    0,
    WEIGHTS[own_threats(1)].value,
    WEIGHTS[own_threats(2)].value,
];

/// The connect6 evaluation (after Wu & Huang, "A New Family of k-in-a-row Games", 2005):
/// every 6-window holding only one side's stones scores by how many it holds, with separate
/// values for the side to move's windows and the opponent's, and for one or two stones left
/// in the turn (the `turn{1,2}_{own,opp}.n` weights of [`WEIGHTS`]); the opponent's threats
/// ([`Connect6::threat_count`]) cost `turn{1,2}_opp_threats.k`, the side to move's own
/// threats with one stone left are worth `turn1_own_threats.k`, and every stone in hand
/// `tempo.stone`. Window counts are kept incrementally by [`Connect6`]. Linear in the weights
/// outside the decisive cases (see [`crate::tune`]). Threats decide: a six completable this
/// turn scores [`DECISIVE`], more opposing threats than stones left scores `-DECISIVE`.
/// |score| <= [`DECISIVE`].
#[derive(Copy, Clone, Debug, Default)]
pub struct ThreatEval;

impl Evaluate<Connect6> for ThreatEval {
    fn evaluate(&self, pos: &Connect6) -> Score {
        if pos.can_win_now() {
            return DECISIVE;
        }
        let side = pos.to_move();
        let left = pos.stones_left();
        let threats = pos.threat_count(side.opponent());
        if threats > left {
            return -DECISIVE;
        }
        let l = usize::from(left);
        let own = &pos.counts[side.index()];
        let opp = &pos.counts[1 - side.index()];
        let mut score = TEMPO_VALUE * Score::from(left) - OPP_THREATS[l][usize::from(threats)];
        for n in 1..WIN {
            score += OWN[l][n] * own[n] - OPP[l][n] * opp[n];
        }
        if left == 1 {
            score += OWN_THREATS[usize::from(pos.threat_count(side).min(2))];
        }
        score.clamp(-DECISIVE + 1, DECISIVE - 1)
    }
}
