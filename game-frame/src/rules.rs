//! What each game supplies to the frame ([`Rules`], on top of [`Position`]), and the typed
//! results of its engine.
//!
//! A *ply* is one [`Position::play`]; a *turn* is the plies one side plays in a row (one stone
//! in gomoku, one move in xiangqi, one or two stones in connect6). Everything a person or a
//! script sees is in turns: a connect6 turn is written as its stones joined, `j9l11`.

use std::sync::atomic::AtomicBool;

use game_core::search::{PvLine, Report, Searcher};
use game_core::{Evaluate, Outcome, Position, Score, ScoreView, Side};

use crate::board::BoardView;
use crate::config::{Budget, EngineConfig};
use crate::opening_rule::OpeningRule;
use crate::strength::{LevelPick, LevelSettings};

/// How a finished game ended: the outcome and the reason in words ("five in a row").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why, in a few words.
    pub reason: String,
}

impl Ending {
    /// `side` (named `name` in its game) resigned: the other side wins, "`name` resigned".
    #[must_use]
    pub fn resignation(side: Side, name: &str) -> Self {
        Ending {
            outcome: Outcome::Win(side.opponent()),
            reason: format!("{name} resigned"),
        }
    }

    /// `side` (named `name` in its game) ran out of time and `outcome` is what the game's
    /// rules make of it ([`Rules::flag_fall`]): "`name` ran out of time".
    #[must_use]
    pub fn time_forfeit(outcome: Outcome, name: &str) -> Self {
        Ending {
            outcome,
            reason: format!("{name} ran out of time"),
        }
    }

