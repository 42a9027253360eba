//! Beam recall: how often the turns played in a records file (`qi match --records`) lie in
//! the search's beams. For every quiet turn after the opening (no six to make, no opposing
//! threat to block), the rank of its stones in the stone ordering the search uses
//! (`Connect6::search_stones`: first stones by `stone_score`, then second stones given the
//! first, either stone first), and the share of turns inside beams of several widths, by
//! player. A strong opponent's turns that fall outside the beams inside the tree are turns
//! our search never considers for it.
//!
//! `cargo run --release -p lab --example connect6_beam_recall -- FILE [OPENING_TURNS]`
//! (default 2: Black's first stone and White's first turn came from the referee).
use std::collections::BTreeMap;

use connect6::{Connect6, Point};
use game_core::Position;

mod records;

/// Beams to report, (first stones, second stones).
const BEAMS: [(usize, usize); 6] = [(6, 3), (9, 4), (10, 6), (14, 8), (20, 10), (30, 15)];
/// The widest beam looked at: ranks beyond it count as "outside".
const WIDE: usize = 64;

/// Rank of `stone` in the side to move's stone ordering, if within [`WIDE`].
fn rank(pos: &Connect6, stone: Point) -> Option<usize> {
    let mut moves = Vec::new();
    pos.search_stones(&mut moves, (WIDE, WIDE));
    let size = pos.size();
    moves.iter().position(|s| s.point(size) == stone)
}

/// The best (smallest) beam, by (first rank, second rank), that holds the turn `a b`.
fn turn_ranks(pos: &Connect6, a: Point, b: Point) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (first, second) in [(a, b), (b, a)] {
        let Some(r1) = rank(pos, first) else {
            continue;
        };
        let mut p = pos.clone();
        p.play_point(first).expect("a legal stone");
        if let Some(r2) = rank(&p, second) {
            out.push((r1, r2));
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: connect6_beam_recall FILE [OPENING_TURNS]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("a readable records file");
    let opening: usize = args.get(2).map_or(2, |s| s.parse().expect("a turn count"));
    // Player -> (quiet turns, turns inside each beam, first-stone ranks histogram).
    let mut stats: BTreeMap<String, (u32, [u32; BEAMS.len()], u32)> = BTreeMap::new();
    for game in records::games(&text) {
        let names = [game.tag("Black"), game.tag("White")];
        let mut pos = Connect6::standard();
        for (i, turn) in game.turns.iter().enumerate() {
            let Ok(points) = pos.parse_turn(turn) else {
                break;
            };
            let mover = names[pos.to_move().index()].clone();
            let quiet = i >= opening && points.len() == 2 && !pos.can_win_now() && !pos.in_check();
            if quiet {
                let ranks = turn_ranks(&pos, points[0], points[1]);
                let entry = stats.entry(mover).or_insert((0, [0; BEAMS.len()], 0));
                entry.0 += 1;
                for (k, &(w1, w2)) in BEAMS.iter().enumerate() {
                    if ranks.iter().any(|&(r1, r2)| r1 < w1 && r2 < w2) {
                        entry.1[k] += 1;
                    }
                }
                if ranks.is_empty() {
                    entry.2 += 1;
                }
            }
            if pos.play_turn(&points).is_err() || pos.game_end().is_some() {
                break;
            }
        }
    }
    let header: Vec<String> = BEAMS.iter().map(|(a, b)| format!("{a}x{b}")).collect();
    println!(
        "player  quiet turns  inside beams {}  outside {WIDE}x{WIDE}",
        header.join(" ")
    );
    for (name, (turns, inside, outside)) in &stats {
        let shares: Vec<String> = inside
            .iter()
            .map(|&n| format!("{:.0}%", 100.0 * f64::from(n) / f64::from(*turns)))
            .collect();
        println!("{name}  {turns}  {}  {outside}", shares.join(" "));
    }
}
