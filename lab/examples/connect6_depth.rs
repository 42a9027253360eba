//! Time to depth of the main search: the engine (threat searches off) searches every
//! `EVERY`-th position of the first 20 games of each records file (`qi match --records`)
//! where the side to move starts a turn and is not threatened, to `TURNS` turns, and prints
//! the positions, the total nodes (a signature of the search's behaviour) and the time.
//! A change that makes the same search faster keeps the nodes; one that makes it more
//! efficient lowers them.
//!
//! `cargo run --release -p lab --example connect6_depth -- TURNS EVERY FILE...`
use std::time::Instant;

use connect6::Connect6;
use connect6::engine::{Engine, EngineLimits};
use game_core::Position;

// Shared with the other examples; this one reads only the turns.
#[allow(dead_code)]
mod records;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: connect6_depth TURNS EVERY FILE...");
        std::process::exit(2);
    }
    let turns: u32 = args[1].parse().expect("a depth in turns");
    let every: usize = args[2].parse().expect("a position stride");
    let limits = EngineLimits {
        depth: Some(turns),
        time: None,
        nodes: None,
    };
    let mut engine = Engine::new(16);
    engine.set_threat_search(false);
    let (mut positions, mut nodes, mut seen) = (0, 0u64, 0usize);
    let start = Instant::now();
    for file in &args[3..] {
        let text = std::fs::read_to_string(file).expect("a readable records file");
        for game in records::games(&text).into_iter().take(20) {
            let mut pos = Connect6::standard();
            for turn in &game.turns {
                let Ok(points) = pos.parse_turn(turn) else {
                    break;
                };
                if pos.play_turn(&points).is_err() || pos.game_end().is_some() {
                    break;
                }
                seen += 1;
                if seen % every != 0 || pos.stones_left() != 2 || pos.in_check() {
                    continue;
                }
                if let Some(a) = engine.think(&pos, &limits) {
                    nodes += a.nodes;
                    positions += 1;
                }
            }
        }
    }
    println!(
        "{positions} positions, {nodes} nodes, {:.2} s",
        start.elapsed().as_secs_f64()
    );
}
