//! Post-mortem of lost games: for every game in a records file (`qi match --records`) lost by
//! the engine named on the command line, finds the first of its turns after which the
//! opponent wins by continuous threats, and what the engine plays there at a given time.
//!
//! `cargo run --release -p lab --example connect6_postmortem -- FILE NAME [MS]`; with
//! `BRUTE=1` it also counts, by brute force, the turns that would have stopped the win (0
//! means the game was lost a turn earlier, by a win the threat search does not see).
use std::time::{Duration, Instant};

use connect6::engine::{Engine, EngineLimits};
use connect6::tss::ThreatSearch;
use connect6::{Connect6, Point};
use game_core::Side;

mod records;

fn opp_win(pos: &Connect6, tss: &mut ThreatSearch) -> Option<u32> {
    let mut p = pos.clone();
    tss.clear();
    tss.find_win(
        &mut p,
        12,
        3_000_000,
        Some(Instant::now() + Duration::from_secs(3)),
    )
    .map(|w| w.turns)
}

/// The position with the other side to move (a pass).
fn passed(pos: &Connect6) -> Connect6 {
    let mut b: Vec<Point> = Vec::new();
    let mut w: Vec<Point> = Vec::new();
    for (side, pts) in pos.turns() {
        if side == Side::First {
            b.extend(pts)
        } else {
            w.extend(pts)
        }
    }
    Connect6::from_stones(19, &b, &w, pos.to_move().opponent()).expect("setup")
}

/// Turns of the side to move (first stone a forced reply when in check, else near a stone;
/// second any point within 2 of a stone) after which the opponent has no threat win:
/// (refuting, tried).
fn brute(pos: &Connect6, tss: &mut ThreatSearch) -> (u32, u32) {
    use game_core::Position;
    let size = 19usize;
    let near = |p: &Connect6, c: usize| {
        let (x, y) = ((c % size) as i32, (c / size) as i32);
        (-2..=2).any(|dx: i32| {
            (-2..=2).any(|dy: i32| {
                let (u, v) = (x + dx, y + dy);
                u >= 0
                    && v >= 0
                    && u < 19
                    && v < 19
                    && p.stone_at(Point::new(u as u8, v as u8)).is_some()
            })
        })
    };
    let mut firsts = Vec::new();
    let mut all = Vec::new();
    pos.generate_moves(&mut all);
    if pos.in_check() {
        let mut f = Vec::new();
        pos.search_stones(&mut f, (400, 400));
        firsts = f;
    } else {
        firsts.extend(all.iter().copied().filter(|&s| near(pos, s.index())));
    }
    let (mut good, mut tried) = (0, 0);
    for (i, &f) in firsts.iter().enumerate() {
        let mut p1 = pos.clone();
        p1.play(f);
        let mut seconds = Vec::new();
        if p1.in_check() {
            p1.search_stones(&mut seconds, (400, 400));
        } else {
            seconds.extend(
                all.iter()
                    .copied()
                    .filter(|&s| s != f && near(&p1, s.index())),
            );
        }
        for s in seconds {
            if !pos.in_check() && firsts[..i].contains(&s) {
                continue;
            }
            let mut p2 = p1.clone();
            p2.play(s);
            tried += 1;
            tss.clear();
            if tss
                .find_win(
                    &mut p2,
                    10,
                    100_000,
                    Some(Instant::now() + Duration::from_millis(300)),
                )
                .is_none()
            {
                good += 1;
            }
        }
    }
    (good, tried)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("records");
    let name = &args[2];
    let ms: u64 = args.get(3).map_or(500, |s| s.parse().unwrap());
    let mut tss = ThreatSearch::new();
    for game in records::games(&text) {
        let (black, result, round) = (game.tag("Black"), game.tag("Result"), game.tag("Round"));
        let ours = if &black == name {
            Side::First
        } else {
            Side::Second
        };
        let lost =
            (ours == Side::First && result == "0-1") || (ours == Side::Second && result == "1-0");
        if !lost {
            continue;
        }
        let turns = &game.turns;
        let mut pos = Connect6::standard();
        let mut report = format!("round {round} ({:?}) {} turns:", ours, turns.len());
        let mut found = false;
        for (i, t) in turns.iter().enumerate() {
            let Ok(pts) = pos.parse_turn(t) else { break };
            let our_turn = pos.to_move() == ours;
            let before = if our_turn {
                opp_win(&passed(&pos), &mut tss)
            } else {
                None
            };
            let snapshot = pos.clone();
            if pos.play_turn(&pts).is_err() {
                break;
            }
            if our_turn && !found && pos.game_end().is_none() {
                if let Some(n) = opp_win(&pos, &mut tss) {
                    found = true;
                    let mut e = Engine::new(64);
                    let a = e
                        .think(
                            &snapshot,
                            &EngineLimits {
                                time: Some(Duration::from_millis(ms)),
                                ..Default::default()
                            },
                        )
                        .unwrap();
                    let mut after = snapshot.clone();
                    after.play_turn(&a.turn).unwrap();
                    let again = opp_win(&after, &mut tss);
                    let refuting = if std::env::var("BRUTE").is_ok() {
                        brute(&snapshot, &mut tss)
                    } else {
                        (0, 0)
                    };
                    report += &format!(" [refuting turns {} of {}]", refuting.0, refuting.1);
                    let engine_turn: Vec<String> =
                        a.turn.iter().map(|p| p.to_littlegolem()).collect();
                    report += &format!(
                        " blunder at turn {} ({t}): opp wins in {n}; threat before (pass) {before:?}; engine now {} {:?} depth {} score {} -> opp win {again:?}\n   moves: {}",
                        i + 1,
                        engine_turn.join(""),
                        a.decision,
                        a.depth,
                        a.score,
                        snapshot.moves_littlegolem()
                    );
                }
            }
        }
        if !found {
            report += " no TSS-detected blunder";
        }
        println!("{report}");
    }
}