    /// The PGN-style result: `1-0` (first side won), `0-1`, `1/2-1/2`.
    #[must_use]
    pub fn result_tag(&self) -> &'static str {
        match self.outcome {
            Outcome::Win(Side::First) => "1-0",
            Outcome::Win(Side::Second) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// One completed search iteration, typed (what a game's engine reports).
#[derive(Clone, Debug)]
pub struct Progress<M> {
    /// Iteration depth in plies.
    pub depth: u32,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Principal variation in plies.
    pub pv: Vec<M>,
}

/// A typed engine decision: the whole turn to play.
#[derive(Clone, Debug)]
pub struct Decision<M> {
    /// The plies of the turn (empty when the game is over).
    pub turn: Vec<M>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Principal variation in plies, starting with the turn.
    pub pv: Vec<M>,
    /// The principal variations searched (MultiPV), best first; at most one otherwise
    /// (empty when the engine decided without a search).
    pub lines: Vec<PvLine<M>>,
    /// Why the turn is not the first turn of the search's principal variation (connect6: a
    /// threat search replaced the searched turn), in words; `None` when it is.
    pub reason: Option<String>,
}

/// What each game supplies to the frame, on top of [`Position`].
pub trait Rules: Position {
    /// The game's engine (its own, or the shared search with its evaluation).
    type Engine: Send;

    /// A fresh engine.
    fn new_engine(config: &EngineConfig) -> Self::Engine;

    /// Chooses the whole turn for the side to move within `budget`, reporting every completed
    /// iteration to `progress`. An empty turn when the game is over.
    fn think(
        engine: &mut Self::Engine,
        position: &Self,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress<Self::Move>),
    ) -> Decision<Self::Move>;

    /// The command-line name of this game (`gomoku`, `renju`, `connect6`, `xiangqi`).
    fn game_name(&self) -> &'static str;

    /// The record's `[Game "..."]` tag value.
    fn record_game(&self) -> &'static str;

    /// How a person writes a turn of this game, for the prompt's `help`: the `<move>` line
    /// (without its name column) and any notes on the board, lines of at most 94 columns.
    fn move_help(&self) -> String;

    /// The side's name in this game (Black/White, Red/Black).
    fn side_name(side: Side) -> &'static str;

    /// The end of the game, if it is over, with the reason.
    fn ending(&self) -> Option<Ending>;

    /// What it means when `side`'s clock runs out in this position. Default: `side` loses,
    /// as the tournament rules of every game here say (RIF renju rules: a player who exceeds
    /// the time limit loses; the Asian Xiangqi Federation's rules and Gomocup's and the ICGA's
    /// connect6 tournaments alike). A game whose rules draw when the opponent could never
    /// win (chess's FIDE rule) overrides this.
    fn flag_fall(&self, side: Side) -> Outcome {
        Outcome::Win(side.opponent())
    }

    /// What a strength level means for this game's engine. Default:
    /// [`LevelSettings::standard`] with a unit of 100 evaluation units.
    fn level_settings(pick: LevelPick) -> LevelSettings {
        LevelSettings::standard(pick, 100)
    }

    /// The board as data, with `last` (the last turn's plies) marked: what every front end
    /// draws ([`crate::render::render`] for a terminal).
    fn board(&self, last: &[Self::Move]) -> BoardView;

    /// Reads the plies of a turn (or the first plies of it) from a person. Default: one move
    /// by [`Position::parse_move`].
    ///
    /// # Errors
    /// What was wrong with the text, where, and what is accepted.
    fn parse_turn(&self, text: &str) -> Result<Vec<Self::Move>, String> {
        self.parse_move(text)
            .map(|m| vec![m])
            .map_err(|e| e.to_string())
    }

    /// Plays a ply read from a person or a record (renju: a forbidden move is played and
    /// loses). Default [`Position::play`].
    fn play_input(&mut self, mv: Self::Move) {
        self.play(mv);
    }

    /// Whether scores are centipawns a GUI reads (`score_cp` in JSON; xiangqi) rather than
    /// evaluation units (`score`; the stone games). Default false.
    fn score_in_centipawns(&self) -> bool {
        false
    }

    /// Own moves to the forced result for a mate distance of `plies` (negative: a loss).
    /// Default: sides alternate every ply (UCI `mate`).
    fn mate_moves(&self, plies: i32) -> i32 {
        ScoreView::MatePlies(plies).mate_moves().unwrap_or(0)
    }

    /// The record tags that describe this position as a start (rule, size, FEN, setup).
    fn start_tags(&self) -> Vec<(&'static str, String)>;

    /// This position in `qi tune`'s data form (`game_core::tune::Tunable::to_text`), for a
    /// game with a tunable evaluation. Default `None`: the game has none.
    fn tune_text(&self) -> Option<String> {
        None
    }

    /// The moves of a record from `start`, one string per turn in order. Default: each turn's
    /// plies in [`Position::format_move`] joined.
    fn record_turns(start: &Self, turns: &[Vec<Self::Move>]) -> Vec<String> {
        let mut pos = start.clone();
        turns
            .iter()
            .map(|turn| {
                let mut text = String::new();
                for &mv in turn {
                    text.push_str(&pos.format_move(mv));
                    pos.play(mv);
                }
                text
            })
            .collect()
    }

    /// Why a person may not play `turn` here although the rules take it, if so: a move that
    /// loses at once by the rules (renju's forbidden points for Black), which front ends
    /// refuse to people with this reason rather than end the game on a slip. Engines and
    /// protocols play by the rules alone. Default none.
    fn foul(&self, _turn: &[Self::Move]) -> Option<String> {
        None
    }

    /// The opening rules a game from this position offers, as (name, description) pairs
    /// ([`crate::opening_rule`]: gomoku's swap2, renju's RIF rule and Taraguchi-10). Default
    /// none.
    fn opening_rules(&self) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }

    /// Opening rule `name` (one of [`opening_rules`](Rules::opening_rules)) for a game
    /// starting from this position, or `None` for an unknown name or a position past its
    /// start. Default none.
    fn opening_rule(&self, _name: &str) -> Option<Box<dyn OpeningRule<Self>>> {
        None
    }

    /// Other notations of a turn for people, shown after a move is played (xiangqi: WXF and
    /// Chinese). Default none.
    fn turn_note(&self, _turn: &[Self::Move]) -> Option<String> {
        None
    }

    /// The turn in every notation the game offers people, each with its name, the game's own
    /// ([`Position::format_move`]) first (xiangqi: `ICCS h2e2`, `WXF C2.5`, `Chinese 炮二平五`),
    /// for a move list that lets the reader choose. Default none: the game has one notation.
    fn turn_notations(&self, _turn: &[Self::Move]) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// A comment to append to the record's movetext (xiangqi: the moves in WXF).
    fn record_comment(_start: &Self, _turns: &[Vec<Self::Move>]) -> Option<String> {
        None
    }

    /// A ply in a protocol's notation (`gomocup`: `x,y` from the top-left; `connectmore`:
    /// two letters; `iccs`: `h2e2`), or `None` for a notation the game does not speak.
    fn protocol_move(&self, _mv: Self::Move, _notation: &str) -> Option<String> {
        None
    }

    /// Every legal move of the side to move in notation, naturally sorted (`a2` before `a10`).
    fn legal_texts(&self) -> Vec<String> {
        let mut moves = Vec::new();
        if self.generate_moves(&mut moves).is_some() {
            return Vec::new();
        }
        let mut texts: Vec<String> = moves.into_iter().map(|m| self.format_move(m)).collect();
        texts.sort_by_cached_key(|t| natural_key(t));
        texts
    }
}

/// A sort key that orders digit runs by value: `a2` < `a10`.
pub fn natural_key(text: &str) -> Vec<(u8, u64, String)> {
    let mut key = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut n: u64 = 0;
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                n = n
                    .saturating_mul(10)
                    .saturating_add(u64::from(d as u8 - b'0'));
                chars.next();
            }
            key.push((0, n, String::new()));
        } else {
            let mut s = String::new();
            while let Some(&d) = chars.peek().filter(|d| !d.is_ascii_digit()) {
                s.push(d);
                chars.next();
            }
            key.push((1, 0, s));
        }
    }
    key
}

