//! Time management under a game clock: how much of the clock one connect6 turn gets.
//!
//! The shared [`Clock::allocate`] spreads the clock over 32 more moves, a chess game's
//! remainder. Connect6 games are short: qi played 10.3 turns a game against Cloudict at depth
//! 4 and 10.7 at depth 6 (2026-12-07, 220 games; a turn is two stones), so under `10+0.5` it
//! used 27 % of its clock and lost games with time left. A turn here gets the clock spread over
//! [`HORIZON_TURNS`] more turns plus most of the increment (`Clock::allocate_over`): about
//! 60 % of the starting time is spent by the tenth turn, and a longer game still gets a
//! twelfth of what is left each turn, so it never runs out.

use std::time::Duration;

use game_core::clock::Clock;

/// Turns a game is assumed still to last when the clock does not say (no moves to go).
pub const HORIZON_TURNS: u32 = 12;

/// The time to think on this turn given the side to move's `clock` (the engine plans to use
/// nearly all of it, see [`crate::engine::Engine::think`]): the shared time manager's soft
/// target over [`HORIZON_TURNS`] turns, at least a few milliseconds.
#[must_use]
pub fn turn_time(clock: &Clock) -> Duration {
    clock.allocate_over(HORIZON_TURNS).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_gets_a_twelfth_of_the_clock_and_most_of_the_increment() {
        let clock = Clock {
            remaining: Duration::from_millis(12_020),
            increment: Duration::from_millis(500),
            moves_to_go: None,
            overhead: Duration::from_millis(20),
        };
        assert_eq!(turn_time(&clock), Duration::from_millis(1_000 + 400));
        // More than the shared time manager gives a chess move from the same clock.
        assert!(turn_time(&clock) > clock.allocate().0);
    }
}
