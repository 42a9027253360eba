//! Engine resources ([`EngineConfig`]) and the bound of one decision ([`Budget`]).

use std::time::Duration;

use game_core::clock::Clock;
use game_core::search::Limits;

use crate::strength::LevelPick;

/// The largest depth limit every front end takes (`--depth` of `play`, `analyze`, `bench`, the
/// API's `depth`, Gomocup's `max_depth`), in plies (connect6's engine: turns); well within the
/// shared search's deepest iteration ([`game_core::search::MAX_DEPTH`]).
pub const MAX_DEPTH_LIMIT: u32 = 100;

/// Engine resources for a session.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads (1 is deterministic).
    pub threads: usize,
}

impl EngineConfig {
    /// A 1 MiB table, one thread: for commands that never search deeply (`moves`).
    #[must_use]
    pub fn small() -> Self {
        EngineConfig {
            hash_mib: 1,
            threads: 1,
        }
    }

    /// The `bench` resources: 16 MiB, one thread (deterministic node counts).
    #[must_use]
    pub fn bench() -> Self {
        EngineConfig {
            hash_mib: 16,
            threads: 1,
        }
    }
}

impl Default for EngineConfig {
    /// 64 MiB, one thread.
    fn default() -> Self {
        EngineConfig {
            hash_mib: 64,
            threads: 1,
        }
    }
}

/// What bounds one engine decision. Every limit left `None` is off; the caller sets at least
/// one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration in plies.
    pub depth: Option<u32>,
    /// Wall-clock time for the whole turn.
    pub time: Option<Duration>,
    /// About this many nodes.
    pub nodes: Option<u64>,
    /// The side to move's game clock: when set (and `time` is not), each game's own time
    /// manager turns it into this turn's time, the one its engine protocols use
    /// ([`Clock::allocate`] for xiangqi and Connect Four, Gomocup's budget for gomoku).
    pub clock: Option<Clock>,
    /// Principal variations to report (analysis, hints): 0 and 1 report one.
    pub multipv: u32,
    /// A strength level below the full engine, with the seed of its choices
    /// ([`crate::strength`]); `None` plays at full strength.
    pub level: Option<LevelPick>,
}

impl Budget {
    /// The shared search's limits for this budget: soft time = hard time = `time`, or the
    /// clock's [`Clock::allocate`] when only a clock is given.
    #[must_use]
    pub fn limits<M>(&self) -> Limits<M> {
        let (soft_time, hard_time) = match (self.time, &self.clock) {
            (None, Some(clock)) => {
                let (soft, hard) = clock.allocate();
                (Some(soft), Some(hard))
            }
            (time, _) => (time, time),
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            soft_time,
            hard_time,
            multipv: self.multipv.max(1),
            ..Limits::default()
        }
    }

    /// This budget with the side to move's `clock` instead of a time per move.
    #[must_use]
    pub fn with_clock(&self, clock: Clock) -> Budget {
        Budget {
            time: None,
            clock: Some(clock),
            ..self.clone()
        }
    }
}
