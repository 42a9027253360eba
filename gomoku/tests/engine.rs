//! Engine decisions: wins, blocks, VCFs of the reference file, defence against a VCF.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game_core::{Outcome, Side};
use gomoku::{Board, Engine, Limits, Rule, Source, ThreatSolver, best_move};

const VCF: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/gomoku/vcf.txt"
));

fn vcf_positions(to_move_override: Option<Side>) -> Vec<(String, Board)> {
    VCF.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let f: Vec<&str> = line.split('|').map(str::trim).collect();
            let probe = Board::new(15, Rule::Renju).unwrap();
            let side = if f[1] == "black" {
                Side::First
            } else {
                Side::Second
            };
            let b = Board::from_stones(
                15,
                Rule::Renju,
                &probe.parse_points(f[2]).unwrap(),
                &probe.parse_points(f[3]).unwrap(),
                Some(to_move_override.unwrap_or(side)),
            )
            .unwrap();
            (f[0].to_string(), b)
        })
        .collect()
}

#[test]
fn engine_plays_the_reference_vcfs() {
    for (id, b) in vcf_positions(None) {
        let r = best_move(&b, &Limits::time(Duration::from_secs(2)));
        assert_eq!(r.source, Source::Vcf, "{id}");
        // Play the line out: it ends in a win for the side to move.
        let me = b.side_to_move();
        let mut c = b.clone();
        for &p in &r.pv {
            c.play_checked(p).unwrap();
        }
        assert_eq!(c.game_end().map(|e| e.0), Some(Outcome::Win(me)), "{id}");
        assert!(game_core::score::is_mate_score(r.score));
    }
}

#[test]
fn engine_stops_the_opponents_vcf() {
    // The first reference position with White to move: Black threatens a VCF.
    let (_, b) = vcf_positions(Some(Side::Second)).remove(0);
    let stop = AtomicBool::new(false);
    // A node limit, not a time: the same decision on any machine, however busy.
    let limits = Limits {
        nodes: Some(1_500_000),
        ..Default::default()
    };
    let r = Engine::new(8).think(&b, &limits, &stop, |_| {});
    let mv = r.best_move.unwrap();
    let mut c = b.clone();
    c.play(mv);
    assert!(
        ThreatSolver::new().vcf(&c, 30).is_none(),
        "{} still loses to a VCF",
        b.format_point(mv)
    );
}

#[test]
fn wins_and_blocks() {
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a2j8a3k8a5").unwrap();
    let r = best_move(&b, &Limits::depth(2));
    assert_eq!(r.source, Source::Five);
    assert!(["g8", "l8"].contains(&b.format_point(r.best_move.unwrap()).as_str()));
    let b = Board::from_moves(15, Rule::Freestyle, "h8g8i8a1j8a3k8").unwrap();
    // Not a depth limit: a fixed-depth search plays even a forced block through the search.
    let nodes = Limits {
        nodes: Some(10_000),
        ..Default::default()
    };
    let r = best_move(&b, &nodes);
    assert_eq!(r.source, Source::ForcedBlock);
    assert_eq!(b.format_point(r.best_move.unwrap()), "l8");
    let b = Board::from_moves(15, Rule::Freestyle, "h8a1i8a2j8a3k8a4l8").unwrap();
    assert_eq!(best_move(&b, &Limits::depth(2)).best_move, None);
}

/// A time-limited decision returns a searched move (how long it took is the benchmarks'
/// business: a busy machine may take longer); a node limit is kept (the main search stops
/// within one check interval of it; the count also holds the threat searches' few nodes).
#[test]
fn engine_answers_under_time_and_node_limits() {
    let b = Board::from_moves(20, Rule::Freestyle, "j10k11i11").unwrap();
    let stop = AtomicBool::new(false);
    let r = Engine::new(8).think(&b, &Limits::time(Duration::from_millis(300)), &stop, |_| {});
    assert!(r.best_move.is_some());
    let limits = Limits {
        nodes: Some(50_000),
        ..Default::default()
    };
    let r = Engine::new(8).think(&b, &limits, &stop, |_| {});
    assert!(r.best_move.is_some());
    assert_eq!(r.source, Source::Search);
    assert!((50_000..60_000).contains(&r.nodes), "{} nodes", r.nodes);
}
