//! Engine-development probes, kept apart from the product.
//!
//! The programs are in `lab/examples/`; each says in its first lines what it measures and how
//! to run it (`cargo run --release -p lab --example NAME -- ARGS`). The engine docs
//! (`docs/gomoku-engine.md`, `docs/connect6-engine.md`) and the experiments log
//! (`docs/experiments.md`) cite their results. What `qi` already
//! does (self-play, matches, protocols, perft, bench) is not repeated here.
