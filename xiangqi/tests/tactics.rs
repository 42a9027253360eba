//! Every position of `reference/xiangqi/tactics.txt` solved by the engine's search
//! (`Eval` on the shared core): mates with the stated first move and distance, the terminal
//! position reported as lost with no move, the start position near equal.

use std::sync::atomic::AtomicBool;

use game_core::search::{Limits, SearchOptions, Searcher};
use game_core::{Outcome, Position as _, ScoreView, Side};
use xiangqi::{Eval, Position};

const TACTICS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../reference/xiangqi/tactics.txt"
);

struct Case {
    id: String,
    fen: String,
    expected: String,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(TACTICS).expect("tactics.txt is readable");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(f.len(), 4, "id | FEN | expected | note: {l}");
            Case {
                id: f[0].to_string(),
                fen: f[1].to_string(),
                expected: f[2].to_string(),
            }
        })
        .collect()
}

fn searcher() -> Searcher<Position, Eval> {
    Searcher::new(
        Eval,
        SearchOptions {
            hash_mib: 8,
            ..SearchOptions::default()
        },
    )
}

#[test]
fn every_tactic_is_solved() {
    let stop = AtomicBool::new(false);
    let cases = cases();
    assert_eq!(cases.len(), 6, "t1 t2 t5 t7 t11 t12");
    for case in cases {
        // t11 has the kings facing (a check on Red): the lenient reader, as the protocols use.
        let pos =
            Position::from_fen_lenient(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let mut searcher = searcher();
        if let Some(rest) = case.expected.strip_prefix("bestmove ") {
            // "bestmove d3e3, mate in 1"
            let (mv, mate) = rest
                .split_once(", mate in ")
                .expect("bestmove X, mate in N");
            let n: u32 = mate.parse().expect("mate distance");
            // A mate in n moves is 2n - 1 plies: found by a search of that depth.
            let depth = 2 * n - 1;
            let r = searcher.search(&pos, &Limits::depth(depth), &stop, |_| {});
            let best = r.best_move.map(|m| m.to_string());
            assert_eq!(best.as_deref(), Some(mv), "{}: first move", case.id);
            assert_eq!(
                r.score_view(),
                ScoreView::MatePlies(depth as i32),
                "{}: mate distance",
                case.id
            );
            assert_eq!(r.score_view().mate_moves(), Some(n as i32), "{}", case.id);
        } else if case.expected.starts_with("no legal move") {
            // t11: Red to move is checkmated; Black has won.
            let mut moves = Vec::new();
            assert_eq!(
                pos.generate_moves(&mut moves),
                Some(Outcome::Win(Side::Second))
            );
            let r = searcher.search(&pos, &Limits::depth(5), &stop, |_| {});
            assert_eq!(r.best_move, None, "{}", case.id);
            assert_eq!(r.outcome, Some(Outcome::Win(Side::Second)), "{}", case.id);
            assert_eq!(r.score_view(), ScoreView::MatePlies(0), "{}", case.id);
        } else if case.expected.starts_with("no forced mate") {
            // t12: the start position at depth 7 is near equal.
            let r = searcher.search(&pos, &Limits::depth(7), &stop, |_| {});
            match r.score_view() {
                ScoreView::Centi(s) => assert!(s.abs() < 60, "{}: score {s}", case.id),
                v => panic!("{}: unexpected {v:?}", case.id),
            }
            assert!(r.best_move.is_some());
        } else {
            panic!("{}: unknown expectation '{}'", case.id, case.expected);
        }
    }
}

/// Mates are found by the full engine search whatever the move order, also with more depth
/// than needed: the distance must not change.
#[test]
fn mate_distance_is_stable_with_more_depth() {
    let stop = AtomicBool::new(false);
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1").unwrap();
    let mut s = searcher();
    for depth in [3, 5, 8] {
        let r = s.search(&pos, &Limits::depth(depth), &stop, |_| {});
        assert_eq!(r.score_view(), ScoreView::MatePlies(3), "depth {depth}");
        assert_eq!(r.best_move.map(|m| m.to_string()).as_deref(), Some("a1e1"));
    }
}

/// Perpetual check loses: a side that has checked through the same cycle twice must not
/// check a third time, even far behind in material (a draw would be welcome, but the rules
/// make the repetition a loss).
#[test]
fn perpetual_check_is_avoided_in_search() {
    let stop = AtomicBool::new(false);
    let mut pos = Position::from_fen("9/4k4/9/7rr/9/9/9/9/4A4/R1BK1AB2 w - - 0 1").unwrap();
    for m in "a0a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8".split(' ') {
        let mv = pos.parse_iccs(m).unwrap();
        pos.play(mv);
    }
    let repeat = pos.parse_iccs("a9a8").unwrap();
    pos.play(repeat);
    assert_eq!(
        pos.rule_outcome(1),
        Some(Outcome::Win(Side::Second)),
        "checking a third time loses"
    );
    pos.undo(repeat);
    let r = searcher().search(&pos, &Limits::depth(6), &stop, |_| {});
    assert_ne!(
        r.best_move,
        Some(repeat),
        "the engine walked into a lost perpetual check"
    );
    assert!(!matches!(r.score_view(), ScoreView::MatePlies(1)));
    // Searched alone, the repeating check scores as lost at once (mated 1 ply from the root).
    let only = Limits {
        root_moves: vec![repeat],
        ..Limits::depth(6)
    };
    let r = searcher().search(&pos, &only, &stop, |_| {});
    assert_eq!(r.score_view(), ScoreView::MatePlies(-1));
}

/// Rook against a bare king is a win: the engine does not settle for a repetition.
#[test]
fn rook_against_bare_king_is_scored_a_win() {
    let stop = AtomicBool::new(false);
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    let r = searcher().search(&pos, &Limits::depth(10), &stop, |_| {});
    match r.score_view() {
        ScoreView::Centi(c) => assert!(c > 150, "score {c}"),
        ScoreView::MatePlies(p) => assert!(p > 0, "mated in {p}?"),
    }
}
