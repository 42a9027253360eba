//! The connect6 engine: immediate win, threat-space search for us, forced defence, then the
//! shared `game_core::search` (iterative-deepening principal variation search, one stone per
//! ply, negating only when the side to move changes, one stone deeper after each stone that
//! leaves the side to move facing threats or, as a turn's first stone, makes a threat) over
//! the first stones of the candidate turns, and the second stone from its principal
//! variation (or a short search among the candidates paired with the first); last, the
//! verification of the chosen turn by a threat search for the opponent
//! ([`Engine::set_verify`], on by default).
//!
//! Candidate turns: the first stones (forced replies when the opponent has threats, else a
//! beam of [`ROOT_FIRST`] by [`Connect6::stone_score`]) times the best [`ROOT_SECOND`] second
//! stones given the first. With the defensive threat search on ([`Engine::set_defence`], off
//! by default): when the opponent, given a free turn, would win by continuous threats (or by
//! a single-threat turn followed by continuous threats, see
//! [`ThreatSearch::find_win_or_single`]), only the turns after which it no longer does are
//! kept; when the side to move must block a threat, the same holds after each blocking
//! first stone, so the turn's free stone goes to the defence.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use game_core::score::mate_in;
use game_core::search::{Limits, MAX_DEPTH, PvLine, SearchOptions, SearchResult, Searcher};
use game_core::skill::Skill;
use game_core::{Position, Score};

use crate::board::{Connect6, Stone};
use crate::eval::ThreatEval;
use crate::notation::Point;
use crate::tss::ThreatSearch;

/// First stones tried at the root (a wider beam than inside the tree).
pub const ROOT_FIRST: usize = 14;
/// Second stones tried at the root for each first stone.
pub const ROOT_SECOND: usize = 8;
/// Fraction of the search's share of the turn after which the alpha-beta search starts no
/// new iteration. 1.0: iterations start until the share ends, and the last one, cut at the
/// deadline, still gives its fully searched better root moves (0.7 left search turns about
/// 70% of the turn and won fewer games against Cloudict: docs/experiments.md, "all of the
/// turn to the search").
pub const ITERATION_START: f32 = 1.0;
/// Fraction of the turn's time by which the defensive threat search (finding the opponent's
/// wins and the turns that stop them) must end.
pub const DEFENCE_SHARE: f32 = 0.5;
/// The defence checks each candidate turn with at most this fraction of its budget (at
/// least 200 nodes), so that a few expensive checks cannot use it all up.
pub const DEFENCE_CHECKS: u64 = 16;
/// Turns the threat-space search looks ahead.
pub const TSS_TURNS: u32 = 10;
/// Share of the turn's remaining time the main search gets when the opponent has threats or
/// would win by continuous threats given a free turn; the rest is for the verification of
/// the chosen turn ([`Engine::set_verify`]).
pub const VERIFY_SHARE: f32 = 0.8;
/// Share of the turn's remaining time the main search gets otherwise (the chosen turn is
/// still verified: a threat of ours gives the opponent a blocking stone that may help it).
/// With [`ITERATION_START`] at 1.0, searched turns use about 84% of a 500 ms turn
/// (`connect6_timing`); a turn the verification finds safe ends early.
pub const SEARCH_SHARE: f32 = 0.95;
/// Share of the turn's time by which the check "would the opponent win by continuous threats
/// given a free turn" must end.
pub const DANGER_SHARE: f32 = 0.3;
/// Each verification of a turn gets at most this fraction of the threat-search budget.
pub const VERIFY_CHECKS: u64 = 8;

/// Limits of one [`Engine::think`]. Unset fields do not limit; with none set the engine
/// searches 4 turns. Not the shared search's [`game_core::search::Limits`]: the depth counts
/// turns of two stones, and the time is the whole turn's, which the engine shares out among
/// its stages (the frame's [`game_frame::Budget`] converts to this one). The threat searches get a node budget from the limits (40 nodes per
/// millisecond, or a quarter of `nodes`, at most 400,000; 100,000 with neither) and end by
/// 20% (ours) and [`DEFENCE_SHARE`] (the defence) of the time; the defence's threat
/// searches share half the budget.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineLimits {
    /// Maximum alpha-beta depth in turns (the root turn counts as 1): the shared search
    /// goes `stones_left + 2 * (depth - 1)` stones deep.
    pub depth: Option<u32>,
    /// Time for this turn (wall clock). The engine plans with the turn less a reserve of 1/32
    /// of it (2 to 50 ms) for the reply; our threat search ends by 20% of that, the check of
    /// the opponent's threats given a free turn by [`DANGER_SHARE`]; the alpha-beta search
    /// gets [`SEARCH_SHARE`] of what is left ([`VERIFY_SHARE`] when the opponent threatens),
    /// starts no new iteration after [`ITERATION_START`] of its share, and the verification
    /// of its turn has the rest.
    pub time: Option<Duration>,
    /// Maximum alpha-beta nodes (stones played by the shared search).
    pub nodes: Option<u64>,
}

