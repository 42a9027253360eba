//! Self-play between two evaluations at a fixed depth, through the `game_core::Position` API:
//! `cargo run --release -p xiangqi --example xiangqi_selfplay -- [depth] [openings] [new|material|...]`.
//!
//! Each opening (a few plies from the start) is played twice with colours swapped. A game
//! ends by the rules (`Position::game_end`: mate, stalemate, repetition, perpetual check,
//! no-capture limit) or is adjudicated a draw after 300 plies.

use std::sync::atomic::AtomicBool;

use game_core::search::{Limits, SearchOptions, Searcher};
use game_core::{Evaluate, Outcome, Side};
use xiangqi::{Eval, MaterialEval, Position};

const OPENINGS: [&str; 12] = [
    "",
    "h2e2 h9g7",
    "b2e2 b9c7",
    "c3c4 g6g5",
    "h0g2 h9g7",
    "b0c2 b9c7",
    "h2e2 h7e7",
    "c3c4 b9c7",
    "g3g4 c6c5",
    "b2d2 h9g7",
    "h2f2 b9c7",
    "h2e2 b9c7 h0g2 a9b9",
];

fn play_game<A: Evaluate<Position>, B: Evaluate<Position>>(
    opening: &str,
    red: &mut Searcher<Position, A>,
    black: &mut Searcher<Position, B>,
    depth: u32,
) -> (Option<Outcome>, String) {
    let stop = AtomicBool::new(false);
    let mut pos = Position::startpos();
    for m in opening.split_whitespace() {
        let mv = pos.parse_iccs(m).expect("opening move");
        pos.play(mv);
    }
    red.clear();
    black.clear();
    for _ in 0..300 {
        if let Some((outcome, reason)) = pos.game_end() {
            return (Some(outcome), reason.to_string());
        }
        let limits = Limits::depth(depth);
        let r = if pos.side() == Side::First {
            red.search(&pos, &limits, &stop, |_| {})
        } else {
            black.search(&pos, &limits, &stop, |_| {})
        };
        let mv = r.best_move.expect("a move while the game is on");
        pos.play(mv);
    }
    (None, "300 plies".to_string())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let openings: usize = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let options = || SearchOptions {
        hash_mib: 16,
        ..SearchOptions::default()
    };
    let mut new = Searcher::new(Eval, options());
    let mut old = Searcher::new(MaterialEval, options());
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for opening in OPENINGS.iter().take(openings) {
        for new_is_red in [true, false] {
            let (outcome, reason) = if new_is_red {
                play_game(opening, &mut new, &mut old, depth)
            } else {
                play_game(opening, &mut old, &mut new, depth)
            };
            let new_side = if new_is_red {
                Side::First
            } else {
                Side::Second
            };
            let result = match outcome {
                Some(Outcome::Win(s)) if s == new_side => {
                    wins += 1;
                    "Eval wins"
                }
                Some(Outcome::Win(_)) => {
                    losses += 1;
                    "MaterialEval wins"
                }
                _ => {
                    draws += 1;
                    "draw"
                }
            };
            println!(
                "opening '{opening}', Eval plays {}: {result} ({reason})",
                if new_is_red { "Red" } else { "Black" }
            );
        }
    }
    println!(
        "Eval vs MaterialEval at depth {depth}: +{wins} ={draws} -{losses} ({:.1} %)",
        (wins as f64 + draws as f64 / 2.0) * 100.0 / (wins + draws + losses) as f64
    );
}
