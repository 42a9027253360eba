//! Speed figures: threat counting after a placement, stone placements per second in the
//! alpha-beta search, and the threat-space search.
//! `cargo run --release -p lab --example connect6_speed`

use std::time::Instant;

use connect6::Connect6;
use connect6::engine::{Engine, EngineLimits};
use connect6::tss::ThreatSearch;
use game_core::{Position, Side};

const GAME: &str = "j10 l8k7 h8h10";

fn main() {
    let pos = Connect6::from_moves(19, GAME).unwrap();
    let mut empties = Vec::new();
    pos.generate_moves(&mut empties);

    let search_only = std::env::args().any(|a| a == "search");
    let n = if search_only { 1 } else { 20_000_000u64 };
    let mut p = pos.clone();
    let t = Instant::now();
    let mut sum = 0u64;
    for i in 0..n {
        let m = empties[i as usize % empties.len()];
        p.play(m);
        sum += u64::from(p.threat_count(Side::First));
        p.undo(m);
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!("place + threat count + remove: {ns:.1} ns ({sum})");

    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..n {
        sum += u64::from(p.threat_count(Side::First)) + u64::from(p.threat_count(Side::Second));
    }
    let ns = t.elapsed().as_nanos() as f64 / (2 * n) as f64;
    println!("threat count alone (one side): {ns:.1} ns ({sum})");

    // With threats on the board: White g10..j10 (two threats), count White's after each stone.
    let threatened = Connect6::from_moves(19, "j12 g10h10 d4p16 i10j10 c17q3 d16p4").unwrap();
    let mut p = threatened.clone();
    let mut empties2 = Vec::new();
    p.generate_moves(&mut empties2);
    let t = Instant::now();
    let mut sum = 0u64;
    for i in 0..n {
        let m = empties2[i as usize % empties2.len()];
        p.play(m);
        sum += u64::from(p.threat_count(Side::Second));
        p.undo(m);
    }
    let ns = t.elapsed().as_nanos() as f64 / n as f64;
    println!(
        "with a four on the board: place + threat count + remove: {ns:.1} ns (avg threats {:.3})",
        sum as f64 / n as f64
    );

    for depth in if search_only {
        vec![6, 7]
    } else {
        vec![4, 5, 6]
    } {
        let mut e = Engine::new(16);
        e.set_threat_search(false);
        let t = Instant::now();
        let a = e
            .think(
                &pos,
                &EngineLimits {
                    depth: Some(depth),
                    time: None,
                    nodes: None,
                },
            )
            .unwrap();
        let s = t.elapsed().as_secs_f64();
        println!(
            "alpha-beta depth {depth} turns: {} stones in {:.3} s = {:.2} M stones/s, turn {:?} score {}",
            a.nodes,
            s,
            a.nodes as f64 / s / 1e6,
            a.turn.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            a.score
        );
    }

    for (moves, what) in [
        ("j10 i8h9 i11k11 k9h8", "Black"),
        ("j10 h8i7 j6l8 k9i9 l10i10", "White"),
    ] {
        let mut tss = ThreatSearch::new();
        let mut w = Connect6::from_moves(19, moves).unwrap();
        let t = Instant::now();
        let win = tss.find_win(&mut w, 12, u64::MAX, None);
        println!(
            "threat-space search for {what} after {moves}: {:?} (turns, nodes) in {:?}",
            win.map(|w| (w.turns, w.nodes)),
            t.elapsed()
        );
    }
}
