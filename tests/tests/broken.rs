//! The conformance suite catches broken games: each deliberately broken variant of the tiny
//! game (subtraction Nim) must make [`Conformance::run`] fail with the message of the check
//! that guards against that break. A check that cannot fail is a defect.

use std::panic::{AssertUnwindSafe, catch_unwind};

use game_core::{Outcome, Position, Side};
use tests::Conformance;
use tests::tiny::{Nim, NimError, Take};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Break {
    DuplicateMove,
    MissingMove,
    KeyNotRestored,
    StateNotRestored,
    NotationDoesNotRoundTrip,
    MovesAfterTheEnd,
    NeverEnds,
    SearchMovesNotLegal,
}

/// Nim with one deliberate break.
#[derive(Clone, Debug)]
struct Broken {
    nim: Nim,
    flaw: Break,
    /// Bumped by play and not restored by undo (for `KeyNotRestored`/`StateNotRestored`).
    drift: u64,
}

impl Position for Broken {
    type Move = Take;
    type MoveError = NimError;

    fn side_to_move(&self) -> Side {
        self.nim.side_to_move()
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) -> Option<Outcome> {
        let outcome = self.nim.generate_moves(moves);
        match self.flaw {
            Break::DuplicateMove if !moves.is_empty() => moves.push(moves[0]),
            Break::MissingMove if moves.len() == 3 => {
                moves.pop();
            }
            Break::MovesAfterTheEnd if outcome.is_some() => moves.push(Take(1)),
            Break::NeverEnds if outcome.is_some() => {
                // A pass that never ends the game.
                moves.push(Take(0));
                return None;
            }
            _ => {}
        }
        outcome
    }

    fn generate_search_moves(&self, moves: &mut Vec<Take>) -> Option<Outcome> {
        let outcome = self.generate_moves(moves);
        if self.flaw == Break::SearchMovesNotLegal && !moves.is_empty() {
            moves[0] = Take(7);
        }
        outcome
    }

    fn play(&mut self, mv: Take) {
        self.nim.play(mv);
        self.drift += 1;
    }

    fn undo(&mut self, mv: Take) {
        self.nim.undo(mv);
        if !matches!(self.flaw, Break::KeyNotRestored | Break::StateNotRestored) {
            self.drift -= 1;
        }
    }

    fn key(&self) -> u64 {
        self.nim.key()
            ^ if self.flaw == Break::KeyNotRestored {
                self.drift
            } else {
                0
            }
    }

    fn parse_move(&self, text: &str) -> Result<Take, NimError> {
        if self.flaw == Break::NeverEnds && text == "0" {
            return Ok(Take(0));
        }
        let mv = self.nim.parse_move(text)?;
        Ok(
            if self.flaw == Break::NotationDoesNotRoundTrip && mv.0 == 2 {
                Take(1)
            } else {
                mv
            },
        )
    }

    fn format_move(&self, mv: Take) -> String {
        self.nim.format_move(mv)
    }
}

fn failure(flaw: Break) -> String {
    let start = Broken {
        nim: Nim::new(11),
        flaw,
        drift: 0,
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        Conformance::new("broken nim", vec![start], 5, 40)
            .reference_moves(move |p: &Broken| {
                if flaw == Break::NeverEnds && p.nim.pile() == 0 {
                    return vec![Take(0)];
                }
                (1..=3).filter(|&t| t <= p.nim.pile()).map(Take).collect()
            })
            .snapshot(|p: &Broken| format!("{:?} {}", p.nim, p.drift))
            .key_from_scratch(|p: &Broken| p.nim.key_from_scratch())
            .search_equivalence(if flaw == Break::NeverEnds { 0 } else { 3 }, 2)
            .run()
    }));
    match result {
        Ok(n) => panic!("{flaw:?} went unnoticed over {n} positions"),
        Err(panic) => panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    }
}

#[test]
fn every_break_is_caught_by_its_check() {
    let cases = [
        (Break::DuplicateMove, "duplicate moves"),
        (Break::MissingMove, "missing [Take(3)]"),
        (Break::KeyNotRestored, "changes the key"),
        (Break::StateNotRestored, "changes the position"),
        (Break::NotationDoesNotRoundTrip, "parses to another move"),
        (Break::MovesAfterTheEnd, "a finished game lists moves"),
        (Break::NeverEnds, "game longer than 40 plies"),
        (Break::SearchMovesNotLegal, "a search move is not legal"),
    ];
    // The expected panics are the point; keep their reports out of the test output.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let messages: Vec<_> = cases.iter().map(|&(flaw, _)| failure(flaw)).collect();
    std::panic::set_hook(default_hook);
    for ((flaw, expected), message) in cases.into_iter().zip(messages) {
        assert!(
            message.contains(expected),
            "{flaw:?}: expected '{expected}', got: {message}"
        );
    }
}
