//! The totals of a match: every finished game ([`GameReport`]) counted into a [`Tally`]
//! (W/D/L, pairs for the pentanomial model, endings, time per move), and the summary `qi
//! match` and `qi match merge` print from it, so both print the same numbers for the same
//! games.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use game_core::{Outcome, Side};

use super::stats::{Penta, Sprt, SprtState, Wdl};
use crate::CliError;

/// One finished game, as a worker reports it.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Game number, from 0.
    pub index: usize,
    /// Which engine (0 or 1) played the first side.
    pub first: usize,
    /// The outcome by side.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: String,
    /// The game record.
    pub record: String,
    /// Engine moves played.
    pub plies: usize,
    /// How long each engine (by engine index, not side) took for its moves in this game.
    pub times: [MoveTimes; 2],
    /// Whether the game was lost by an engine fault (time, crash, illegal move, protocol
    /// error) rather than by the rules.
    pub fault: bool,
}

/// The time an engine took for its moves: from the request sent to the move received.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    /// Moves answered.
    pub moves: u64,
    /// Their time summed.
    pub total: Duration,
    /// The longest.
    pub max: Duration,
}

impl MoveTimes {
    /// Counts one move that took `spent`.
    pub fn add(&mut self, spent: Duration) {
        self.moves += 1;
        self.total += spent;
        self.max = self.max.max(spent);
    }

    /// Adds another game's times.
    pub fn merge(&mut self, other: &MoveTimes) {
        self.moves = self.moves.saturating_add(other.moves);
        self.total = self.total.saturating_add(other.total);
        self.max = self.max.max(other.max);
    }

    /// Mean time per move in milliseconds (0 with no moves).
    pub fn mean_ms(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total.as_secs_f64() * 1000.0 / self.moves as f64
        }
    }
}

impl GameReport {
    /// The result for engine 0: 1, 1/2 or 0 as (win, draw, loss) counts.
    pub fn wdl(&self) -> Wdl {
        match self.outcome {
            Outcome::Draw => Wdl {
                draws: 1,
                ..Wdl::default()
            },
            Outcome::Win(side) => {
                let winner = if side == Side::First {
                    self.first
                } else {
                    1 - self.first
                };
                if winner == 0 {
                    Wdl {
                        wins: 1,
                        ..Wdl::default()
                    }
                } else {
                    Wdl {
                        losses: 1,
                        ..Wdl::default()
                    }
                }
            }
        }
    }
}

impl GameReport {
    /// Engine 0's points in this game, in half points (0, 1 or 2).
    pub fn halves(&self) -> usize {
        let r = self.wdl();
        2 * r.wins as usize + r.draws as usize
    }
}

/// The result of a game by side: `1-0`, `0-1` or `1/2-1/2`.
pub fn result_tag(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The running totals of a match: what its game lines and its summary print.
#[derive(Default)]
pub struct Tally {
    /// Results for the first engine named.
    pub wdl: Wdl,
    /// How games ended, with their counts, in order of first appearance.
    pub reasons: Vec<(String, u32)>,
    /// Time per move of each engine (by engine index).
    pub times: [MoveTimes; 2],
    /// Games counted.
    pub finished: usize,
    /// Pairs with both games counted, by engine 0's points in the pair.
    pub penta: Penta,
    /// Counted games whose partner is not counted yet, by pair number.
    pub unpaired: BTreeMap<usize, GameReport>,
}

impl Tally {
    /// Counts one finished game; returns the pair, in game order, when this game completes
    /// one.
    pub fn add(&mut self, report: &GameReport) -> Option<[GameReport; 2]> {
        self.finished += 1;
        let r = report.wdl();
        self.wdl.wins += r.wins;
        self.wdl.draws += r.draws;
        self.wdl.losses += r.losses;
        for (t, game) in self.times.iter_mut().zip(&report.times) {
            t.merge(game);
        }
        match self.reasons.iter_mut().find(|(k, _)| *k == report.reason) {
            Some((_, n)) => *n += 1,
            None => self.reasons.push((report.reason.clone(), 1)),
        }
        let pair = report.index / 2;
        let partner = self.unpaired.remove(&pair);
        match partner {
            None => {
                self.unpaired.insert(pair, report.clone());
                None
            }
            Some(other) => {
                self.penta.add(other.halves() + report.halves());
                let mut both = [other, report.clone()];
                both.sort_by_key(|g| g.index);
                Some(both)
            }
        }
    }

    /// How the games ended with their counts, most frequent first (ties by text), so that a
    /// merge of the same games prints them in the same order.
    pub fn endings(&self) -> Vec<(String, u32)> {
        let mut list = self.reasons.clone();
        list.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        list
    }
}

/// Prints the match's summary: games, W/L/D and points of the first engine, the Elo
/// difference with its 95 % interval, the SPRT's log-likelihood ratio and verdict, how the
/// games ended and each engine's time per move.
///
/// # Errors
/// Output errors.
pub fn summary(
    out: &mut impl Write,
    names: &[String; 2],
    tally: &Tally,
    sprt: Option<&Sprt>,
    sprt_end: Option<SprtState>,
) -> Result<(), CliError> {
    let wdl = &tally.wdl;
    writeln!(out, "Match finished: {} games", wdl.games())?;
    writeln!(
        out,
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        names[0],
        names[1],
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.score().unwrap_or(0.5),
        wdl.games()
    )?;
    writeln!(
        out,
        "{}: {} wins, {} draws, {} losses, {:.1}/{} points",
        names[0],
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.points(),
        wdl.games()
    )?;
    if let Some((elo, lo, hi)) = wdl.elo() {
        writeln!(
            out,
            "Elo difference: {} (95% interval {} .. {})",
            fmt_elo(elo),
            fmt_elo(lo),
            fmt_elo(hi)
        )?;
    }
    if let Some((elo, lo, hi)) = tally.penta.elo() {
        let c = tally.penta.counts;
        writeln!(
            out,
            "Pentanomial (pairs by {}'s points 0, 1/2, 1, 3/2, 2): {} {} {} {} {} over {} pairs, \
             Elo {} (95% interval {} .. {})",
            names[0],
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            tally.penta.pairs(),
            fmt_elo(elo),
            fmt_elo(lo),
            fmt_elo(hi)
        )?;
    }
    if let Some(s) = sprt {
        let llr = s.llr(wdl);
        let (lower, upper) = s.bounds();
        let verdict = match s.state(llr) {
            SprtState::H1 => "H1 accepted",
            SprtState::H0 => "H0 accepted",
            SprtState::Continue => "no decision",
        };
        writeln!(
            out,
            "SPRT (elo0={}, elo1={}, alpha={}, beta={}): LLR {:.3} [{:.3}, {:.3}]: {verdict}{}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            llr,
            lower,
            upper,
            if sprt_end.is_some() {
                " (stopped early)"
            } else {
                ""
            }
        )?;
    }
    for (reason, n) in tally.endings() {
        writeln!(out, "  {n} x {reason}")?;
    }
    for (name, t) in names.iter().zip(&tally.times) {
        writeln!(
            out,
            "Time per move, {name}: mean {:.0} ms, longest {:.0} ms over {} move{}",
            t.mean_ms(),
            t.max.as_secs_f64() * 1000.0,
            t.moves,
            if t.moves == 1 { "" } else { "s" }
        )?;
    }
    out.flush()?;
    Ok(())
}

fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", e + 0.0)
    }
}
