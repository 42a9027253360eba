//! Time profile of the engine: replays the games of a records file (`qi match --records`)
//! and lets the engine think again, at a given time a turn, on each turn the named player
//! made; prints how long it took and why it chose, one line a turn, then a summary by
//! decision (forced replies, searches, threat wins).
//!
//! `cargo run --release -p lab --example connect6_timing -- FILE NAME [MS] [GAMES]`
//! (defaults: 500 ms, 10 games).
use std::collections::BTreeMap;
use std::time::Duration;

use connect6::Connect6;
use connect6::engine::{Decision, Engine, EngineLimits};
use game_core::Side;

mod records;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: connect6_timing FILE NAME [MS] [GAMES]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("a readable records file");
    let name = &args[2];
    let ms: u64 = args
        .get(3)
        .map_or(500, |s| s.parse().expect("milliseconds"));
    let games: usize = args.get(4).map_or(10, |s| s.parse().expect("a game count"));
    let limits = EngineLimits {
        time: Some(Duration::from_millis(ms)),
        ..Default::default()
    };
    let mut engine = Engine::new(64);
    // Decision kind -> (turns, total milliseconds).
    let mut summary: BTreeMap<&str, (u32, u128)> = BTreeMap::new();
    for game in records::games(&text).into_iter().take(games) {
        let ours = if game.tag("Black") == *name {
            Side::First
        } else {
            Side::Second
        };
        let mut pos = Connect6::standard();
        engine.clear();
        for turn in &game.turns {
            let Ok(points) = pos.parse_turn(turn) else {
                break;
            };
            if pos.to_move() == ours && pos.stone_count() > 0 {
                let a = engine.think(&pos, &limits).expect("a game in progress");
                let kind = match a.decision {
                    Decision::Forced => "forced",
                    Decision::Search => "search",
                    Decision::ThreatWin(_) | Decision::Win => "win",
                    _ => "other",
                };
                println!(
                    "{kind} {} ms depth {} nodes {}",
                    a.time.as_millis(),
                    a.depth,
                    a.nodes
                );
                let e = summary.entry(kind).or_default();
                e.0 += 1;
                e.1 += a.time.as_millis();
            }
            if pos.play_turn(&points).is_err() || pos.game_end().is_some() {
                break;
            }
        }
    }
    for (kind, (n, total)) in summary {
        println!(
            "{kind}: {n} turns, mean {} ms",
            total / u128::from(n.max(1))
        );
    }
}
