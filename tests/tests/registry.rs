//! Conformance of every registered game through the frame's interface, as `qi` sees it (the
//! `games` registry; OpenSpiel's api test iterates its registry the same way): a game added
//! to the registry is checked here without a line of its own.
//!
//! For each game, from its default start: `perft 1` counts exactly the legal moves the session
//! lists (and `perft 2`, divided, the moves after each of them); a seeded random game to its
//! end (or 40 plies) in which every listed move is accepted, a refused text and a taken-back
//! move leave the position exactly as it was, and the engine's move at depth 1 is legal.

use std::sync::atomic::AtomicBool;

use game_frame::{Budget, EngineConfig, Game, GameSpec, Setup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn build(spec: &dyn GameSpec) -> Box<dyn Game> {
    spec.build(&Setup::default(), &EngineConfig::small())
        .unwrap_or_else(|e| panic!("{}: the default setup builds: {e}", spec.name()))
}

/// What a position looks like from outside: the board, the side to move, the legal moves.
fn snapshot(game: &dyn Game) -> (String, game_core::Side, Vec<String>) {
    let mut moves = game.legal_moves();
    moves.sort();
    (format!("{:?}", game.board()), game.side_to_move(), moves)
}

#[test]
fn perft_counts_the_moves_the_session_lists() {
    for spec in games::GAMES {
        let name = spec.name();
        let mut game = build(*spec);
        let moves = game.legal_moves();
        let perft1: u64 = spec
            .perft(&Setup::default(), 1, false)
            .unwrap()
            .iter()
            .map(|(_, n)| n)
            .sum();
        assert_eq!(perft1, moves.len() as u64, "{name}: perft 1");
        let divided = spec.perft(&Setup::default(), 2, true).unwrap();
        assert_eq!(
            divided.len(),
            moves.len(),
            "{name}: perft 2 divides by move"
        );
        for mv in moves.iter().take(60) {
            let count = divided
                .iter()
                .find(|(m, _)| m == mv)
                .unwrap_or_else(|| panic!("{name}: perft 2 names {mv}"))
                .1;
            game.play_text(mv)
                .unwrap_or_else(|e| panic!("{name}: {mv} is listed but refused: {e}"));
            let after = if game.ending().is_some() {
                0
            } else {
                game.legal_moves().len() as u64
            };
            assert_eq!(count, after, "{name}: perft 2 after {mv}");
            game.undo_turn().expect("a move to take back");
        }
    }
}

#[test]
fn random_games_keep_every_refused_or_taken_back_move_harmless() {
    for (seed, spec) in games::GAMES.iter().enumerate() {
        let name = spec.name();
        let mut rng = ChaCha8Rng::seed_from_u64(seed as u64 + 1);
        let mut game = build(*spec);
        // The position where the current turn began, and the moves of the turn so far: a
        // take-back takes the whole turn back (connect6 places two stones a turn).
        let mut turn_start = snapshot(game.as_ref());
        let mut turn: Vec<String> = Vec::new();
        for ply in 0..40 {
            if game.ending().is_some() {
                break;
            }
            let before = snapshot(game.as_ref());
            assert!(
                !before.2.is_empty(),
                "{name}: no move at ply {ply}, not over"
            );
            for bad in ["", "zz", "a0a0a0", "99,99", "resign now"] {
                if game.play_text(bad).is_ok() {
                    panic!("{name}: '{bad}' accepted at ply {ply}");
                }
                assert_eq!(
                    snapshot(game.as_ref()),
                    before,
                    "{name}: '{bad}' changed the game"
                );
            }
            let mv = before.2[rng.random_range(0..before.2.len())].clone();
            game.play_text(&mv)
                .unwrap_or_else(|e| panic!("{name}: {mv} is listed but refused: {e}"));
            turn.push(mv);
            if game.ending().is_none() && game.side_to_move() != before.1 {
                game.undo_turn().expect("a turn to take back");
                assert_eq!(
                    snapshot(game.as_ref()),
                    turn_start,
                    "{name}: taking back {turn:?}"
                );
                for mv in &turn {
                    game.play_text(mv).unwrap();
                }
                turn.clear();
                turn_start = snapshot(game.as_ref());
            }
        }
        // The engine answers a legal move wherever the game goes on.
        if game.ending().is_none() {
            let before = snapshot(game.as_ref());
            let budget = Budget {
                depth: Some(1),
                ..Budget::default()
            };
            let thought = game.think(&budget, &AtomicBool::new(false), &mut |_| {});
            let best = thought.bestmove.expect("a move while the game goes on");
            assert_eq!(
                snapshot(game.as_ref()),
                before,
                "{name}: thinking changed the game"
            );
            game.play_text(&best)
                .unwrap_or_else(|e| panic!("{name}: the engine's {best} is refused: {e}"));
        }
    }
}
