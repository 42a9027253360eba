//! The weights of the connect6 evaluation ([`crate::ThreatEval`]): name, value, and the range a
//! tuner may move it in. Hand-set (Wu & Huang 2005); no tuning run yet.
//!
//! Written by `qi tune`; edit by hand only to change a range or to add a weight.

use game_core::tune::Weight;

/// The evaluation weights, in the order [`crate::tune`]'s feature indices use.
pub const WEIGHTS: [Weight; 6] = [
    Weight::new("window.1", 1, 0, 50),
    Weight::new("window.2", 12, 0, 100),
    Weight::new("window.3", 60, 0, 400),
    Weight::new("window.4", 300, 0, 1500),
    Weight::new("window.5", 300, 0, 1500),
    Weight::new("tempo.stone", 15, 0, 100),
];
