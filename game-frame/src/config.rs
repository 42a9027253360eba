//! Engine resources ([`EngineConfig`]) and the bound of one decision ([`Budget`]).

use std::time::Duration;

use game_core::search::Limits;

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
}

impl Budget {
    /// The shared search's limits for this budget (soft time = hard time = `time`).
    #[must_use]
    pub fn limits<M>(&self) -> Limits<M> {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            soft_time: self.time,
            hard_time: self.time,
            ..Limits::default()
        }
    }
}
