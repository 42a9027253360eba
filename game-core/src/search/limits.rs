//! What bounds a search: depth, nodes, time, or nothing but the stop flag.

use std::time::Duration;

/// The limits of one search. Every limit left `None` is off; with all of them off the search
/// runs until the stop flag is set (UCI `go infinite`) or the maximum depth is reached.
#[derive(Clone, Debug)]
pub struct Limits<M> {
    /// Deepest iteration, in plies (1..=[`MAX_DEPTH`](super::MAX_DEPTH)).
    pub depth: Option<u32>,
    /// Stop after about this many nodes (checked every [`CHECK_INTERVAL`](super::CHECK_INTERVAL)
    /// nodes per thread; a single-threaded search stops at the same node every time).
    pub nodes: Option<u64>,
    /// The time the search aims for under a game clock, when below `hard_time`: no new
    /// iteration starts past [`NEXT_ITERATION`](super::NEXT_ITERATION) of it, scaled by the
    /// search's doubt (best-move changes, a falling score: up to 3.75 times; a stable best
    /// move: 0.8 times). At or above `hard_time` (a fixed time a move) iterations start
    /// until the hard deadline.
    pub soft_time: Option<Duration>,
    /// A deadline never passed by more than a few milliseconds: the search aborts the
    /// iteration it is in and returns the last completed one.
    pub hard_time: Option<Duration>,
    /// Only these root moves are searched (UCI `searchmoves`; UCCI `banmoves` is the
    /// complement). Empty: every move.
    pub root_moves: Vec<M>,
    /// Root moves never searched (UCCI `banmoves`).
    pub excluded_moves: Vec<M>,
    /// Plies between iterations of the iterative deepening (0 and 1: every ply). With a
    /// larger step the iterations are the depths that differ from the deepest one (`depth`,
    /// else [`MAX_DEPTH`](super::MAX_DEPTH)) by a multiple of the step: a game of two-stone
    /// turns sets 2 so that every horizon falls at the start of a turn (connect6).
    pub depth_step: u32,
    /// Principal variations to search (UCI `MultiPV`): each iteration searches the best
    /// root move, then the best of the others, and so on, each with its own score and line
    /// ([`SearchResult::lines`](super::SearchResult::lines)). 0 and 1: one. Helper threads
    /// (Lazy SMP) search one line.
    pub multipv: u32,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            soft_time: None,
            hard_time: None,
            root_moves: Vec::new(),
            excluded_moves: Vec::new(),
            depth_step: 1,
            multipv: 1,
        }
    }
}

impl<M> Limits<M> {
    /// A fixed-depth search.
    #[must_use]
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of `time`: iterations start until the deadline `time` (soft target and hard
    /// deadline both `time`).
    #[must_use]
    pub fn time(time: Duration) -> Self {
        Limits {
            soft_time: Some(time),
            hard_time: Some(time),
            ..Limits::default()
        }
    }

    /// A search of about `nodes` nodes.
    #[must_use]
    pub fn nodes(nodes: u64) -> Self {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}
