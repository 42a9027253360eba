//! Time management: how long to think on one move, from the side to move's game clock.
//!
//! [`Clock`] is the clock as a protocol gives it (UCI `wtime`/`winc`/`movestogo`, UCCI
//! `time`/`increment`/`movestogo`) or as a front end's game clock reads when the engine is to
//! move; [`Clock::allocate`] turns it into the search's soft target (scaled by the search's
//! doubt, no new iteration starts past [`crate::search::NEXT_ITERATION`] of it) and hard
//! deadline (the iteration in progress is abandoned), see [`crate::search::Limits`]. Games whose protocols budget time their own way (Gomocup's
//! `timeout_turn` / `time_left`) read the same [`Clock`] with their own allocation.

use std::time::Duration;

/// The clock of the side to move, as the protocols give it (all times from the moment the
/// move was asked for).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move (Fischer increment).
    pub increment: Duration,
    /// Moves to play until the next time control (`None`: the rest of the game, sudden death
    /// or increment).
    pub moves_to_go: Option<u32>,
    /// Time lost per move outside the engine (GUI, pipes, network): kept in reserve.
    pub overhead: Duration,
}

/// The least time a move gets, so a tiny clock still yields a depth-1 move.
const MIN_THINK: Duration = Duration::from_millis(5);

/// Moves a game is assumed still to last when the clock does not say (sudden death).
const HORIZON_MOVES: u32 = 32;

impl Clock {
    /// The soft target and the hard deadline for this move, both from the moment the search
    /// starts.
    ///
    /// - Sudden death / increment: the remaining time spread over about 32 more moves plus
    ///   most of the increment; the hard deadline up to 4x the target, but never more than a
    ///   third of the clock.
    /// - Moves to go `m`: the time split evenly over `m` moves; the hard deadline up to 3x the
    ///   target, never more than 85 % of the clock.
    /// - One move to go (`movestogo 1`, also how a fixed time a move reaches UCCI): the whole
    ///   clock but 10 % is the hard deadline and the soft time equals it, so iterations start
    ///   until the deadline ([`crate::search::Limits::soft_time`]): the move uses its time.
    ///   With iterations starting until three quarters of it qi used 66-70 % of a 300 ms
    ///   move, where Fairy-Stockfish used 97 %.
    ///
    /// The overhead is always kept in reserve; both values are at least a few milliseconds.
    #[must_use]
    pub fn allocate(&self) -> (Duration, Duration) {
        self.allocate_over(HORIZON_MOVES)
    }

    /// [`Clock::allocate`] for a game whose games are shorter or longer than chess's: under
    /// sudden death or an increment, the remaining time is spread over `horizon` more moves
    /// (at least 1) instead of 32. With moves to go, `horizon` is not read.
    #[must_use]
    pub fn allocate_over(&self, horizon: u32) -> (Duration, Duration) {
        let usable = self.remaining.saturating_sub(self.overhead);
        if self.moves_to_go == Some(1) {
            let hard = usable.mul_f64(0.9).max(MIN_THINK);
            return (hard, hard);
        }
        let (soft, hard_cap, hard_factor) = match self.moves_to_go {
            Some(m) if m > 0 => {
                let m = m.min(80);
                let soft = usable / (m + 1) + self.increment.mul_f64(0.8);
                (soft, usable.mul_f64(0.85), 3)
            }
            _ => {
                let soft = usable / horizon.max(1) + self.increment.mul_f64(0.8);
                (soft, usable / 3 + self.increment.mul_f64(0.5), 4)
            }
        };
        let hard_cap = hard_cap.min(usable.mul_f64(0.9));
        let soft = soft.min(hard_cap).max(MIN_THINK);
        let hard = (soft * hard_factor).min(hard_cap).max(soft);
        (soft, hard)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn allocations() {
        let sudden = Clock {
            remaining: ms(60_000),
            overhead: ms(20),
            ..Clock::default()
        };
        let (soft, hard) = sudden.allocate();
        assert!(soft > ms(1_500) && soft < ms(2_500), "{soft:?}");
        assert!(hard >= soft * 3 && hard <= ms(20_000), "{hard:?}");

        let inc = Clock {
            increment: ms(2_000),
            ..sudden
        };
        assert!(inc.allocate().0 > soft + ms(1_000));

        let last = Clock {
            remaining: ms(10_000),
            moves_to_go: Some(1),
            overhead: ms(20),
            ..Clock::default()
        };
        let (soft, hard) = last.allocate();
        // The whole clock but 10 %, iterations starting until then.
        assert_eq!(hard, ms(8_982));
        assert_eq!(soft, hard);
        let one = Clock {
            remaining: ms(300),
            ..last
        };
        assert_eq!(one.allocate().1, ms(252));

        let forty = Clock {
            remaining: ms(300_000),
            moves_to_go: Some(40),
            ..Clock::default()
        };
        let (soft, hard) = forty.allocate();
        assert!(soft > ms(7_000) && soft < ms(7_500) && hard <= ms(22_000));

        // Almost no time: still a few milliseconds, never beyond the clock.
        let panic = Clock {
            remaining: ms(30),
            overhead: ms(20),
            ..Clock::default()
        };
        let (soft, hard) = panic.allocate();
        assert_eq!(soft, MIN_THINK);
        assert!(hard >= soft && hard < ms(30));
    }

    #[test]
    fn a_shorter_horizon_spends_more_of_the_clock() {
        let clock = Clock {
            remaining: ms(10_020),
            increment: ms(500),
            overhead: ms(20),
            moves_to_go: None,
        };
        // 10 s over 12 moves plus 80 % of the increment; the cap is a third plus half of it.
        let soft_ms = |horizon| clock.allocate_over(horizon).0.as_millis();
        assert_eq!(soft_ms(12), 833 + 400);
        assert_eq!(clock.allocate_over(32), clock.allocate());
        assert_eq!(soft_ms(32), 312 + 400);
        assert_eq!(soft_ms(1), 3_333 + 250);
        assert_eq!(clock.allocate_over(0), clock.allocate_over(1));
        // Moves to go decide the split when given.
        let forty = Clock {
            moves_to_go: Some(40),
            ..clock
        };
        assert_eq!(forty.allocate_over(12), forty.allocate());
    }
}
