//! The evaluation: threats (empty cells that would complete four), valued by the row parity
//! that decides Connect Four endgames, plus open windows and the centre.
//!
//! Allis's analysis ("A Knowledge-Based Approach of Connect-Four", 1988) shows that with the
//! columns filling up, the first player gets the odd rows (1st, 3rd, 5th from the bottom) and
//! the second the even ones: a first-player threat on an odd row, or a second-player threat
//! on an even row, is the kind that wins in the end. Hand-set weights, zero-sum by
//! construction (each side's features minus the other's).

use game_core::{Evaluate, Score, Side};

use crate::board::ConnectFour;

/// A threat on a row of the side's parity (odd rows for the first player, even for the second).
const GOOD_THREAT: i32 = 60;
/// A threat on a row of the other parity.
const OTHER_THREAT: i32 = 25;
/// A window of four cells holding three stones of one side and no enemy stone.
const THREE: i32 = 6;
/// A window holding two stones of one side and no enemy stone.
const TWO: i32 = 2;
/// A stone in the centre column.
const CENTRE: i32 = 3;

/// The Connect Four evaluator for the shared search: [`ConnectFour::evaluate`].
#[derive(Copy, Clone, Debug, Default)]
pub struct Evaluator;

impl Evaluate<ConnectFour> for Evaluator {
    #[inline]
    fn evaluate(&self, position: &ConnectFour) -> Score {
        position.evaluate()
    }
}

impl ConnectFour {
    /// The static score for the side to move, in evaluation units (a good threat is 60):
    /// its features minus the opponent's, where a side's features are its threats (by row
    /// parity), its open windows of two and three stones, and its stones in the centre.
    #[must_use]
    pub fn evaluate(&self) -> Score {
        let me = game_core::Position::side_to_move(self);
        self.features(me) - self.features(me.opponent())
    }

    /// One side's feature sum (see [`ConnectFour::evaluate`]).
    fn features(&self, side: Side) -> i32 {
        let stride = self.stride();
        let threats = self.winning_cells(side);
        let odd_rows = self.odd_rows_mask();
        let good = if side == Side::First {
            odd_rows
        } else {
            self.board_mask() & !odd_rows
        };
        let mut v = GOOD_THREAT * (threats & good).count_ones() as i32
            + OTHER_THREAT * (threats & !good).count_ones() as i32;
        let own = self.stones(side);
        let theirs = self.stones(side.opponent());
        let board = self.board_mask();
        for d in [1, stride, stride - 1, stride + 1] {
            // Every window of four cells `first, first+d, first+2d, first+3d` on the board.
            for first in 0..64 - 3 * d {
                let w = (1u64 | 1 << d | 1 << (2 * d) | 1 << (3 * d)) << first;
                if w & board != w || w & theirs != 0 {
                    continue;
                }
                match (w & own).count_ones() {
                    3 => v += THREE,
                    2 => v += TWO,
                    _ => {}
                }
            }
        }
        if self.width() % 2 == 1 {
            let col = self.width() / 2;
            let mut centre = 0u64;
            for row in 0..self.height() {
                centre |= self.bit(col, row);
            }
            v += CENTRE * (own & centre).count_ones() as i32;
        }
        v
    }
}
