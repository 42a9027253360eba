//! The weights of the gomoku evaluation ([`crate::Board::evaluate`]): name, value, and the
//! range a tuner may move it in. Hand-set; no tuning run yet.
//!
//! Written by `qi tune`; edit by hand only to change a range or to add a weight.

use game_core::tune::Weight;

/// The evaluation weights, in the order [`crate::tune`]'s feature indices use.
pub const WEIGHTS: [Weight; 28] = [
    Weight::new("pattern.dead", 0, 0, 0),
    Weight::new("pattern.overline", 0, 0, 0),
    Weight::new("pattern.B1", 1, 0, 40),
    Weight::new("pattern.F1", 2, 0, 40),
    Weight::new("pattern.B2", 3, 0, 100),
    Weight::new("pattern.F2", 8, 0, 200),
    Weight::new("pattern.B3", 12, 0, 300),
    Weight::new("pattern.F3", 60, 0, 800),
    Weight::new("pattern.B4", 60, 0, 800),
    Weight::new("pattern.F4", 300, 0, 3000),
    Weight::new("pattern.F5", 1000, 0, 5000),
    Weight::new("pattern.double_four", 0, 0, 0),
    Weight::new("class.four_three", 500, 0, 4000),
    Weight::new("class.double_three", 300, 0, 3000),
    Weight::new("class.open_four", 800, 0, 5000),
    Weight::new("class.five", 2000, 0, 8000),
    Weight::new("class.cooperation", 30, 0, 300),
    Weight::new("window.1", 2, 0, 50),
    Weight::new("window.2", 12, 0, 200),
    Weight::new("window.3", 60, 0, 800),
    Weight::new("window.4", 250, 0, 3000),
    Weight::new("window.5", 1000, 1000, 1000),
    Weight::new("threat.four_three", 800, 0, 4000),
    Weight::new("threat.double_three", 500, 0, 3000),
    Weight::new("threat.three", 40, 0, 500),
    Weight::new("threat.opponent_four_three", 600, 0, 4000),
    Weight::new("threat.opponent_open_four", 250, 0, 3000),
    Weight::new("threat.opponent_double_three", 300, 0, 3000),
];
