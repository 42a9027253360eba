//! Cross-game conformance checks for qi.
//!
//! [`Conformance`] runs one generic suite over seeded random playouts of any
//! [`game_core::Position`]: move generation (no duplicates, every move playable, nothing
//! missing against a slow reference generator the test supplies), play/undo symmetry, the
//! incremental Zobrist key against one computed from scratch, clones, outcomes, game length,
//! notation round trips, and the shared search's equivalence with plain minimax. Every game's
//! test file calls it in a few lines; a new game gets the whole suite the same way.
#![deny(missing_docs)]

use std::collections::HashSet;
use std::fmt::Debug;
use std::sync::atomic::AtomicBool;

use game_core::search::{Limits, SearchOptions, Searcher, minimax};
use game_core::{Evaluate, Move, Outcome, Position, Score};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub mod tiny;

/// A deterministic random evaluation for any game: a hash of the position's Zobrist key,
/// `-500..=500`. Makes search-equivalence checks sensitive to every leaf.
#[derive(Copy, Clone, Debug, Default)]
pub struct KeyHashEval;

impl<P: Position> Evaluate<P> for KeyHashEval {
    fn evaluate(&self, position: &P) -> Score {
        let (h, _) = game_core::zobrist::SplitMix64::new(position.key()).next();
        (h % 1001) as Score - 500
    }
}

/// The generic conformance suite for game `P`.
///
/// Build it with [`Conformance::new`], attach what the game can offer (a reference
/// generator, a full-state snapshot, a from-scratch key, notations), then call
/// [`run`](Conformance::run). Every failure panics with the seed, game number and ply.
pub struct Conformance<P: Position> {
    name: String,
    starts: Vec<P>,
    games: usize,
    max_plies: usize,
    seed: u64,
    reference_moves: Option<Probe<P, Vec<P::Move>>>,
    snapshot: Option<Probe<P, String>>,
    key_from_scratch: Option<Probe<P, u64>>,
    notations: Vec<(String, Notation<P>)>,
    search_depth: u32,
    search_every: usize,
}

/// A function of a position the suite compares with the game's own answer.
pub type Probe<P, T> = Box<dyn Fn(&P) -> T>;

/// A notation: format a move in a position, parse it back.
pub type Notation<P> = (
    Box<dyn Fn(&P, <P as Position>::Move) -> String>,
    Box<dyn Fn(&P, &str) -> Option<<P as Position>::Move>>,
);

impl<P: Position> Conformance<P> {
    /// A suite named `name` (used in failure messages) that plays `games` seeded random games
    /// from each of `starts`, each at most `max_plies` plies long (a game still running then
    /// fails the length bound).
    pub fn new(name: &str, starts: Vec<P>, games: usize, max_plies: usize) -> Self {
        Conformance {
            name: name.to_string(),
            starts,
            games,
            max_plies,
            seed: 0x5EED,
            reference_moves: None,
            snapshot: None,
            key_from_scratch: None,
            notations: Vec::new(),
            search_depth: 2,
            search_every: 25,
        }
    }

    /// The random seed (default `0x5EED`).
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// A slow, obviously correct generator of every legal move: the generated set must equal
    /// it exactly (nothing missing, nothing extra).
    pub fn reference_moves(mut self, f: impl Fn(&P) -> Vec<P::Move> + 'static) -> Self {
        self.reference_moves = Some(Box::new(f));
        self
    }

    /// A full description of the state (a FEN, a board dump with the side to move): play then
    /// undo and a clone must reproduce it exactly.
    pub fn snapshot(mut self, f: impl Fn(&P) -> String + 'static) -> Self {
        self.snapshot = Some(Box::new(f));
        self
    }

    /// The Zobrist key computed from scratch: must equal the incremental key at every ply.
    pub fn key_from_scratch(mut self, f: impl Fn(&P) -> u64 + 'static) -> Self {
        self.key_from_scratch = Some(Box::new(f));
        self
    }

    /// A notation to round-trip for every legal move at every ply (the game's standard
    /// notation through `Position::format_move`/`parse_move` is always checked).
    pub fn notation(
        mut self,
        name: &str,
        format: impl Fn(&P, P::Move) -> String + 'static,
        parse: impl Fn(&P, &str) -> Option<P::Move> + 'static,
    ) -> Self {
        self.notations
            .push((name.to_string(), (Box::new(format), Box::new(parse))));
        self
    }

