//! The weights of the connect6 evaluation: name, value, and the range a tuner may move it in.
//! Tuned by `qi tune connect6 --data train2.txt sp1-part.txt --epochs 800 --lr 5 --threads 2`,
//! starting from the previous fit, on 22,522 positions (K = 0.001658; mean squared error
//! 0.149888 with the previous weights, 0.143458 with these and a first-side advantage of 82;
//! on 2,262 positions of 60 held-out games, 0.1737 -> 0.1714). The data came from:
//! - `train2.txt`: 656 games of qi (earlier builds) against Cloudict (depth 4) at 500 ms a move
//!   (`qi match connect6 ... --records`), every position after the opening at the start of a
//!   turn and after its first stone;
//! - `sp1-part.txt`: 130 games of `qi selfplay connect6 --nodes 20000 --threads 2 --seed 61`.
//!
//! Changed by hand afterwards (docs/experiments.md, "iterations by whole turns, and style
//! against strength", 2026-12-05): the opponent's windows
//! of two and three (`turn{1,2}_opp.{2,3}`, fitted 14, 40, 39, 66) are worth twice the fit.
//! The fit predicts results; against Cloudict (480 games over two builds) the doubled values
//! won as many games in all and more as White.
//!
//! Written by `qi tune`; edit by hand only to change a range or to add a weight (or, as
//! above, when a match says so).

use game_core::tune::Weight;

/// The weights of the connect6 evaluation, in the order [`crate::tune`]'s feature indices use.
#[rustfmt::skip]
#[allow(clippy::large_const_arrays)]
pub const WEIGHTS: [Weight; 23] = [
    Weight::new("turn2_own.1", 2, 0, 200),
    Weight::new("turn2_own.2", 106, 0, 500),
    Weight::new("turn2_own.3", 221, 0, 2000),
    Weight::new("turn2_opp.1", 0, 0, 200),
    Weight::new("turn2_opp.2", 28, 0, 500),
    Weight::new("turn2_opp.3", 80, 0, 2000),
    Weight::new("turn2_opp.4", 262, 0, 5000),
    Weight::new("turn2_opp.5", 525, 0, 5000),
    Weight::new("turn1_own.1", 0, 0, 200),
    Weight::new("turn1_own.2", 49, 0, 500),
    Weight::new("turn1_own.3", 431, 0, 2000),
    Weight::new("turn1_own.4", 2129, 0, 5000),
    Weight::new("turn1_opp.1", 3, 0, 200),
    Weight::new("turn1_opp.2", 78, 0, 500),
    Weight::new("turn1_opp.3", 132, 0, 2000),
    Weight::new("turn1_opp.4", 2841, 0, 5000),
    Weight::new("turn1_opp.5", 1886, 0, 5000),
    Weight::new("turn2_opp_threats.1", 669, -5000, 5000),
    Weight::new("turn2_opp_threats.2", 4434, -5000, 5000),
    Weight::new("turn1_opp_threats.1", 3571, -5000, 5000),
    Weight::new("turn1_own_threats.1", -1556, -5000, 5000),
    Weight::new("turn1_own_threats.2", 4327, -5000, 5000),
    Weight::new("tempo.stone", -112, -500, 500),
];