/// The part of a turn's time the engine plans to use: the turn less a reserve of 1/32 of it
/// (2 to 50 ms) for the last node-count check before the search sees its deadline, the
/// second stone's search and the reply, so that the answer comes within the turn (at 500 ms
/// a turn the engine answered up to 8 ms late without it).
fn within_turn(turn: Duration) -> Duration {
    let reserve = (turn / 32).clamp(Duration::from_millis(2), Duration::from_millis(50));
    turn.saturating_sub(reserve).max(Duration::from_millis(1))
}

/// The first stones of `turns`, each once, in the order of their first turn.
fn first_stones(turns: &[Vec<Stone>]) -> Vec<Stone> {
    let mut firsts: Vec<Stone> = Vec::new();
    for t in turns {
        if !firsts.contains(&t[0]) {
            firsts.push(t[0]);
        }
    }
    firsts
}

/// How the engine chose its turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Black's first stone on an empty board: the centre.
    Opening,
    /// A six this turn.
    Win,
    /// A win by continuous threats in this many of our turns.
    ThreatWin(u32),
    /// The only turn that stops the opponent's threats (or every turn loses).
    Forced,
    /// Alpha-beta search among the candidate turns.
    Search,
    /// The search's turn lost to the opponent's continuous threats (the verification's
    /// threat search proved it); this turn, which the threat search found safe, replaced it.
    /// The score and depth are the searched turn's.
    Defended,
}

impl Decision {
    /// Why the turn played is not the first turn of the search's principal variation, in
    /// words for the analysis output; `None` when it is (or no search ran).
    #[must_use]
    pub fn reason(self) -> Option<&'static str> {
        match self {
            Decision::Defended => {
                Some("the threat search replaced the searched turn: it lost to a threat sequence")
            }
            _ => None,
        }
    }
}

/// The engine's answer: the turn to play and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The stones to place (1 on Black's first turn or mid-turn, else 2).
    pub turn: Vec<Point>,
    /// Score for the side to move (game-core scale; mate scores count stones).
    pub score: Score,
    /// Alpha-beta depth completed, in turns (0 when no search ran).
    pub depth: u32,
    /// Stones played by the alpha-beta search and threat-search nodes.
    pub nodes: u64,
    /// How the turn was chosen.
    pub decision: Decision,
    /// Principal variation in stones, starting with `turn`.
    pub pv: Vec<Point>,
    /// With MultiPV ([`Engine::set_multipv`]) the best lines of the main search, best first,
    /// each in stones from the turn's first stone; empty when no main search decided the
    /// turn (a win, a threat win, a forced turn).
    pub lines: Vec<PvLine<Point>>,
    /// Elapsed time.
    pub time: Duration,
}

/// What a threat search for the opponent proves about one of our turns.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    /// The opponent wins by continuous threats; its first winning turn.
    Lost(Vec<Stone>),
    /// The opponent has no win by continuous threats.
    Safe,
    /// Not known: the search stopped at its budget, or the turn's threat left the opponent
    /// a choice the check does not cover.
    Unknown,
}

/// A turn decided without the main search ([`Engine::think_stoppable`]'s early answers).
struct QuickTurn {
    stones: Vec<Stone>,
    score: Score,
    decision: Decision,
    nodes: u64,
}

/// The turns the main search chooses among, and what the defence found out about them.
struct Candidates {
    /// Candidate turns (first stone, second stone), best first.
    turns: Vec<Vec<Stone>>,
    /// The opponent threatens a six: every candidate blocks.
    forced: bool,
    /// The opponent threatens, or would win by continuous threats given a free turn.
    danger: bool,
    /// The chosen turn is verified against the opponent's threats afterwards.
    verify: bool,
}

/// What the main search (and the second stone's search) chose.
struct SearchedTurn {
    result: SearchResult<Stone>,
    /// The turn chosen, before the verification.
    turn: Vec<Stone>,
    /// The principal variation from the turn's first stone, as far as the searches know it.
    line: Vec<Stone>,
    /// The principal variation of the last iteration reported (empty: none was).
    last_reported: Vec<Point>,
}

/// Shared-search depth in stones as turns: the first turn's `left` stones count as one.
fn to_turns(depth: u32, left: usize) -> u32 {
    if depth == 0 {
        0
    } else {
        (depth.saturating_sub(left as u32)) / 2 + 1
    }
}