    /// Search equivalence: every `every`-th ply, the search with its sound enhancements at
    /// `depth` must return the plain minimax value (defaults: depth 2, every 25th ply; depth 0
    /// turns it off).
    pub fn search_equivalence(mut self, depth: u32, every: usize) -> Self {
        self.search_depth = depth;
        self.search_every = every.max(1);
        self
    }

    /// Runs the suite. Returns the number of positions checked.
    ///
    /// # Panics
    /// On the first violation, naming the check, seed, game and ply.
    pub fn run(&self) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut checked = 0;
        let mut moves = Vec::new();
        let mut searcher = Searcher::new(
            KeyHashEval,
            SearchOptions {
                hash_mib: 1,
                ..SearchOptions::exact()
            },
        );
        for (s, start) in self.starts.iter().enumerate() {
            for game in 0..self.games {
                let mut pos = start.clone();
                let mut line: Vec<P::Move> = Vec::new();
                let mut ply = 0;
                loop {
                    let at = || {
                        format!(
                            "{}: seed {:#x}, start {s}, game {game}, ply {ply}",
                            self.name, self.seed
                        )
                    };
                    checked += 1;
                    let outcome = pos.generate_moves(&mut moves);
                    self.check_position(&pos, &moves, outcome, &at);
                    if self.search_depth > 0 && ply % self.search_every == 0 && outcome.is_none() {
                        searcher.clear();
                        let result = searcher.search(
                            &pos,
                            &Limits::depth(self.search_depth),
                            &AtomicBool::new(false),
                            |_| {},
                        );
                        let expected = minimax(&mut pos.clone(), &KeyHashEval, self.search_depth);
                        if result.score != expected {
                            // Diagnose: does the table make the difference?
                            let mut no_table = SearchOptions {
                                hash_mib: 1,
                                ..SearchOptions::exact()
                            };
                            no_table.transposition_table = false;
                            let without_table = Searcher::new(KeyHashEval, no_table)
                                .search(
                                    &pos,
                                    &Limits::depth(self.search_depth),
                                    &AtomicBool::new(false),
                                    |_| {},
                                )
                                .score;
                            panic!(
                                "search {} != minimax {expected} at depth {} (without the table: {without_table}): {}\n\
                                 line from the start: {}",
                                result.score,
                                self.search_depth,
                                at(),
                                replay_line(start, &line)
                            );
                        }
                        let mut legal = Vec::new();
                        pos.generate_moves(&mut legal);
                        assert!(
                            result.best_move.is_some_and(|m| legal.contains(&m)),
                            "search returned {:?}, not a legal move: {}",
                            result.best_move,
                            at()
                        );
                    }
                    if outcome.is_some() {
                        break;
                    }
                    assert!(
                        ply < self.max_plies,
                        "game longer than {} plies: {}",
                        self.max_plies,
                        at()
                    );
                    let mv = moves[rng.random_range(0..moves.len())];
                    pos.play(mv);
                    line.push(mv);
                    ply += 1;
                }
                // Unwind the whole game: every undo restores the earlier state.
                while let Some(mv) = line.pop() {
                    pos.undo(mv);
                }
                if let Some(snapshot) = &self.snapshot {
                    assert_eq!(
                        snapshot(&pos),
                        snapshot(start),
                        "{}: undoing a whole game",
                        self.name
                    );
                }
                assert_eq!(
                    pos.key(),
                    start.key(),
                    "{}: key after undoing a whole game",
                    self.name
                );
            }
        }
        checked
    }

    fn check_position(
        &self,
        pos: &P,
        moves: &[P::Move],
        outcome: Option<Outcome>,
        at: &dyn Fn() -> String,
    ) {
        // Outcome and moves agree.
        match outcome {
            Some(_) => assert!(moves.is_empty(), "a finished game lists moves: {}", at()),
            None => assert!(!moves.is_empty(), "no moves but no outcome: {}", at()),
        }
        // No duplicates, codes unique.
        let unique: HashSet<_> = moves.iter().collect();
        assert_eq!(unique.len(), moves.len(), "duplicate moves: {}", at());
        let codes: HashSet<u32> = moves.iter().map(|m| m.code()).collect();
        assert_eq!(codes.len(), moves.len(), "two moves share a code: {}", at());
        // Against the reference generator.
        if let Some(reference) = &self.reference_moves
            && outcome.is_none()
        {
            let expected: HashSet<_> = reference(pos).into_iter().collect();
            let missing: Vec<_> = expected
                .difference(&unique.iter().copied().copied().collect())
                .copied()
                .collect();
            let extra: Vec<_> = unique.iter().filter(|m| !expected.contains(m)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "missing {missing:?}, extra {extra:?}: {}",
                at()
            );
        }
        // Clone equals original.
        let snapshot = self.snapshot.as_ref().map(|f| f(pos));
        if let Some(f) = &self.snapshot {
            assert_eq!(
                f(&pos.clone()),
                snapshot.clone().unwrap(),
                "clone differs: {}",
                at()
            );
        }
        if let Some(f) = &self.key_from_scratch {
            assert_eq!(
                f(pos),
                pos.key(),
                "incremental key differs from the key from scratch: {}",
                at()
            );
        }
        // Every move playable; undo restores; notations round-trip; search moves a subset.
        let mut work = pos.clone();
        let key = pos.key();
        let mut search_moves = Vec::new();
        let search_outcome = pos.generate_search_moves(&mut search_moves);
        assert_eq!(
            search_outcome,
            outcome,
            "search moves disagree on the outcome: {}",
            at()
        );
        assert!(
            search_moves.iter().all(|m| unique.contains(m)),
            "a search move is not legal: {}",
            at()
        );
        for &mv in moves {
            let text = pos.format_move(mv);
            match pos.parse_move(&text) {
                Ok(back) => assert_eq!(back, mv, "'{text}' parses to another move: {}", at()),
                Err(e) => panic!("'{text}' does not parse back ({e}): {}", at()),
            }
            for (name, (format, parse)) in &self.notations {
                let text = format(pos, mv);
                assert_eq!(
                    parse(pos, &text),
                    Some(mv),
                    "{name} '{text}' does not round-trip: {}",
                    at()
                );
            }
            work.play(mv);
            work.undo(mv);
            assert_eq!(
                work.key(),
                key,
                "play/undo of {mv:?} changes the key: {}",
                at()
            );
            // The moves the search tries depend on the position alone, not on how it was
            // reached: a transposition must see the same subtree.
            let mut again = Vec::new();
            work.generate_search_moves(&mut again);
            assert_eq!(
                again,
                search_moves,
                "play/undo of {mv:?} changes the search moves: {}",
                at()
            );
            if let Some(f) = &self.snapshot {
                assert_eq!(
                    Some(f(&work)),
                    snapshot,
                    "play/undo of {mv:?} changes the position: {}",
                    at()
                );
            }
        }
    }
}

