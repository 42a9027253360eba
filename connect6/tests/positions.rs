//! The reference positions of `reference/connect6/positions.txt`, answered by the engine
//! with one of the listed pairs within 4 turns of depth and 2 s (they need far less: each is
//! decided before the alpha-beta, by the immediate-win check or the forced replies).

use std::time::Duration;

use connect6::engine::{Engine, EngineLimits};
use connect6::notation::parse_littlegolem;
use connect6::{Connect6, Point};
use game_core::Side;

const POSITIONS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/connect6/positions.txt"
));

fn pairs(text: &str) -> Vec<Vec<Point>> {
    text.split_whitespace()
        .map(|t| {
            let mut p = parse_littlegolem(t, 19).unwrap();
            p.sort();
            p
        })
        .collect()
}

#[test]
fn reference_positions() {
    let mut count = 0;
    for line in POSITIONS.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(f.len(), 6, "{line}");
        let black = parse_littlegolem(f[2], 19).unwrap();
        let white = parse_littlegolem(f[3], 19).unwrap();
        let to_move = if f[1] == "black" {
            Side::First
        } else {
            Side::Second
        };
        assert_eq!(
            Connect6::side_from_counts(black.len(), white.len()),
            Some(to_move),
            "{}",
            f[0]
        );
        let pos = Connect6::from_stones(19, &black, &white, to_move).unwrap();
        let answers = pairs(f[4]);
        let mut engine = Engine::new(16);
        let limits = EngineLimits {
            depth: Some(4),
            time: Some(Duration::from_secs(2)),
            nodes: None,
        };
        let analysis = engine.think(&pos, &limits).unwrap();
        let mut turn = analysis.turn.clone();
        turn.sort();
        assert!(
            answers.contains(&turn),
            "{}: engine played {:?} ({:?}), expected one of {}",
            f[0],
            analysis
                .turn
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>(),
            analysis.decision,
            f[4]
        );
        pos.check_turn(&analysis.turn).unwrap();
        count += 1;
    }
    assert_eq!(count, 3);
}
