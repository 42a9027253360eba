//! Blunder audit of connect6 game records (`qi match --records`): which turns of an engine
//! were lost to the opponent's threat sequences, whether a safe turn existed, and where a
//! lost game was decided.
//!
//! ```sh
//! B="cargo run --release -p lab --example connect6_blunders --"
//! # every two-stone turn of NAME after which the opponent wins by continuous double threats
//! # (a proof of ThreatSearch::find_win; with SINGLE=1 also a win starting with a single
//! # threat, find_win_or_single), kept in OUT (one position's moves a line) when the engine
//! # at REF_MS (default 3000) finds a turn that passes the same check
//! $B collect FILE NAME OUT [REF_MS]
//! # the engine at MS (default 500) on each kept position: turns safe / lost / unknown
//! $B score POSITIONS [MS]
//! # forced turns (the opponent threatened) proved lost: every blocking first stone with
//! # every second stone within two of a stone, checked as the engine's verification does
//! $B brute FILE NAME
//! # each lost game's first proved-lost turn: forced or not, our threats after the turn
//! # before, the opponent's threats in between, whether find_win_or_single saw the win a
//! # turn earlier, and (unless NOBRUTE=1) how many of our replies were safe
//! $B first FILE NAME
//! ```
//!
//! Threat searches use up to 200,000 nodes (2 s; 50,000 and 300 ms in `brute`); "unknown"
//! is a check cut short. Measurements with it: docs/experiments.md (the blunder audit).
use std::time::{Duration, Instant};

use connect6::engine::{Engine, EngineLimits};
use connect6::tss::ThreatSearch;
use connect6::{Connect6, Point, Stone};
use game_core::{Position, Side};

mod records;

/// A threat-search verdict on the opponent after our turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Check {
    /// The opponent wins by continuous double threats (proved).
    Lost,
    /// The threat search ran to its end without a win.
    Safe,
    /// Cut short by the budget.
    Unknown,
}

/// Whether the audit also counts wins that start with a single-threat turn
/// (`ThreatSearch::find_win_or_single`, environment `SINGLE=1`).
fn single() -> bool {
    std::env::var("SINGLE").is_ok_and(|v| v == "1")
}

fn check(after: &Connect6, tss: &mut ThreatSearch) -> Check {
    if after.game_end().is_some() {
        return Check::Safe;
    }
    let mut p = after.clone();
    tss.clear();
    let deadline = Some(Instant::now() + Duration::from_secs(2));
    let win = if single() {
        tss.find_win_or_single(&mut p, 12, 200_000, deadline)
    } else {
        tss.find_win(&mut p, 12, 200_000, deadline)
    };
    match win {
        Some(_) => Check::Lost,
        None if tss.aborted() => Check::Unknown,
        None => Check::Safe,
    }
}

fn engine_turn(pos: &Connect6, ms: u64) -> Connect6 {
    let mut e = Engine::new(64);
    let a = e
        .think(
            pos,
            &EngineLimits {
                time: Some(Duration::from_millis(ms)),
                ..Default::default()
            },
        )
        .expect("a turn");
    let mut after = pos.clone();
    after.play_turn(&a.turn).expect("a legal turn");
    after
}

/// The side `name` played in `game` (Black when its `Black` tag names it, else White).
fn side_of(game: &records::Game, name: &str) -> Side {
    if game.tag("Black") == name {
        Side::First
    } else {
        Side::Second
    }
}

/// Replays `game` turn by turn, until a turn that does not parse or play or that ends the
/// game, and calls `visit` on every turn of `ours` with the position before it, the
/// positions after each turn so far (the last one after this turn), the turn's text and its
/// stone count; `visit` returns false to stop.
fn replay(
    game: &records::Game,
    ours: Side,
    mut visit: impl FnMut(&Connect6, &[Connect6], &str, usize) -> bool,
) {
    let mut pos = Connect6::standard();
    let mut history: Vec<Connect6> = Vec::new();
    for t in &game.turns {
        let Ok(pts) = pos.parse_turn(t) else { break };
        let before = pos.clone();
        if pos.play_turn(&pts).is_err() || pos.game_end().is_some() {
            break;
        }
        history.push(pos.clone());
        if before.to_move() == ours && !visit(&before, &history, t, pts.len()) {
            break;
        }
    }
}

