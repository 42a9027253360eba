//! # tune
//!
//! Texel tuning for qi's evaluations, generic over the games: a game exposes its weights and
//! feature vectors through [`game_core::tune::Tunable`]; this crate reads self-play positions
//! with their results ([`data`]), fits the logistic scale `K` and then the weights so that
//! `sigmoid(K · eval)` predicts the results ([`fit`]), and writes the weights back as the
//! game's Rust source ([`source`]). The same data also fits a game's move-ordering weights to
//! the moves that were played ([`policy`]).
//!
//! The loop (`qi selfplay` → `qi tune` → rebuild → SPRT with `qi match --sprt`) is described in
//! `docs/tuning.md`. Method: P. Texel Österlund's tuning (2014, as described on the Chess
//! Programming Wiki, "Texel's Tuning Method"), fitted with Adam (Kingma & Ba 2015) over the full
//! data set rather than by coordinate descent.
#![deny(missing_docs)]

pub mod data;
pub mod fit;
pub mod policy;
pub mod source;

pub use data::{Dataset, Sample, TuneError, parse_result};
pub use fit::{AdamConfig, fit_scale, round_values, sigmoid};
pub use policy::PolicyData;
pub use source::{policy_rust_source, rust_source};
