//! Looks for long wins by continuous threats in engine self-play positions and times them.
use std::time::{Duration, Instant};

use connect6::Connect6;
use connect6::engine::{Engine, EngineLimits};
use connect6::tss::ThreatSearch;

fn main() {
    let mut best = (0, Duration::ZERO, String::new());
    let mut slowest = Duration::ZERO;
    for game in 0..12u64 {
        let mut pos = Connect6::standard();
        let mut engine = Engine::new(8);
        engine.set_threat_search(false);
        let limits = EngineLimits {
            depth: None,
            time: None,
            nodes: Some(3000 + game * 1500),
        };
        while pos.game_end().is_none() {
            if pos.stones_left() == 2 && !game_core::Position::in_check(&pos) {
                let mut tss = ThreatSearch::new();
                let t = Instant::now();
                let w = tss.find_win(
                    &mut pos,
                    12,
                    u64::MAX,
                    Some(Instant::now() + Duration::from_secs(5)),
                );
                let e = t.elapsed();
                slowest = slowest.max(e);
                if let Some(w) = w {
                    if w.turns > best.0 {
                        best = (w.turns, e, pos.moves_littlegolem());
                        println!("{} turns in {:?}: {}", w.turns, e, best.2);
                    }
                }
            }
            let a = engine.think(&pos, &limits).unwrap();
            pos.play_turn(&a.turn).unwrap();
        }
    }
    println!(
        "longest {} turns ({:?}); slowest call {:?}",
        best.0, best.1, slowest
    );
}