/// The connect6 engine. Keep one per game: its tables carry over between turns.
pub struct Engine {
    tss: ThreatSearch,
    searcher: Searcher<Connect6, ThreatEval>,
    stop: Arc<AtomicBool>,
    threat_search: bool,
    defence: bool,
    verify: bool,
    single_threat_check: bool,
    /// A weakened level's choice among the first stones' principal variations.
    skill: Option<Skill>,
    /// The longest threat sequence the threat-space searches look for, in turns.
    threat_turns: u32,
    /// The main search's principal variations reported ([`Engine::set_multipv`]).
    multipv: u32,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Engine {{ hash: {} MiB }}",
            self.searcher.options().hash_mib
        )
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new(16)
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mib` MiB (at least 1).
    #[must_use]
    pub fn new(hash_mib: usize) -> Self {
        Engine {
            tss: ThreatSearch::new(),
            searcher: Searcher::new(
                ThreatEval,
                SearchOptions {
                    hash_mib: hash_mib.max(1),
                    threads: 1,
                    // See `Engine::set_check_extension`.
                    check_extension: true,
                    // The evaluation moves by hundreds from one stone's depth to the next
                    // (the side to move changes every other ply), far past the shared
                    // search's aspiration window (25, doubled on each failure): without
                    // it the same depths take 7-12 % fewer nodes (`connect6_depth`).
                    aspiration_windows: false,
                    ..SearchOptions::default()
                },
            ),
            stop: Arc::new(AtomicBool::new(false)),
            threat_search: true,
            defence: false,
            verify: true,
            single_threat_check: true,
            skill: None,
            threat_turns: TSS_TURNS,
            multipv: 1,
        }
    }

    /// Plays below full strength (`None`: full strength): the search over the turn's first
    /// stones finds `skill.multipv` principal variations and the turn follows the one the
    /// skill chooses ([`Skill::choose`]), its second stone from that line when the line has
    /// one. The weak levels also switch the threat searches off
    /// ([`Engine::set_threat_search`]).
    pub fn set_skill(&mut self, skill: Option<Skill>) {
        self.skill = skill;
    }

    /// How many principal variations over the turn's first stone the main search finds
    /// and reports ([`Analysis::lines`]; 1, the default, reports none): a hint's best few.
    pub fn set_multipv(&mut self, lines: u32) {
        self.multipv = lines.max(1);
    }

    /// A flag that stops the running [`think`](Engine::think) when set (from any thread); the
    /// engine clears it at the start of every call.
    #[must_use]
    pub fn stop_handle(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.stop)
    }

    /// Main-search threads (Lazy SMP of the shared search; 1, the default, is deterministic).
    pub fn set_threads(&mut self, threads: usize) {
        self.searcher.set_threads(threads.max(1));
    }

    /// Switches the threat-space searches (ours and the defensive one) on or off (default on;
    /// the ConnectMore `vcf` / `unvcf` commands).
    pub fn set_threat_search(&mut self, on: bool) {
        self.threat_search = on;
    }

    /// The longest threat sequence the threat-space searches (ours and the defensive ones)
    /// look for, in turns (default and at most [`TSS_TURNS`]; at least 1): a weak level sees
    /// short threat wins only.
    pub fn set_threat_turns(&mut self, turns: u32) {
        self.threat_turns = turns.clamp(1, TSS_TURNS);
    }

    /// Whether the threat-space searches are on ([`Engine::set_threat_search`]).
    #[must_use]
    pub fn threat_search(&self) -> bool {
        self.threat_search
    }

    /// Switches the defensive threat search on or off (default off). When on, and the
    /// opponent given a free turn would win by threats, only the root turns after which it no
    /// longer does are searched (see [`Engine`]'s description). It checks each turn with a
    /// threat search of its own, until [`DEFENCE_SHARE`] of the turn's time: at 500 ms a move
    /// that leaves a handful of checked turns, often one, played without the main search.
    /// Measured against Cloudict (depth 4) at 500 ms a move, 60 games from the same openings:
    /// on, qi scored 16-44 (12-48 before each check had its own budget); off, 26-34.
    pub fn set_defence(&mut self, on: bool) {
        self.defence = on;
    }

    /// Switches the verification of the chosen turn on or off (default on; needs the threat
    /// search on). The main search gets [`SEARCH_SHARE`] of the time ([`VERIFY_SHARE`] when
    /// the opponent has threats, or would win by continuous threats given a free turn), and
    /// its turn is then checked by a threat search for the opponent; when that proves a win,
    /// the engine plays the first other turn after which it proves none: pairs through the
    /// stones of the opponent's winning turn first, then the other candidate turns.
    /// It wins games against Cloudict, more with [`Engine::set_single_threat_check`]
    /// (docs/experiments.md, "verifying the chosen turn").
    pub fn set_verify(&mut self, on: bool) {
        self.verify = on;
    }

    /// Switches the second look of the verification on or off (default on): when the proof
    /// finds no win for the opponent after the chosen turn, a threat search that also tries
    /// a single-threat first turn ([`ThreatSearch::find_win_or_single`]); when it finds a
    /// win, the engine plays the first other turn that passes both checks.
    pub fn set_single_threat_check(&mut self, on: bool) {
        self.single_threat_check = on;
    }

    /// Switches the main search's check extension on or off (default on): one stone deeper
    /// after each forcing stone ([`game_core::Position::forcing`]: it leaves the side to move
    /// facing threats, or it is a turn's first stone and makes a threat), so that the threat
    /// sequences behind a quiet turn reach past the horizon less often (it won more games
    /// against Cloudict: docs/experiments.md, "the check extension", and 2026-12-07,
    /// session 30, for the first stones).
    pub fn set_check_extension(&mut self, on: bool) {
        self.searcher.set_check_extension(on);
    }

    /// Forgets the transposition and threat tables (a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
        self.tss.clear();
    }

    /// Chooses a turn for the side to move of `pos`; `None` when the game is over.
    pub fn think(&mut self, pos: &Connect6, limits: &EngineLimits) -> Option<Analysis> {
        self.think_with(pos, limits, |_| {})
    }

    /// Like [`think`](Engine::think), calling `report` after every completed iteration of the
    /// alpha-beta search with the best turn so far.
    pub fn think_with(
        &mut self,
        pos: &Connect6,
        limits: &EngineLimits,
        report: impl FnMut(&Analysis),
    ) -> Option<Analysis> {
        let stop = Arc::clone(&self.stop);
        stop.store(false, Ordering::Relaxed);
        self.think_stoppable(pos, limits, &stop, report)
    }

    /// Like [`think_with`](Engine::think_with), stopped by the caller's flag `stop` (set
    /// from another thread; the main search then ends within a few thousand nodes and the
    /// best turn so far is played). The flag is read, never cleared.
    pub fn think_stoppable(
        &mut self,
        pos: &Connect6,
        limits: &EngineLimits,
        stop: &AtomicBool,
        mut report: impl FnMut(&Analysis),
    ) -> Option<Analysis> {
        pos.game_end().is_none().then_some(())?;
        let start = Instant::now();
        let limits = &EngineLimits {
            time: limits.time.map(within_turn),
            ..limits.clone()
        };
        let size = pos.size();
        let left = pos.stones_this_turn();
        let mut pos = pos.clone();
        let tss_budget = self.tss_budget(limits);
        let quick = match self.quick_turn(&mut pos, limits, start, tss_budget) {
            Some(quick) => Err(quick),
            None => self.candidates(&mut pos, limits, start, tss_budget),
        };
        let roots = match quick {
            Ok(roots) => roots,
            Err(quick) => {
                let turn: Vec<Point> = quick.stones.iter().map(|s| s.point(size)).collect();
                return Some(Analysis {
                    pv: turn.clone(),
                    turn,
                    score: quick.score,
                    depth: 0,
                    nodes: quick.nodes,
                    decision: quick.decision,
                    lines: Vec::new(),
                    time: start.elapsed(),
                });
            }
        };
        let searched = self.search_turn(&mut pos, limits, start, &roots, stop, &mut report);
        let mut turn = searched.turn.clone();
        let mut decision = if roots.forced {
            Decision::Forced
        } else {
            Decision::Search
        };
        if roots.verify {
            let deadline = limits.time.map(|t| start + t);
            let budget = tss_budget / VERIFY_CHECKS;
            turn = self.verify_turn(&mut pos, turn, &roots.turns, budget, deadline);
            if turn != searched.turn {
                decision = Decision::Defended;
            }
        }
        let line = &searched.line;
        let mut pv: Vec<Point> = turn.iter().map(|s| s.point(size)).collect();
        if line.len() > turn.len() && line[..turn.len()] == turn[..] {
            pv.extend(line[turn.len()..].iter().map(|s| s.point(size)));
        }
        let result = &searched.result;
        let lines = if self.multipv > 1 {
            result
                .lines
                .iter()
                .map(|l| PvLine {
                    score: l.score,
                    pv: l.pv.iter().map(|s| s.point(size)).collect(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let analysis = Analysis {
            turn: turn.iter().map(|s| s.point(size)).collect(),
            score: result.score,
            depth: to_turns(result.depth, left),
            nodes: result.nodes + self.tss.nodes(),
            decision,
            pv,
            lines,
            time: start.elapsed(),
        };
        // The last line shown always starts with the turn played: the answer is reported
        // once more when its line differs from the last iteration's.
        if !searched.last_reported.is_empty() && analysis.pv != searched.last_reported {
            report(&analysis);
        }
        Some(analysis)
    }

    /// A turn found without the main search: Black's first stone (the centre), a six, or a
    /// win by our continuous threats (the threat search ends by 20% of the turn).
    fn quick_turn(
        &mut self,
        pos: &mut Connect6,
        limits: &EngineLimits,
        start: Instant,
        tss_budget: u64,
    ) -> Option<QuickTurn> {
        let size = pos.size();
        // Stones of this turn: two, or one on Black's first turn or on the last empty point.
        let left = pos.stones_this_turn();
        if pos.stone_count() == 0 {
            let c = size / 2;
            return Some(QuickTurn {
                stones: vec![Stone::from_index(c * size + c)],
                score: 0,
                decision: Decision::Opening,
                nodes: 0,
            });
        }
        if let Some(w) = pos.winning_window() {
            let mut stones: Vec<Stone> = pos.window_empties(w).map(Stone::from_index).collect();
            stones.truncate(left);
            if stones.len() < left {
                // One stone makes six: the turn's other stone goes on any other empty point
                // (chosen before the six is on the board, where no move is generated).
                let mut empty = Vec::new();
                pos.generate_moves(&mut empty);
                if let Some(other) = empty.into_iter().find(|s| !stones.contains(s)) {
                    stones.push(other);
                }
            }
            return Some(QuickTurn {
                stones,
                score: mate_in(1),
                decision: Decision::Win,
                nodes: 0,
            });
        }
        let tss_deadline = limits.time.map(|t| start + t.mul_f32(0.2));
        // A weak level (a skill without threat searches) sees no threat win either.
        let own_threats = self.threat_search || self.skill.is_none();
        let win = own_threats
            .then(|| {
                self.tss
                    .find_win(pos, self.threat_turns, tss_budget, tss_deadline)
            })
            .flatten()?;
        Some(QuickTurn {
            stones: win.turn,
            score: mate_in(4 * win.turns),
            decision: Decision::ThreatWin(win.turns),
            nodes: win.nodes,
        })
    }

    /// The candidate turns the main search chooses among, with the defence's threat
    /// searches (by [`DEFENCE_SHARE`] of the turn) removing those that lose to the
    /// opponent's continuous threats; `Err` with the turn when only one is left (forced).
    fn candidates(
        &mut self,
        pos: &mut Connect6,
        limits: &EngineLimits,
        start: Instant,
        tss_budget: u64,
    ) -> Result<Candidates, QuickTurn> {
        let left = pos.stones_this_turn();
        let mut roots = self.root_turns(pos, ROOT_FIRST, ROOT_SECOND);
        let forced = pos.in_check();
        if roots.len() == 1 {
            return Err(QuickTurn {
                stones: roots.pop().expect("one root"),
                score: 0,
                decision: Decision::Forced,
                nodes: 0,
            });
        }
        if left == 2 && self.threat_search && self.defence {
            let deadline = limits.time.map(|t| start + t.mul_f32(DEFENCE_SHARE));
            self.defend_against_threat_search(pos, &mut roots, tss_budget / 2, deadline);
        }

        // Whether the opponent has threats, or would win by continuous threats given a free
        // turn: then the chosen turn's verification gets more time.
        let danger = left == 2
            && self.threat_search
            && self.verify
            && (forced || {
                let deadline = limits.time.map(|t| start + t.mul_f32(DANGER_SHARE));
                let state = pos.pass_turn();
                let win = self
                    .tss
                    .find_win(pos, self.threat_turns, tss_budget, deadline);
                pos.set_turn_state(state);
                win.is_some()
            });

        if roots.is_empty() {
            let mut any = Vec::new();
            pos.generate_moves(&mut any);
            any.truncate(left);
            roots.push(any);
        }
        if roots.len() == 1 {
            return Err(QuickTurn {
                stones: roots.pop().expect("one root"),
                score: 0,
                decision: Decision::Forced,
                nodes: self.tss.nodes(),
            });
        }
        Ok(Candidates {
            turns: roots,
            forced,
            danger,
            verify: left == 2 && self.threat_search && self.verify,
        })
    }

    /// The main search over the first stones of the candidate turns (reporting each
    /// iteration), then the second stone: the principal variation's when it is a candidate
    /// with the first, else a search of its own among them.
    fn search_turn(
        &mut self,
        pos: &mut Connect6,
        limits: &EngineLimits,
        start: Instant,
        roots: &Candidates,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&Analysis),
    ) -> SearchedTurn {
        let size = pos.size();
        let left = pos.stones_this_turn();
        let max_turns =
            limits
                .depth
                .unwrap_or(if limits.time.is_some() || limits.nodes.is_some() {
                    40
                } else {
                    4
                });
        let plies = |turns: u32| (left as u32 + 2 * (turns.max(1) - 1)).min(MAX_DEPTH);
        let firsts = first_stones(&roots.turns);
        let remaining = limits.time.map(|t| {
            let left = t
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(1));
            if !roots.verify {
                left
            } else if roots.danger {
                left.mul_f32(VERIFY_SHARE)
            } else {
                left.mul_f32(SEARCH_SHARE)
            }
        });
        // The main search and the second stone's search end by then; the rest verifies.
        let search_end = remaining.map(|r| Instant::now() + r);
        let search_limits = Limits {
            depth: Some(plies(max_turns)),
            nodes: limits.nodes,
            // With a soft time at or above the hard one the shared search starts iterations
            // until the deadline (`ITERATION_START` of what is left here: all of it). Each
            // iteration is one stone deeper and costs a few times the last, so an unfinished
            // one is cut at the hard deadline and still gives its fully searched better root
            // moves. (Iterations by whole turns, `Limits::depth_step` 2, lost:
            // docs/connect6-engine.md.)
            soft_time: remaining.map(|t| t.mul_f32(2.0 * ITERATION_START)),
            hard_time: remaining,
            root_moves: firsts,
            multipv: self.skill.map_or(1, |k| k.multipv).max(self.multipv),
            ..Limits::default()
        };
        let decision = if roots.forced {
            Decision::Forced
        } else {
            Decision::Search
        };
        let mut last_reported: Vec<Point> = Vec::new();
        let result = self.searcher.search(pos, &search_limits, stop, |r| {
            let pv: Vec<Point> = r.pv.iter().map(|s| s.point(size)).collect();
            last_reported.clone_from(&pv);
            report(&Analysis {
                turn: pv.iter().copied().take(left).collect(),
                score: r.score,
                depth: to_turns(r.depth, left),
                nodes: r.nodes,
                decision,
                pv,
                lines: Vec::new(),
                time: start.elapsed(),
            });
        });
        // A level plays the line its skill chooses.
        let result = result.play_line(self.skill, pos.key());
        let first = result.best_move.unwrap_or(roots.turns[0][0]);
        let mut turn = vec![first];
        // The principal variation from the first stone on, as far as the searches know it.
        let mut line: Vec<Stone> = if result.pv.first() == Some(&first) {
            result.pv.clone()
        } else {
            vec![first]
        };
        if left == 2 {
            let seconds: Vec<Stone> = roots
                .turns
                .iter()
                .filter(|t| t[0] == first)
                .map(|t| t[1])
                .collect();
            let second = match result.pv.get(1) {
                Some(&s) if seconds.contains(&s) => s,
                _ if seconds.len() == 1 => seconds[0],
                _ => {
                    // Search the second stone among the candidates paired with the first.
                    pos.play(first);
                    let remaining = search_end.map(|end| {
                        end.saturating_duration_since(Instant::now())
                            .max(Duration::from_millis(1))
                    });
                    let second_limits = Limits {
                        depth: Some(plies(max_turns).saturating_sub(1).max(1)),
                        nodes: limits.nodes.map(|n| (n / 4).max(100)),
                        soft_time: remaining,
                        hard_time: remaining,
                        root_moves: seconds.clone(),
                        ..Limits::default()
                    };
                    let r = self.searcher.search(pos, &second_limits, stop, |_| {});
                    pos.undo(first);
                    let second = r
                        .best_move
                        .filter(|s| seconds.contains(s))
                        .unwrap_or(seconds[0]);
                    // The main line's second stone was not a candidate: the second search's
                    // line continues the turn.
                    line = if r.pv.first() == Some(&second) {
                        std::iter::once(first).chain(r.pv).collect()
                    } else {
                        vec![first, second]
                    };
                    second
                }
            };
            turn.push(second);
        }
        SearchedTurn {
            result,
            turn,
            line,
            last_reported,
        }
    }

    /// What a threat search for the opponent says about our `turn` (played on `pos`, which is
    /// restored); each threat search gets at most `budget` nodes and stops at `deadline`.
    ///
    /// A turn that leaves the opponent a six is lost. When it leaves us one threat, the
    /// opponent blocks it with one stone, and its turn's other stone must make the double
    /// threat of a win by continuous threats ([`ThreatSearch::find_win_with_one_stone`] after
    /// each single blocking point). Two or more threats take both of the opponent's stones:
    /// no win by continuous threats this turn.
    fn verdict(
        &mut self,
        pos: &mut Connect6,
        turn: &[Stone],
        single: bool,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Verdict {
        for &s in turn {
            pos.play(s);
        }
        let us = pos.to_move().opponent();
        let verdict = if let Some(w) = pos.winning_window() {
            Verdict::Lost(pos.window_empties(w).map(Stone::from_index).collect())
        } else {
            match pos.threat_count(us) {
                0 => match if single {
                    self.tss
                        .find_win_or_single(pos, self.threat_turns, budget, deadline)
                } else {
                    self.tss.find_win(pos, self.threat_turns, budget, deadline)
                } {
                    Some(w) => Verdict::Lost(w.turn),
                    None if self.tss.aborted() => Verdict::Unknown,
                    None => Verdict::Safe,
                },
                1 => self.verdict_after_blocks(pos, us, budget, deadline),
                _ => Verdict::Safe,
            }
        };
        for &s in turn.iter().rev() {
            pos.undo(s);
        }
        verdict
    }

    /// [`Engine::verdict`] when `us` has one threat: the opponent's turn is a single blocking
    /// point and a stone that must win by continuous threats.
    fn verdict_after_blocks(
        &mut self,
        pos: &mut Connect6,
        us: game_core::Side,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Verdict {
        let mut blocks = [0u16; 2];
        let n = pos.single_blocks(us.index(), &mut blocks);
        let mut verdict = Verdict::Safe;
        for &b in &blocks[..n] {
            let stone = Stone::from_index(usize::from(b));
            pos.play(stone);
            let win = self
                .tss
                .find_win_with_one_stone(pos, self.threat_turns, budget, deadline);
            let aborted = self.tss.aborted();
            pos.undo(stone);
            if let Some(w) = win {
                return Verdict::Lost(std::iter::once(stone).chain(w.turn).collect());
            }
            if aborted {
                verdict = Verdict::Unknown;
            }
        }
        verdict
    }

    /// Verifies the chosen `turn`: when a threat search for the opponent proves a win after
    /// it, returns the first other turn after which the threat search proves none (see
    /// [`Engine::alternative`]). When the proof finds no win and the single-threat check is
    /// on ([`Engine::set_single_threat_check`]), looks again with
    /// [`ThreatSearch::find_win_or_single`] (a win that starts with a single-threat turn, a
    /// strong threat rather than a proof), and when that finds one, plays the first other
    /// turn that passes both checks. Else returns `turn`. Each proof gets at most `budget`
    /// threat-search nodes, each single-threat check four times that; stops at `deadline`.
    fn verify_turn(
        &mut self,
        pos: &mut Connect6,
        turn: Vec<Stone>,
        roots: &[Vec<Stone>],
        budget: u64,
        deadline: Option<Instant>,
    ) -> Vec<Stone> {
        match self.verdict(pos, &turn, false, budget, deadline) {
            Verdict::Lost(threat) => self
                .alternative(pos, &turn, &threat, roots, false, budget, deadline)
                .unwrap_or(turn),
            Verdict::Safe if self.single_threat_check => {
                match self.verdict(pos, &turn, true, 4 * budget, deadline) {
                    Verdict::Lost(threat) => self
                        .alternative(pos, &turn, &threat, roots, true, 4 * budget, deadline)
                        .unwrap_or(turn),
                    _ => turn,
                }
            }
            _ => turn,
        }
    }

    /// The first turn other than `turn` that [`Engine::verdict`] finds safe (with the
    /// single-threat check when `single`, and then also without it), trying in order: each
    /// first stone of the candidates paired with a stone of the opponent's winning turn
    /// `threat`, then those stones paired with our best second stones, then the candidate
    /// `roots` in their order. `None` when none is found by `deadline`.
    #[allow(clippy::too_many_arguments)]
    fn alternative(
        &mut self,
        pos: &mut Connect6,
        turn: &[Stone],
        threat: &[Stone],
        roots: &[Vec<Stone>],
        single: bool,
        budget: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<Stone>> {
        let forced = pos.in_check();
        let firsts = first_stones(roots);
        let mut tries: Vec<Vec<Stone>> = Vec::new();
        let add = |tries: &mut Vec<Vec<Stone>>, a: Stone, b: Stone| {
            if a != b
                && !tries.iter().any(|t| t.contains(&a) && t.contains(&b))
                && !(turn.contains(&a) && turn.contains(&b))
            {
                tries.push(vec![a, b]);
            }
        };
        for &k in threat {
            add(&mut tries, turn[0], k);
        }
        for &f in &firsts {
            for &k in threat {
                add(&mut tries, f, k);
            }
        }
        if !forced {
            for &k in threat {
                if pos.cells[k.index()] != 0 {
                    continue;
                }
                pos.play(k);
                let mut seconds = Vec::new();
                pos.search_stones(&mut seconds, (ROOT_FIRST, ROOT_FIRST));
                pos.undo(k);
                for s in seconds {
                    add(&mut tries, k, s);
                }
            }
        }
        for t in roots {
            add(&mut tries, t[0], t[1]);
        }
        for t in tries {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if t.iter().any(|s| pos.cells[s.index()] != 0) {
                continue;
            }
            let safe = self.verdict(pos, &t, single, budget, deadline) == Verdict::Safe
                && (!single || self.verdict(pos, &t, false, budget, deadline) == Verdict::Safe);
            if safe {
                return Some(t);
            }
        }
        None
    }

    fn tss_budget(&self, limits: &EngineLimits) -> u64 {
        match (limits.time, limits.nodes) {
            (_, Some(n)) => (n / 4).clamp(200, 400_000),
            (Some(t), None) => (t.as_millis() as u64 * 40).clamp(2_000, 400_000),
            (None, None) => 100_000,
        }
    }

    /// Candidate turns at the root: first stones (a beam, or the forced replies) times second
    /// stones given the first, without duplicate pairs.
    fn root_turns(&mut self, pos: &mut Connect6, first: usize, second: usize) -> Vec<Vec<Stone>> {
        let mut firsts = Vec::new();
        pos.search_stones(&mut firsts, (first, second));
        if pos.stones_left() == 1 {
            return firsts.into_iter().map(|s| vec![s]).collect();
        }
        let mut out: Vec<Vec<Stone>> = Vec::new();
        let mut seconds = Vec::new();
        for &f in &firsts {
            pos.play(f);
            pos.search_stones(&mut seconds, (first, second));
            if seconds.is_empty() {
                // The first stone ended the game (cannot happen: wins are found earlier).
                pos.generate_moves(&mut seconds);
                seconds.truncate(1);
            }
            pos.undo(f);
            for &s in &seconds {
                if s != f && !out.iter().any(|t| t.contains(&f) && t.contains(&s)) {
                    out.push(vec![f, s]);
                }
            }
        }
        out
    }

    /// When the opponent, given the move, would win by continuous threats, keep only the root
    /// turns after which it no longer does (adding turns through the stones of its winning
    /// line); all of them when none does (lost anyway).
    ///
    /// When the side to move must block a threat, the opponent's threat is looked for after
    /// each blocking first stone (the turn's free second stone must stop it); else with a
    /// free turn for the opponent now.
    fn defend_against_threat_search(
        &mut self,
        pos: &mut Connect6,
        roots: &mut Vec<Vec<Stone>>,
        budget: u64,
        deadline: Option<Instant>,
    ) {
        let mut extra: Vec<Vec<Stone>> = Vec::new();
        let mut threatened = false;
        // Threat-search nodes used so far: `budget` bounds the whole defence.
        let mut used = 0;
        let known = |roots: &Vec<Vec<Stone>>, extra: &Vec<Vec<Stone>>, a: Stone, b: Stone| {
            roots
                .iter()
                .chain(extra.iter())
                .any(|t| t.contains(&a) && t.contains(&b))
        };
        if pos.in_check() {
            let firsts = first_stones(roots);
            for f in firsts {
                pos.play(f);
                let state = pos.pass_turn();
                let threat = self.tss.find_win_or_single(
                    pos,
                    self.threat_turns,
                    budget.saturating_sub(used),
                    deadline,
                );
                used += self.tss.nodes();
                pos.set_turn_state(state);
                if let Some(threat) = threat {
                    threatened = true;
                    let mut seconds = Vec::new();
                    pos.search_stones(&mut seconds, (ROOT_FIRST, ROOT_FIRST));
                    for s in threat.turn.iter().copied().chain(seconds) {
                        if s != f && pos.cells[s.index()] == 0 && !known(roots, &extra, f, s) {
                            extra.push(vec![f, s]);
                        }
                    }
                }
                pos.undo(f);
            }
            if !threatened {
                return;
            }
        } else {
            let state = pos.pass_turn();
            let threat = self.tss.find_win_or_single(
                pos,
                self.threat_turns,
                budget.saturating_sub(used),
                deadline,
            );
            used += self.tss.nodes();
            pos.set_turn_state(state);
            let Some(threat) = threat else { return };
            // Turns through the opponent's key points.
            for &k in &threat.turn {
                if pos.cells[k.index()] != 0 {
                    continue;
                }
                pos.play(k);
                let mut seconds = Vec::new();
                pos.search_stones(&mut seconds, (ROOT_FIRST, ROOT_FIRST));
                pos.undo(k);
                for s in seconds.into_iter().chain(threat.turn.iter().copied()) {
                    if s != k && !known(roots, &extra, k, s) {
                        extra.push(vec![k, s]);
                    }
                }
            }
        }
        roots.splice(0..0, extra);
        // Keep the turns after which the threat search finds no win for the opponent (at any
        // length: a turn that stops the win it has now often leaves a longer one). Each turn's
        // check gets a share of the budget, so that many turns are checked and the main search
        // chooses among them; a check cut short does not keep its turn. Stop at the deadline.
        let turns = self.threat_turns;
        let per_turn = (budget / DEFENCE_CHECKS).max(200);
        let mut keep = Vec::new();
        for turn in roots.iter() {
            if used >= budget || deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            for &s in turn {
                pos.play(s);
            }
            let limit = per_turn.min(budget - used);
            let win = self.tss.find_win_or_single(pos, turns, limit, deadline);
            used += self.tss.nodes();
            let known = !self.tss.aborted();
            for &s in turn.iter().rev() {
                pos.undo(s);
            }
            if win.is_none() && known {
                keep.push(turn.clone());
            }
        }
        if !keep.is_empty() {
            *roots = keep;
        }
    }
}
