//! Subtraction Nim, the smallest complete game: the one `docs/adding-a-game.md` walks through
//! and the first game the conformance suite runs on.
//!
//! A pile of `n` counters (1..=63); each player in turn takes 1, 2 or 3; whoever takes the
//! last counter wins. The side to move loses exactly when the pile is a multiple of 4 (a
//! classical result), which the tests check against the search.

use game_core::zobrist::SplitMix64;
use game_core::{Evaluate, Move, Outcome, Position, Score, Side};

/// Counters taken by one move: 1..=3.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Take(pub u8);

impl Move for Take {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

/// Zobrist keys: one per pile size 0..=63, one for "Second to move".
const KEYS: [u64; 65] = SplitMix64::new(0x0_4E11).table();

/// The largest pile.
pub const MAX_PILE: u8 = 63;

/// A Nim position: the pile and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nim {
    pile: u8,
    to_move: Side,
}

/// A move that cannot be read or is not legal.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NimError {
    /// Not a number 1..=3.
    #[error("expected 1, 2 or 3 counters, got '{0}'")]
    NotATake(String),
    /// More counters than the pile holds.
    #[error("cannot take {take}: the pile holds {pile}")]
    TooMany {
        /// The counters asked for.
        take: u8,
        /// The pile.
        pile: u8,
    },
}

impl Nim {
    /// A pile of `pile` counters (clamped to 0..=63), First to move.
    pub fn new(pile: u8) -> Self {
        Nim {
            pile: pile.min(MAX_PILE),
            to_move: Side::First,
        }
    }

    /// Counters left.
    pub fn pile(&self) -> u8 {
        self.pile
    }

    /// The key computed from scratch (the conformance suite compares it with [`Position::key`]).
    pub fn key_from_scratch(&self) -> u64 {
        KEYS[usize::from(self.pile)]
            ^ if self.to_move == Side::Second {
                KEYS[64]
            } else {
                0
            }
    }
}

impl Position for Nim {
    type Move = Take;
    type MoveError = NimError;

    fn side_to_move(&self) -> Side {
        self.to_move
    }

    fn generate_moves(&self, moves: &mut Vec<Take>) -> Option<Outcome> {
        moves.clear();
        if self.pile == 0 {
            // The previous player took the last counter.
            return Some(Outcome::Win(self.to_move.opponent()));
        }
        moves.extend((1..=self.pile.min(3)).map(Take));
        None
    }

    fn play(&mut self, mv: Take) {
        self.pile -= mv.0;
        self.to_move = self.to_move.opponent();
    }

    fn undo(&mut self, mv: Take) {
        self.pile += mv.0;
        self.to_move = self.to_move.opponent();
    }

    fn key(&self) -> u64 {
        // Small enough to recompute; a real game updates its key incrementally in play/undo.
        self.key_from_scratch()
    }

    fn parse_move(&self, text: &str) -> Result<Take, NimError> {
        let take = match text.trim() {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            _ => return Err(NimError::NotATake(text.to_string())),
        };
        if take > self.pile {
            return Err(NimError::TooMany {
                take,
                pile: self.pile,
            });
        }
        Ok(Take(take))
    }

    fn format_move(&self, mv: Take) -> String {
        mv.0.to_string()
    }
}

/// No knowledge at all: every unfinished position scores 0, so only the search finds wins.
pub struct NoKnowledge;

impl Evaluate<Nim> for NoKnowledge {
    fn evaluate(&self, _: &Nim) -> Score {
        0
    }
}
