//! Threat-proof probe: on the positions of `reference/gomoku/threat-wins.txt` (the side to move
//! wins, as Rapfi proves within 0.4 s), how many the engine proves in a given time (a mate
//! score for the side to move), by rule and by how it found the win. Answers that are the only
//! block of a four (no search) are left out of the count. A benchmark of the search's threat
//! depth, not a strength measure on its own: a change that proves more wins still has to win
//! matches.
//! `cargo run --release -p lab --example gomoku_proofs -- [ms]` (default 500).
use game_core::score::{MATE, MAX_EVAL};
use gomoku::{Board, Engine, Limits, Rule, Source};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

const SUITE: &str = include_str!("../../reference/gomoku/threat-wins.txt");

/// One rule's count: positions searched, wins proved, proofs by source, seconds spent.
#[derive(Default)]
struct Tally {
    count: u32,
    proved: u32,
    sources: BTreeMap<String, u32>,
    secs: f64,
}

fn main() {
    let ms: u64 = std::env::args()
        .nth(1)
        .map_or(500, |a| a.parse().expect("milliseconds"));
    let mut tally: BTreeMap<&str, Tally> = BTreeMap::new();
    for line in SUITE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [rule_name, moves, _plies] = fields[..] else {
            panic!("bad suite line {line}");
        };
        let rule = match rule_name {
            "freestyle" => Rule::Freestyle,
            "renju" => Rule::Renju,
            other => panic!("unknown rule {other}"),
        };
        let board = Board::from_moves(15, rule, moves).expect("suite position");
        let mut engine = Engine::new(64);
        let start = Instant::now();
        let result = engine.think(
            &board,
            &Limits::time(Duration::from_millis(ms)),
            &AtomicBool::new(false),
            |_| {},
        );
        if result.source == Source::ForcedBlock {
            continue;
        }
        let entry = tally.entry(rule_name).or_default();
        entry.count += 1;
        entry.secs += start.elapsed().as_secs_f64();
        if result.score > MAX_EVAL && result.score <= MATE {
            entry.proved += 1;
            *entry
                .sources
                .entry(format!("{:?}", result.source))
                .or_default() += 1;
        }
    }
    for (rule, t) in &tally {
        println!(
            "{rule:<9} proved {:>3} of {:>3} in {ms} ms (mean time {:.0} ms) {:?}",
            t.proved,
            t.count,
            t.secs * 1e3 / f64::from(t.count),
            t.sources
        );
    }
}