fn collect(file: &str, name: &str, out: &str, ref_ms: u64) {
    let text = std::fs::read_to_string(file).expect("records");
    let mut tss = ThreatSearch::new();
    let mut kept = String::new();
    let (mut turns_seen, mut lost, mut fixable) = (0, 0, 0);
    for game in records::games(&text) {
        replay(&game, side_of(&game, name), |before, after, _, stones| {
            if stones != 2 {
                return true;
            }
            turns_seen += 1;
            if check(after.last().expect("this turn"), &mut tss) == Check::Lost {
                lost += 1;
                if check(&engine_turn(before, ref_ms), &mut tss) == Check::Safe {
                    fixable += 1;
                    kept += &before.moves_littlegolem();
                    kept.push('\n');
                }
            }
            true
        });
    }
    std::fs::write(out, kept).expect("write");
    println!(
        "{file}: {turns_seen} turns of {name}, {lost} proved lost, {fixable} with a safe turn at {ref_ms} ms"
    );
}

/// The verdict on the opponent after our turn, as the engine's verification gives it: a
/// threat of ours takes one of the opponent's stones (the other must then win by threats),
/// two or more take both.
fn verdict(after: &mut Connect6, tss: &mut ThreatSearch, budget: u64) -> Check {
    if after.game_end().is_some() {
        return Check::Safe;
    }
    if after.can_win_now() {
        return Check::Lost;
    }
    let us = after.to_move().opponent();
    let deadline = Some(Instant::now() + Duration::from_millis(300));
    match after.threat_count(us) {
        0 => {
            tss.clear();
            match tss.find_win(after, 12, budget, deadline) {
                Some(_) => Check::Lost,
                None if tss.aborted() => Check::Unknown,
                None => Check::Safe,
            }
        }
        1 => {
            let mut out = Check::Safe;
            let mut all = Vec::new();
            after.generate_moves(&mut all);
            let blocks: Vec<Stone> = all
                .into_iter()
                .filter(|&b| {
                    after.play(b);
                    let blocked = after.threat_count(us) == 0;
                    after.undo(b);
                    blocked
                })
                .collect();
            for b in blocks {
                after.play(b);
                tss.clear();
                let win = tss.find_win_with_one_stone(after, 12, budget, deadline);
                let aborted = tss.aborted();
                after.undo(b);
                if win.is_some() {
                    return Check::Lost;
                }
                if aborted {
                    out = Check::Unknown;
                }
            }
            out
        }
        _ => Check::Safe,
    }
}

/// True when a stone lies within two points of cell `c` (19 x 19).
fn near(pos: &Connect6, c: usize) -> bool {
    let (x, y) = ((c % 19) as i32, (c / 19) as i32);
    (-2..=2).any(|dx: i32| {
        (-2..=2).any(|dy: i32| {
            let (u, v) = (x + dx, y + dy);
            (0..19).contains(&u)
                && (0..19).contains(&v)
                && pos.stone_at(Point::new(u as u8, v as u8)).is_some()
        })
    })
}

/// Forced positions (the opponent threatens) whose played turn was proved lost: every
/// blocking first stone with every empty second stone within two of a stone, checked.
fn brute(file: &str, name: &str) {
    let text = std::fs::read_to_string(file).expect("records");
    let mut tss = ThreatSearch::new();
    let (mut forced_lost, mut saved) = (0, 0);
    for game in records::games(&text) {
        replay(&game, side_of(&game, name), |before, after, _, stones| {
            if stones != 2
                || !before.in_check()
                || check(after.last().expect("this turn"), &mut tss) != Check::Lost
            {
                return true;
            }
            forced_lost += 1;
            let (safe, unknown, tried, example) = all_turns(before, &mut tss);
            if safe > 0 {
                saved += 1;
            }
            println!(
                "{} turn {}: safe {safe} unknown {unknown} of {tried} (e.g. {example})  {}",
                game.tag("Round"),
                before.history().len(),
                before.moves_littlegolem()
            );
            true
        });
    }
    println!("{file}: {forced_lost} forced turns proved lost, {saved} with a safe turn");
}

/// The stones [`all_turns`] tries on `pos`: the blocking stones when the opponent threatens,
/// else every empty point within two of a stone.
fn stones_to_try(pos: &Connect6) -> Vec<Stone> {
    let mut stones = Vec::new();
    if pos.in_check() {
        pos.search_stones(&mut stones, (400, 400));
    } else {
        pos.generate_moves(&mut stones);
        stones.retain(|s| near(pos, s.index()));
    }
    stones
}