/// The shared search as a game's engine: a [`Searcher`] with the game's evaluation. Completes
/// a multi-ply turn from the principal variation, searching again from the middle of the turn
/// when the variation is too short. A budget's level caps the search and plays the line its
/// skill chooses among the principal variations ([`Rules::level_settings`]); a budget's
/// MultiPV reports that many lines ([`Decision::lines`]).
pub fn search_turn<P: Rules, E: Evaluate<P>>(
    searcher: &mut Searcher<P, E>,
    position: &P,
    budget: &Budget,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress<P::Move>),
) -> Decision<P::Move> {
    let mut limits = budget.limits();
    let settings = budget.level.map(P::level_settings);
    if let Some(settings) = &settings {
        limits.depth = LevelSettings::cap(limits.depth, settings.depth);
        limits.nodes = LevelSettings::cap(limits.nodes, settings.nodes);
        if let Some(skill) = settings.skill {
            limits.multipv = limits.multipv.max(skill.multipv);
        }
    }
    let result = searcher.search(position, &limits, stop, |r: &Report<P::Move>| {
        progress(&Progress {
            depth: r.depth,
            score: r.score,
            nodes: r.nodes,
            time_ms: r.time_ms,
            pv: r.pv.clone(),
        });
    });
    // A level plays the line its skill chooses.
    let result = result.play_line(settings.and_then(|s| s.skill), position.key());
    let (score, pv) = (result.score, result.pv.clone());
    let mut decision = Decision {
        turn: Vec::new(),
        score,
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.time_ms,
        pv: pv.clone(),
        lines: result.lines.clone(),
        reason: None,
    };
    let Some(&first) = pv.first() else {
        return decision;
    };
    // The rest of a multi-ply turn is searched for one line.
    limits.multipv = 1;
    let side = position.side_to_move();
    let mut pos = position.clone();
    let mut moves = Vec::new();
    let mut mv = first;
    loop {
        pos.play(mv);
        decision.turn.push(mv);
        if pos.side_to_move() != side || pos.generate_moves(&mut moves).is_some() {
            break;
        }
        let next = decision.turn.len();
        mv = match pv.get(next) {
            Some(&m) if moves.contains(&m) => m,
            _ => {
                let more = searcher.search(&pos, &limits, stop, |_| {});
                decision.nodes += more.nodes;
                decision.time_ms += more.time_ms;
                match more.best_move {
                    Some(m) => m,
                    None => break,
                }
            }
        };
    }
    if decision.pv.first() != Some(&first) {
        decision.pv = decision.turn.clone();
    }
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_sort() {
        let mut v = vec!["a10", "a2", "b1", "a1"];
        v.sort_by_cached_key(|t| natural_key(t));
        assert_eq!(v, ["a1", "a2", "a10", "b1"]);
    }
}
