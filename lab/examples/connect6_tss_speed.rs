//! Threat-space search speed on the positions of connect6 game records (`qi match
//! --records`): for the side to move after every complete turn, `find_win` and
//! `find_win_or_single` with a node budget, summing nodes, time and verdicts. The verdict
//! counts and node totals are a signature: a change that only makes the threat search
//! faster leaves them unchanged.
//!
//! ```sh
//! cargo run --release -p lab --example connect6_tss_speed -- [NODES] FILE...
//! ```
//!
//! `NODES` (default 20,000) is each search's budget; no deadline, so the figures do not
//! depend on the machine's speed except the times.
use std::time::{Duration, Instant};

use connect6::Connect6;
use connect6::tss::ThreatSearch;

#[allow(dead_code)]
mod records;

/// Totals of one kind of search over all positions.
#[derive(Default)]
struct Totals {
    searches: u64,
    wins: u64,
    unknown: u64,
    nodes: u64,
    time: Duration,
}

impl Totals {
    fn add(&mut self, won: bool, aborted: bool, nodes: u64, time: Duration) {
        self.searches += 1;
        self.wins += u64::from(won);
        self.unknown += u64::from(!won && aborted);
        self.nodes += nodes;
        self.time += time;
    }

    fn print(&self, what: &str) {
        let us = self.time.as_secs_f64() * 1e6 / self.nodes.max(1) as f64;
        println!(
            "{what}: {} searches, {} wins, {} unknown, {} nodes in {:.3} s = {us:.2} us/node",
            self.searches,
            self.wins,
            self.unknown,
            self.nodes,
            self.time.as_secs_f64()
        );
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let budget = match args.first().map(|a| a.parse::<u64>()) {
        Some(Ok(n)) => {
            args.remove(0);
            n
        }
        _ => 20_000,
    };
    let mut tss = ThreatSearch::new();
    let mut double = Totals::default();
    let mut single = Totals::default();
    for file in &args {
        let text = std::fs::read_to_string(file).expect("records file");
        for game in records::games(&text) {
            let mut pos = Connect6::standard();
            for t in &game.turns {
                let Ok(pts) = pos.parse_turn(t) else { break };
                if pos.play_turn(&pts).is_err() || pos.game_end().is_some() {
                    break;
                }
                let mut p = pos.clone();
                tss.clear();
                let start = Instant::now();
                let win = tss.find_win(&mut p, 12, budget, None);
                double.add(win.is_some(), tss.aborted(), tss.nodes(), start.elapsed());
                tss.clear();
                let start = Instant::now();
                let win = tss.find_win_or_single(&mut p, 12, budget, None);
                single.add(win.is_some(), tss.aborted(), tss.nodes(), start.elapsed());
            }
        }
    }
    double.print("find_win");
    single.print("find_win_or_single");
}