/// Every turn of ours from `pos` (the blocking first stones when the opponent threatens, else
/// every point within two of a stone; then every second stone the same way), checked by
/// [`verdict`]: (safe, unknown, tried, the first safe turn or "").
fn all_turns(pos: &Connect6, tss: &mut ThreatSearch) -> (u32, u32, u32, String) {
    let firsts = stones_to_try(pos);
    let (mut safe, mut unknown, mut tried) = (0, 0, 0);
    let mut example = String::new();
    let mut p = pos.clone();
    for (i, &f) in firsts.iter().enumerate() {
        p.play(f);
        let seconds = stones_to_try(&p);
        for &s in &seconds {
            if !pos.in_check() && firsts[..i].contains(&s) {
                continue;
            }
            tried += 1;
            p.play(s);
            match verdict(&mut p, tss, 50_000) {
                Check::Safe => {
                    safe += 1;
                    if example.is_empty() {
                        example = format!(
                            "{}{}",
                            f.point(19).to_littlegolem(),
                            s.point(19).to_littlegolem()
                        );
                    }
                }
                Check::Unknown => unknown += 1,
                Check::Lost => {}
            }
            p.undo(s);
        }
        p.undo(f);
    }
    (safe, unknown, tried, example)
}

/// For each lost game of `name`: the first turn of ours after which the opponent's win is
/// proved, and the opponent's turn before it: its threats, whether a single-threat-then-
/// continuous-threats search (`find_win_or_single`) sees the win a turn earlier, and how
/// many of our replies to that turn are safe.
fn first(file: &str, name: &str) {
    let text = std::fs::read_to_string(file).expect("records");
    let mut tss = ThreatSearch::new();
    for game in records::games(&text) {
        let ours = side_of(&game, name);
        let result = game.tag("Result");
        let lost =
            (ours == Side::First && result == "0-1") || (ours == Side::Second && result == "1-0");
        if !lost {
            continue;
        }
        replay(&game, ours, |before, history, t, stones| {
            let n = history.len();
            if stones != 2 || check(&history[n - 1], &mut tss) != Check::Lost {
                return true;
            }
            let mut line = format!(
                "{} turn {} ({}): forced {}",
                game.tag("Round"),
                n,
                t,
                before.in_check()
            );
            if n >= 3 {
                // history[n-3]: after our turn K; history[n-2]: after the opponent's turn.
                let after_k = &history[n - 3];
                let opp_turn = &history[n - 2];
                let mut p = after_k.clone();
                tss.clear();
                let single = tss.find_win_or_single(
                    &mut p,
                    12,
                    200_000,
                    Some(Instant::now() + Duration::from_secs(2)),
                );
                let aborted = tss.aborted();
                let (safe, unknown, tried, _) = if std::env::var("NOBRUTE").is_ok() {
                    (0, 0, 0, String::new())
                } else {
                    all_turns(opp_turn, &mut tss)
                };
                line += &format!(
                    "; our threats after our turn {}; their turn before made {} threats; single-then-threats win seen a turn earlier: {} (aborted {aborted}); our replies safe {safe} unknown {unknown} of {tried} (0 of 0: not counted)",
                    after_k.threat_count(ours),
                    opp_turn.threat_count(ours.opponent()),
                    single.is_some(),
                );
            }
            println!("{line}\n   {}", before.moves_littlegolem());
            false
        });
    }
}

fn score(file: &str, ms: u64) {
    let text = std::fs::read_to_string(file).expect("positions");
    let mut tss = ThreatSearch::new();
    let (mut safe, mut lost, mut unknown) = (0, 0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos = Connect6::from_moves(19, line).expect("a position");
        match check(&engine_turn(&pos, ms), &mut tss) {
            Check::Safe => safe += 1,
            Check::Lost => lost += 1,
            Check::Unknown => unknown += 1,
        }
    }
    println!("{file} at {ms} ms: safe {safe}, lost {lost}, unknown {unknown}");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map(String::as_str);
    match (arg(1), arg(2), arg(3), arg(4)) {
        (Some("collect"), Some(file), Some(name), Some(out)) => collect(
            file,
            name,
            out,
            arg(5).map_or(3000, |s| s.parse().expect("ms")),
        ),
        (Some("brute"), Some(file), Some(name), _) => brute(file, name),
        (Some("first"), Some(file), Some(name), _) => first(file, name),
        (Some("score"), Some(file), ..) => {
            score(file, arg(3).map_or(500, |s| s.parse().expect("ms")))
        }
        _ => eprintln!(
            "usage: connect6_blunders collect FILE NAME OUT [REF_MS] | score POSITIONS [MS] | brute FILE NAME | first FILE NAME"
        ),
    }
}
