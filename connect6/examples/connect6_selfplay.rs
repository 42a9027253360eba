//! Plays the engine against itself on 19x19 and prints every turn with how it was chosen.
//! `cargo run --release -p connect6 --example connect6_selfplay -- [ms per turn]`

use std::time::Duration;

use connect6::Connect6;
use connect6::engine::{Engine, EngineLimits};

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let mut pos = Connect6::standard();
    let mut engine = Engine::new(32);
    let limits = EngineLimits {
        depth: None,
        time: Some(Duration::from_millis(ms)),
        nodes: None,
    };
    while pos.game_end().is_none() {
        let a = engine.think(&pos, &limits).expect("game not over");
        println!(
            "{:?} {} {:?} score {} depth {} nodes {} {:?}",
            pos.to_move(),
            connect6::notation::format_littlegolem(&a.turn),
            a.decision,
            a.score,
            a.depth,
            a.nodes,
            a.time
        );
        pos.play_turn(&a.turn).unwrap();
    }
    println!("{pos}");
}