/// A golden playthrough (OpenSpiel's idea): a seeded random game recorded ply by ply — the
/// board as `render` draws it, the side to move, the sorted legal moves in the game's
/// notation, the move played — and the outcome at the end. Snapshot it with insta: a changed
/// playthrough is a behaviour change that a commit must explain.
pub fn playthrough<P: Position>(
    start: &P,
    seed: u64,
    max_plies: usize,
    render: impl Fn(&P) -> String,
) -> String {
    use std::fmt::Write as _;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut out = String::new();
    for ply in 0..=max_plies {
        let outcome = pos.generate_moves(&mut moves);
        let _ = writeln!(
            out,
            "== ply {ply}, {:?} to move\n{}",
            pos.side_to_move(),
            render(&pos).trim_end()
        );
        if let Some(outcome) = outcome {
            let _ = writeln!(out, "outcome: {outcome:?}");
            return out;
        }
        let mut names: Vec<String> = moves.iter().map(|&m| pos.format_move(m)).collect();
        names.sort();
        let _ = writeln!(out, "legal ({}): {}", names.len(), names.join(" "));
        if ply == max_plies {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let _ = writeln!(out, "plays: {}", pos.format_move(mv));
        pos.play(mv);
    }
    let _ = writeln!(out, "stopped after {max_plies} plies");
    out
}

/// The moves of `line` from `start`, each in the notation of the position it is played in.
fn replay_line<P: Position>(start: &P, line: &[P::Move]) -> String {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        out.push(pos.format_move(mv));
        pos.play(mv);
    }
    out.join(" ")
}

/// Asserts that `f` returns without panicking for every input (used by the parser
/// robustness properties: a parser returns a value or a typed error, never a panic).
pub fn never_panics<T: Debug>(input: &str, f: impl FnOnce(&str) -> T + std::panic::UnwindSafe) {
    if let Err(panic) = std::panic::catch_unwind(|| f(input)) {
        panic!("panicked on input {input:?}: {panic:?}");
    }
}
