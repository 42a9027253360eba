//! The weights of the connect6 evaluation: name, value, and the range a tuner may move it in.
//! Tuned by `qi tune connect6 --data train.txt sp1-part.txt --epochs 600 --lr 5 --threads 1`
//! from 13074 positions (K = 0.001209; mean squared error 0.234859 with the previous
//! weights, 0.149797 with these and a first-side advantage of 128; on 1909 positions of 60
//! held-out games, 0.2309 -> 0.1438). The data came from:
//! - `train.txt`: 357 games of qi against Cloudict (depth 4) at 500 ms a move
//!   (`qi match connect6 ... --records`), every position after the opening at the start of a
//!   turn and after its first stone;
//! - `sp1-part.txt`: 130 games of `qi selfplay connect6 --nodes 20000 --threads 2 --seed 61`.
//!
//! Written by `qi tune`; edit by hand only to change a range or to add a weight.

use game_core::tune::Weight;

/// The weights of the connect6 evaluation, in the order [`crate::tune`]'s feature indices use.
#[rustfmt::skip]
#[allow(clippy::large_const_arrays)]
pub const WEIGHTS: [Weight; 23] = [
    Weight::new("turn2_own.1", 0, 0, 200),
    Weight::new("turn2_own.2", 105, 0, 500),
    Weight::new("turn2_own.3", 178, 0, 2000),
    Weight::new("turn2_opp.1", 0, 0, 200),
    Weight::new("turn2_opp.2", 6, 0, 500),
    Weight::new("turn2_opp.3", 19, 0, 2000),
    Weight::new("turn2_opp.4", 1226, 0, 5000),
    Weight::new("turn2_opp.5", 1342, 0, 5000),
    Weight::new("turn1_own.1", 0, 0, 200),
    Weight::new("turn1_own.2", 19, 0, 500),
    Weight::new("turn1_own.3", 271, 0, 2000),
    Weight::new("turn1_own.4", 999, 0, 5000),
    Weight::new("turn1_opp.1", 0, 0, 200),
    Weight::new("turn1_opp.2", 16, 0, 500),
    Weight::new("turn1_opp.3", 11, 0, 2000),
    Weight::new("turn1_opp.4", 1506, 0, 5000),
    Weight::new("turn1_opp.5", 1731, 0, 5000),
    Weight::new("turn2_opp_threats.1", -474, -5000, 5000),
    Weight::new("turn2_opp_threats.2", 1155, -5000, 5000),
    Weight::new("turn1_opp_threats.1", 1426, -5000, 5000),
    Weight::new("turn1_own_threats.1", -352, -5000, 5000),
    Weight::new("turn1_own_threats.2", 1530, -5000, 5000),
    Weight::new("tempo.stone", -117, -500, 500),
];
