//! Opening rules: the steps before normal play in which one player places stones of both
//! colours, a player may swap colours, or offers moves for the other to pick from (gomoku's
//! swap2, renju's RIF rule and Taraguchi-N). A game offers its rules through
//! [`crate::Rules::opening_rules`] and builds one with
//! [`crate::Rules::opening_rule`]; the session ([`crate::Game`]) asks the rule
//! what comes next ([`Ask`]), takes a person's answer as text or the engine's, and plays the
//! stones the answers place. Front ends seat players by [`Role`]: the first player is the
//! one who began (taking the first side), until a swap gives each the other side.

use std::sync::atomic::AtomicBool;

use game_core::Side;

use crate::{Budget, Rules};

/// A player of an opening: the one who began the game, or the other. Who plays which side
/// follows from the swaps made ([`OpeningRule::swapped`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// The player who began (the first side until a swap).
    First,
    /// The other player.
    Second,
}

impl Role {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Role {
        match self {
            Role::First => Role::Second,
            Role::Second => Role::First,
        }
    }

    /// 0 for the first player, 1 for the other.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Role::First => 0,
            Role::Second => 1,
        }
    }

    /// The player holding `side`, given whether the colours are swapped (the first player
    /// holds the first side unless they are).
    #[must_use]
    pub fn holding(side: Side, swapped: bool) -> Role {
        match (side, swapped) {
            (Side::First, false) | (Side::Second, true) => Role::First,
            _ => Role::Second,
        }
    }
}

/// One choice of a [`Ask::Choose`] step: the word a person types (`swap`) and what it means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The word that answers with this choice (`swap`, `stay`, `two`).
    pub key: &'static str,
    /// What it does, for people.
    pub text: String,
}

/// What an opening rule asks next, of which player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask<M> {
    /// `role` places the next stone (the side to move's), on one of `allowed` (empty:
    /// anywhere the rules allow).
    Place {
        /// Who places it.
        role: Role,
        /// The points allowed, or empty for any.
        allowed: Vec<M>,
    },
    /// `role` chooses one of `options`.
    Choose {
        /// Who chooses.
        role: Role,
        /// The choices.
        options: Vec<Choice>,
    },
    /// `role` offers `count` moves for the side to move, no two symmetric to each other on
    /// the board as it stands; the other player picks one of them.
    Offer {
        /// Who offers.
        role: Role,
        /// How many moves.
        count: usize,
    },
    /// `role` picks one of `offered`, which is then played.
    Pick {
        /// Who picks.
        role: Role,
        /// The moves offered.
        offered: Vec<M>,
    },
}

impl<M> Ask<M> {
    /// Who is asked.
    #[must_use]
    pub fn role(&self) -> Role {
        match self {
            Ask::Place { role, .. }
            | Ask::Choose { role, .. }
            | Ask::Offer { role, .. }
            | Ask::Pick { role, .. } => *role,
        }
    }
}

/// An answer to an [`Ask`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<M> {
    /// The stone placed.
    Place(M),
    /// The key of the choice made.
    Choose(&'static str),
    /// The moves offered.
    Offer(Vec<M>),
    /// The move picked.
    Pick(M),
}

/// An opening rule of the game `P`, in play: the steps done so far.
pub trait OpeningRule<P: Rules>: Send {
    /// The rule's name as front ends and records show it (`swap2`, `taraguchi-10`).
    fn name(&self) -> &'static str;

    /// What comes next in `pos` (the game's position, with the opening's stones on it), or
    /// `None` once the opening is over and normal play goes on.
    fn ask(&self, pos: &P) -> Option<Ask<P::Move>>;

    /// Takes `answer` to the step [`ask`](OpeningRule::ask) gives for `pos`; returns the moves to
    /// play on the board (a placed or picked stone), in order.
    ///
    /// # Errors
    /// An answer of another kind than asked, a stone outside the points allowed, a choice
    /// not offered, offered moves that are too few, repeated, illegal or symmetric to each
    /// other, a pick that was not offered: a message saying what was wrong and what is
    /// expected. The rule's state is unchanged then.
    fn answer(&mut self, pos: &P, answer: Answer<P::Move>) -> Result<Vec<P::Move>, String>;

    /// The engine's answer to the step asked in `pos`, within `budget` (a few searches).
    fn engine_answer(
        &mut self,
        pos: &P,
        engine: &mut P::Engine,
        budget: &Budget,
        stop: &AtomicBool,
    ) -> Answer<P::Move>;

    /// What [`ask`](OpeningRule::ask) asks in `pos`, in words for people, without its subject
    /// (`place the 2nd stone (White) within the central 3x3 square`).
    fn prompt(&self, pos: &P) -> String;

    /// Whether the players have swapped colours (an odd number of swaps): the first player
    /// then plays the second side.
    fn swapped(&self) -> bool;
}

/// An opening step as text, for front ends that know no game ([`crate::Game::opening_ask`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AskView {
    /// The opening rule's name.
    pub rule: &'static str,
    /// Who is asked.
    pub role: Role,
    /// `place`, `choose`, `offer` or `pick`.
    pub kind: &'static str,
    /// The points allowed for a stone (empty: any), in the game's notation.
    pub allowed: Vec<String>,
    /// The choices (`Choose`).
    pub options: Vec<Choice>,
    /// How many moves to offer (`Offer`).
    pub count: usize,
    /// The moves to pick from (`Pick`).
    pub offered: Vec<String>,
    /// What is asked, in words for people (`Black places the 2nd stone within the 3x3
    /// centre`).
    pub prompt: String,
}
