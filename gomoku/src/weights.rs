//! The weights of the gomoku evaluation: name, value, and the range a tuner may move it in.
//! Tuned by `qi tune gomoku --data free-d4-s11.txt renju-d4-s12.txt --epochs 600 --threads 2 --out
//! /work/main/gomoku/src/weights.rs`
//! from 42799 positions of self-play (K = 0.001939; mean squared error 0.197777 with the previous
//! weights, 0.126014 with these and a first-side advantage of 263). The data came from:
//! - `qi selfplay gomoku --games 1500 --depth 4 --threads 2 --seed 11 --out free-d4-s11.txt`
//! - `qi selfplay renju --games 1500 --depth 4 --threads 2 --seed 12 --out renju-d4-s12.txt`
//!
//! Written by `qi tune`; edit by hand only to change a range or to add a weight.

use game_core::tune::Weight;

/// The evaluation weights, in the order [`crate::tune`]'s feature indices use.
pub const WEIGHTS: [Weight; 28] = [
    Weight::new("pattern.dead", 0, 0, 0),
    Weight::new("pattern.overline", 0, 0, 0),
    Weight::new("pattern.B1", 8, 0, 40),
    Weight::new("pattern.F1", 0, 0, 40),
    Weight::new("pattern.B2", 0, 0, 100),
    Weight::new("pattern.F2", 0, 0, 200),
    Weight::new("pattern.B3", 30, 0, 300),
    Weight::new("pattern.F3", 116, 0, 800),
    Weight::new("pattern.B4", 167, 0, 800),
    Weight::new("pattern.F4", 385, 0, 3000),
    Weight::new("pattern.F5", 1000, 0, 5000),
    Weight::new("pattern.double_four", 0, 0, 0),
    Weight::new("class.four_three", 810, 0, 4000),
    Weight::new("class.double_three", 0, 0, 3000),
    Weight::new("class.open_four", 871, 0, 5000),
    Weight::new("class.five", 2000, 0, 8000),
    Weight::new("class.cooperation", 33, 0, 300),
    Weight::new("window.1", 0, 0, 50),
    Weight::new("window.2", 13, 0, 200),
    Weight::new("window.3", 93, 0, 800),
    Weight::new("window.4", 462, 0, 3000),
    Weight::new("window.5", 1000, 1000, 1000),
    Weight::new("threat.four_three", 963, 0, 4000),
    Weight::new("threat.double_three", 111, 0, 3000),
    Weight::new("threat.three", 226, 0, 500),
    Weight::new("threat.opponent_four_three", 474, 0, 4000),
    Weight::new("threat.opponent_open_four", 689, 0, 3000),
    Weight::new("threat.opponent_double_three", 17, 0, 3000),
];
