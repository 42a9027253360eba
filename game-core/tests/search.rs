//! Proofs of the shared search on small k-in-a-row games: it returns the plain minimax value
//! at the same depth (with the table on and off, with one and two stones per turn), never
//! returns an illegal move, finds forced wins at their exact distance, returns a legal
//! principal variation and is deterministic on one thread.

use std::sync::atomic::AtomicBool;

use game_core::search::{Limits, SearchOptions, Searcher, minimax};
use game_core::{Outcome, Position, ScoreView, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod common;
use common::k_in_a_row::{Cell, KInARow, RandomEval};

fn random_position(rng: &mut ChaCha8Rng, template: &KInARow, max_stones: usize) -> KInARow {
    loop {
        let mut pos = template.clone();
        let stones = rng.random_range(0..=max_stones);
        let mut moves = Vec::new();
        for _ in 0..stones {
            if pos.generate_moves(&mut moves).is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            pos.play(mv);
        }
        if pos.generate_moves(&mut moves).is_none() {
            return pos;
        }
    }
}

fn search(
    pos: &KInARow,
    options: SearchOptions,
    depth: u32,
) -> game_core::search::SearchResult<Cell> {
    let mut searcher = Searcher::new(RandomEval, options);
    searcher.search(pos, &Limits::depth(depth), &AtomicBool::new(false), |_| {})
}

fn assert_legal_line(pos: &KInARow, line: &[Cell]) {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for &mv in line {
        assert!(
            pos.generate_moves(&mut moves).is_none(),
            "line goes past the end of the game"
        );
        assert!(moves.contains(&mv), "illegal move {mv:?} in line {line:?}");
        pos.play(mv);
    }
}

fn check_equivalence(template: KInARow, seed: u64, positions: usize, depth: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut no_table = SearchOptions::exact();
    no_table.transposition_table = false;
    let mut bare = no_table.clone();
    bare.aspiration_windows = false;
    bare.killers = false;
    bare.history = false;
    for n in 0..positions {
        let mut pos = random_position(&mut rng, &template, template.cells.len() - 3);
        let expected = minimax(&mut pos, &RandomEval, depth);
        for options in [SearchOptions::exact(), no_table.clone(), bare.clone()] {
            let result = search(&pos, options.clone(), depth);
            assert_eq!(
                result.score,
                expected,
                "position #{n} (key {:#x}) depth {depth} options {options:?}",
                pos.key()
            );
            assert_eq!(result.depth, depth.min(result.depth));
            let best = result.best_move.expect("a move");
            assert_legal_line(&pos, &result.pv);
            assert_eq!(result.pv[0], best);
            // The best move really achieves the value: a depth-1-shallower minimax after it.
            let side = pos.side_to_move();
            pos.play(best);
            if !game_core::score::is_mate_score(expected) {
                let after = minimax(&mut pos, &RandomEval, depth - 1);
                let after = if pos.side_to_move() == side {
                    after
                } else {
                    -after
                };
                assert_eq!(after, expected, "best move {best:?} of position #{n}");
            }
            pos.undo(best);
        }
    }
}

#[test]
fn equals_minimax_one_stone_per_turn() {
    // Connect(4,4,3,1,1): tic-tac-toe on 4x4.
    check_equivalence(KInARow::new(4, 4, 3, 1, 1), 1, 200, 4);
}

#[test]
fn equals_minimax_two_stones_per_turn() {
    // Connect(5,5,4,2,1): a small connect6, where the side to move stays for a second stone.
    check_equivalence(KInARow::new(5, 5, 4, 2, 1), 2, 150, 4);
}

#[test]
fn equals_minimax_deeper_on_a_small_board() {
    check_equivalence(KInARow::new(4, 3, 3, 1, 1), 3, 100, 6);
}

fn play_all(pos: &mut KInARow, cells: &[u8]) {
    for &c in cells {
        pos.play(Cell(c));
    }
}

#[test]
fn finds_a_win_in_one_and_prefers_it() {
    // 4x4, three in a row: First has 0 and 1, Second 12 and 13; First to move wins at 2.
    let mut pos = KInARow::new(4, 4, 3, 1, 1);
    play_all(&mut pos, &[0, 12, 1, 13]);
    let result = search(&pos, SearchOptions::default(), 5);
    assert_eq!(result.best_move, Some(Cell(2)));
    assert_eq!(result.score_view(), ScoreView::MatePlies(1));
}

/// Every random 4x4 three-in-a-row position where minimax proves a forced win within 5 plies:
/// a search with `options` to `depth` (at least 5) reports the same distance, and its
/// principal variation is a legal line of that length that ends the game with that winner.
fn assert_forced_wins_exact(options: &SearchOptions, depth: u32) {
    let template = KInARow::new(4, 4, 3, 1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut found = 0;
    for _ in 0..150 {
        let mut pos = random_position(&mut rng, &template, 8);
        let expected = minimax(&mut pos, &RandomEval, 5);
        if !game_core::score::is_mate_score(expected) || expected < 0 {
            continue;
        }
        found += 1;
        let result = search(&pos, options.clone(), depth);
        assert_eq!(result.score, expected, "key {:#x}", pos.key());
        let ScoreView::MatePlies(plies) = result.score_view() else {
            panic!("not a mate")
        };
        assert_eq!(result.pv.len(), plies as usize, "pv {:?}", result.pv);
        assert_legal_line(&pos, &result.pv);
        let winner = pos.side_to_move();
        for &mv in &result.pv {
            pos.play(mv);
        }
        assert_eq!(pos.winner, Some(winner));
    }
    assert!(found >= 10, "only {found} forced wins among the sample");
}

/// On 500 random 4x4 positions (seed `seed`) searched 6 plies deep with `options`: every
/// line is legal and every win the search claims is one minimax finds within that many
/// plies; at least 20 wins are claimed.
fn assert_only_real_wins(options: &SearchOptions, seed: u64) {
    let template = KInARow::new(4, 4, 3, 1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut wins = 0;
    for _ in 0..500 {
        let mut pos = random_position(&mut rng, &template, 6);
        let result = search(&pos, options.clone(), 6);
        assert_legal_line(&pos, &result.pv);
        let ScoreView::MatePlies(plies) = result.score_view() else {
            continue;
        };
        if plies > 0 {
            wins += 1;
            let plies = plies.unsigned_abs();
            let exact = minimax(&mut pos, &RandomEval, plies);
            assert!(
                exact >= game_core::score::mate_in(plies),
                "key {:#x}",
                pos.key()
            );
        }
    }
    assert!(wins >= 20, "only {wins} wins claimed");
}

#[test]
fn finds_forced_wins_at_their_exact_distance() {
    // The full search (null move and reductions off by the game's defaults).
    assert_forced_wins_exact(&SearchOptions::default(), 5);
}

#[test]
fn two_stone_turn_wins_are_found() {
    // 5x5, four in a row, two stones per turn: First places 0, Second 20 and 21 (top row),
    // First 1 and 15. Second, with two stones to place, completes 20-23 within its own turn
    // (2 plies) although First threatens nothing yet.
    let mut pos = KInARow::new(5, 5, 4, 2, 1);
    play_all(&mut pos, &[0, 20, 21, 1, 15]);
    assert_eq!(pos.side_to_move(), Side::Second);
    let result = search(&pos, SearchOptions::default(), 4);
    assert_eq!(result.score_view(), ScoreView::MatePlies(2));
    assert_legal_line(&pos, &result.pv);
}

/// Iterations by whole turns (`Limits::depth_step` 2) on the two-stone toy game: every
/// random position gets the plain minimax value at the final depth (4 plies: two turns),
/// with the table on and off, and a legal principal variation starting with the best move.
#[test]
fn whole_turn_iterations_keep_the_minimax_value() {
    let template = KInARow::new(5, 5, 4, 2, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut no_table = SearchOptions::exact();
    no_table.transposition_table = false;
    for n in 0..120 {
        let mut pos = random_position(&mut rng, &template, template.cells.len() - 8);
        let expected = minimax(&mut pos, &RandomEval, 4);
        for options in [SearchOptions::exact(), no_table.clone()] {
            let mut searcher = Searcher::new(RandomEval, options.clone());
            let limits = Limits {
                depth_step: 2,
                ..Limits::depth(4)
            };
            let result = searcher.search(&pos, &limits, &AtomicBool::new(false), |_| {});
            assert_eq!(
                result.score,
                expected,
                "position #{n} (key {:#x}) options {options:?}",
                pos.key()
            );
            // Only even depths are searched (or the iteration that proved a result).
            assert!(result.depth % 2 == 0, "depth {}", result.depth);
            assert_legal_line(&pos, &result.pv);
            assert_eq!(result.pv.first(), result.best_move.as_ref());
        }
    }
}

/// A win with the turn's first stone is one ply sooner than a win with its second, even
/// when the second-stone win is searched first and the first-stone win is tried in a null
/// window: mate distance pruning must allow a win on the spot after the same side's stone.
#[test]
fn a_first_stone_win_beats_a_second_stone_win_searched_first() {
    // 5x5, four in a row, two stones per turn: First 4, Second 0 1, First 9 14, Second 20
    // 21. First, with two stones, wins with its first at 19 (column 4-9-14-19); any other
    // first stone wins with 19 as the second. The root tries cell 2 first (board order), so
    // 19 is searched in a null window behind a win one ply slower.
    let mut pos = KInARow::new(5, 5, 4, 2, 1);
    play_all(&mut pos, &[4, 0, 1, 9, 14, 20, 21]);
    assert_eq!(pos.side_to_move(), Side::First);
    for options in [SearchOptions::exact(), SearchOptions::default()] {
        let mut searcher = Searcher::new(RandomEval, options);
        // Iterations by whole turns: the first one is already two plies deep.
        let limits = Limits {
            depth_step: 2,
            ..Limits::depth(4)
        };
        let result = searcher.search(&pos, &limits, &AtomicBool::new(false), |_| {});
        assert_eq!(result.score_view(), ScoreView::MatePlies(1));
        assert_eq!(result.best_move, Some(Cell(19)));
    }
}

#[test]
fn one_thread_is_deterministic() {
    let template = KInARow::new(6, 6, 4, 1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let pos = random_position(&mut rng, &template, 8);
    let run = || {
        let mut searcher = Searcher::new(RandomEval, SearchOptions::default());
        let r = searcher.search(&pos, &Limits::depth(6), &AtomicBool::new(false), |_| {});
        (r.best_move, r.score, r.nodes, r.pv)
    };
    assert_eq!(run(), run());
    let by_nodes = || {
        let mut searcher = Searcher::new(RandomEval, SearchOptions::default());
        let r = searcher.search(&pos, &Limits::nodes(5_000), &AtomicBool::new(false), |_| {});
        (r.best_move, r.score, r.nodes)
    };
    let (a, b) = (by_nodes(), by_nodes());
    assert_eq!(a, b);
    assert!(
        a.2 >= 5_000 && a.2 < 5_000 + 2 * game_core::search::CHECK_INTERVAL,
        "{a:?}"
    );
}

#[test]
fn threads_return_legal_moves_and_reports_are_consistent() {
    let template = KInARow::new(6, 6, 4, 2, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    for _ in 0..10 {
        let pos = random_position(&mut rng, &template, 12);
        let mut searcher = Searcher::new(
            RandomEval,
            SearchOptions {
                threads: 2,
                ..SearchOptions::default()
            },
        );
        let mut reports = Vec::new();
        let result = searcher.search(&pos, &Limits::depth(4), &AtomicBool::new(false), |r| {
            reports.push(r.clone())
        });
        assert_legal_line(&pos, &result.pv);
        assert_eq!(reports.last().map(|r| r.depth), Some(result.depth));
        assert!(
            reports
                .windows(2)
                .all(|w| w[0].depth < w[1].depth && w[0].nodes <= w[1].nodes)
        );
    }
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let pos = KInARow::new(6, 6, 4, 1, 1);
    let mut searcher = Searcher::new(RandomEval, SearchOptions::default());
    let result = searcher.search(&pos, &Limits::default(), &AtomicBool::new(true), |_| {});
    let mv = result.best_move.expect("a move");
    assert!(usize::from(mv.0) < 36);
}

#[test]
fn a_finished_game_returns_its_outcome() {
    let mut pos = KInARow::new(4, 4, 3, 1, 1);
    play_all(&mut pos, &[0, 12, 1, 13, 2]);
    let result = search(&pos, SearchOptions::default(), 3);
    assert_eq!(result.best_move, None);
    assert_eq!(result.outcome, Some(Outcome::Win(Side::First)));
}

#[test]
fn root_move_restrictions_are_obeyed() {
    let mut pos = KInARow::new(4, 4, 3, 1, 1);
    play_all(&mut pos, &[0, 12, 1, 13]);
    let mut searcher = Searcher::new(RandomEval, SearchOptions::default());
    let limits = Limits {
        depth: Some(3),
        excluded_moves: vec![Cell(2)],
        ..Limits::default()
    };
    let result = searcher.search(&pos, &limits, &AtomicBool::new(false), |_| {});
    assert_ne!(result.best_move, Some(Cell(2)));
    let limits = Limits {
        depth: Some(3),
        root_moves: vec![Cell(5), Cell(6)],
        ..Limits::default()
    };
    let result = searcher.search(&pos, &limits, &AtomicBool::new(false), |_| {});
    assert!(matches!(result.best_move, Some(Cell(5 | 6))));
}

/// The options of a search with singular extension from depth 2 (margin 1 per ply), the rest
/// as [`SearchOptions::default`].
fn singular_options() -> SearchOptions {
    SearchOptions {
        pruning: game_core::search::Pruning {
            singular_depth: 2,
            singular_margin: 1,
            ..game_core::search::Pruning::OFF
        },
        ..SearchOptions::default()
    }
}

#[test]
fn singular_extension_keeps_forced_wins_exact() {
    // Two plies deeper than the wins' length, with singular extension (its test searches,
    // which leave the table move out, run at every depth from 2).
    assert_forced_wins_exact(&singular_options(), 7);
}

#[test]
fn singular_extension_plays_legal_lines() {
    // Deeper than the singular depth on a bigger board: the line is legal and the search
    // deterministic on one thread.
    let template = KInARow::new(6, 6, 4, 1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..10 {
        let pos = random_position(&mut rng, &template, 10);
        let a = search(&pos, singular_options(), 6);
        let b = search(&pos, singular_options(), 6);
        assert_legal_line(&pos, &a.pv);
        assert_eq!(
            (a.best_move, a.score, a.nodes),
            (b.best_move, b.score, b.nodes)
        );
    }
}

/// Late-move pruning that keeps one move a node and prunes in mate windows too
/// ([`game_core::search::Pruning::lmp_mate`]): the search skips most moves, so its wins may be
/// longer than the shortest, but every win it reports is one that minimax finds within that
/// many plies. In a mate window pruning waits for a searched move that does not lose, so a
/// skipped defence never makes the opponent's win. (Outside mate windows a node whose searched
/// moves all lost still fails low with that loss, as before; such a loss is not proven.)
#[test]
fn late_move_pruning_in_mate_windows_reports_only_real_wins() {
    let options = SearchOptions {
        pruning: game_core::search::Pruning {
            lmp_depth: 64,
            lmp_base: 1,
            lmp_scale: 0,
            lmp_power: 100,
            lmp_pv: true,
            lmp_mate: true,
            ..game_core::search::Pruning::OFF
        },
        ..SearchOptions::default()
    };
    assert_only_real_wins(&options, 11);
}

/// MultiPV: distinct root moves, best first, each line's score the exact minimax value of
/// its root move, and the first line the single-PV search's score (and move, when no other
/// root move ties it) at the same depth.
#[test]
fn multipv_lines_are_distinct_ordered_and_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let template = KInARow::new(4, 4, 3, 1, 1);
    let depth = 4;
    for n in 0..100 {
        let mut pos = random_position(&mut rng, &template, 8);
        let single = search(&pos, SearchOptions::exact(), depth);
        let mut searcher = Searcher::new(RandomEval, SearchOptions::exact());
        let limits = Limits {
            multipv: 3,
            ..Limits::depth(depth)
        };
        let mut reported = Vec::new();
        let result = searcher.search(&pos, &limits, &AtomicBool::new(false), |r| {
            reported.push(r.lines.clone());
        });
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        assert_eq!(result.lines.len(), moves.len().min(3), "position #{n}");
        assert_eq!(reported.last(), Some(&result.lines));
        let firsts: Vec<Cell> = result.lines.iter().map(|l| l.pv[0]).collect();
        for (i, m) in firsts.iter().enumerate() {
            assert!(
                !firsts[..i].contains(m),
                "position #{n}: {firsts:?} repeats a move"
            );
        }
        assert!(
            result.lines.windows(2).all(|w| w[0].score >= w[1].score),
            "position #{n}: {:?}",
            result.lines
        );
        assert_eq!(result.lines[0].score, single.score, "position #{n}");
        assert_eq!(
            (result.score, &result.pv),
            (result.lines[0].score, &result.lines[0].pv)
        );
        if result.lines.len() == 1 || result.lines[1].score < result.lines[0].score {
            assert_eq!(result.best_move, single.best_move, "position #{n}");
        }
        let side = pos.side_to_move();
        for line in &result.lines {
            assert_legal_line(&pos, &line.pv);
            if game_core::score::is_mate_score(line.score) {
                continue;
            }
            pos.play(line.pv[0]);
            let after = minimax(&mut pos, &RandomEval, depth - 1);
            let after = if pos.side_to_move() == side {
                after
            } else {
                -after
            };
            pos.undo(line.pv[0]);
            assert_eq!(after, line.score, "position #{n} line {line:?}");
        }
    }
}

/// Futility pruning of moves, history in late-move reductions and a larger null-move
/// reduction, each set so that it fires often (a margin of 1 a ply, a history divisor of 1):
/// every win the search reports is one minimax finds within that many plies (the win may be
/// longer than the shortest: a skipped or reduced quiet move can hide the fastest one).
/// Futility pruning waits for a searched move that does not lose and stays out of mate
/// windows, so a skipped defence never makes the opponent's win.
#[test]
fn move_futility_and_history_reductions_report_only_real_wins() {
    let options = SearchOptions {
        pruning: game_core::search::Pruning {
            move_futility_depth: 8,
            move_futility_margin: 1,
            lmr_history_divisor: 1,
            null_move_base: 3,
            null_move_divisor: 3,
            null_move_eval_divisor: 1,
            ..game_core::search::Pruning::OFF
        },
        ..SearchOptions::default()
    };
    assert_only_real_wins(&options, 13);
}

/// Futility pruning of moves prunes: on the same positions and depth the search with it
/// visits fewer nodes than without it, and keeps to legal lines.
#[test]
fn move_futility_pruning_skips_moves() {
    let futility = SearchOptions {
        pruning: game_core::search::Pruning {
            move_futility_depth: 8,
            move_futility_margin: 1,
            ..game_core::search::Pruning::OFF
        },
        ..SearchOptions::default()
    };
    let template = KInARow::new(5, 5, 4, 1, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    let (mut with, mut without) = (0, 0);
    for _ in 0..20 {
        let pos = random_position(&mut rng, &template, 6);
        let pruned = search(&pos, futility.clone(), 5);
        assert_legal_line(&pos, &pruned.pv);
        with += pruned.nodes;
        without += search(&pos, SearchOptions::default(), 5).nodes;
    }
    assert!(
        with < without,
        "{with} nodes with futility pruning, {without} without"
    );
}
