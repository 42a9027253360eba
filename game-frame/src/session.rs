//! A game in progress ([`Session`]: start, position, turns, engine) and the object-safe view
//! every front end drives ([`Game`]), with engine results in notation ([`Info`], [`Thought`]).

use std::sync::atomic::AtomicBool;

use game_core::{ScoreView, Side};

use crate::board::BoardView;
use crate::config::{Budget, EngineConfig};
use crate::opening_rule::{Answer, Ask, AskView, OpeningRule};
use crate::render::{Style, render};
use crate::rules::{Decision, Ending, Progress, Rules};

/// A search report in notation, for the live line.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth in plies.
    pub depth: u32,
    /// The score in words: `+35`, `win in 3`, `loss in 2`.
    pub score: String,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Principal variation, one string per turn.
    pub pv: Vec<String>,
}

/// An engine decision in notation: what `analyze` prints (as text, or JSON by
/// [`Thought::to_json`]).
#[derive(Clone, Debug)]
pub struct Thought {
    /// The turn to play (`h8`, `h2e2`, connect6 `j9l11`); `None` when the game is over.
    pub bestmove: Option<String>,
    /// The evaluation for the side to move in the game's units (xiangqi: centipawns where a
    /// horse is 100, UCCI's convention; stone games: evaluation units, an open three about
    /// 200), or `None` for a forced result.
    pub score_cp: Option<i32>,
    /// Own moves to a forced win (negative: to a forced loss), or `None`.
    pub mate: Option<i32>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub time_ms: u64,
    /// Principal variation, one string per turn.
    pub pv: Vec<String>,
    /// The best move in other notations for people (xiangqi WXF and Chinese); not in JSON.
    pub note: Option<String>,
    /// The names of the side to move and of the other side, for [`Thought::score_text`].
    pub sides: [&'static str; 2],
    /// The JSON name of the score: `score_cp` for xiangqi (centipawns, as GUIs read them),
    /// `score` for the stone games (evaluation units, not pawns).
    pub score_field: &'static str,
    /// Every principal variation of a MultiPV search, best first (one or none otherwise).
    pub lines: Vec<ThoughtLine>,
    /// Why the turn is not the first turn of the principal variation the search reported
    /// (connect6: a threat search replaced it), or `None`.
    pub reason: Option<String>,
}

/// One principal variation of a MultiPV analysis, in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThoughtLine {
    /// The score as [`Thought::score_cp`] gives it, or `None` for a forced result.
    pub score_cp: Option<i32>,
    /// Own moves to a forced win (negative: to a forced loss), or `None`.
    pub mate: Option<i32>,
    /// The line, one string per turn.
    pub pv: Vec<String>,
}

impl Thought {
    /// The score in words, naming the side it favours: `Red +0.35`, `White wins in 3`.
    #[must_use]
    pub fn score_text(&self) -> String {
        score_words(self.score_cp, self.mate, self.sides)
    }

    /// The JSON object of `analyze --json`: `bestmove`, the score under
    /// [`Thought::score_field`] (side to move's view, `null` for a forced result), `mate`,
    /// `depth`, `nodes`, `time_ms`, `pv`; `multipv` with more than one line and `reason`
    /// when the turn is not the principal variation's first ([`Thought::reason`]).
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = serde_json::Map::new();
        v.insert("bestmove".into(), serde_json::json!(self.bestmove));
        v.insert(self.score_field.into(), serde_json::json!(self.score_cp));
        v.insert("mate".into(), serde_json::json!(self.mate));
        v.insert("depth".into(), serde_json::json!(self.depth));
        v.insert("nodes".into(), serde_json::json!(self.nodes));
        v.insert("time_ms".into(), serde_json::json!(self.time_ms));
        v.insert("pv".into(), serde_json::json!(self.pv));
        if self.lines.len() > 1 {
            let lines: Vec<serde_json::Value> = self
                .lines
                .iter()
                .map(|l| {
                    let mut o = serde_json::Map::new();
                    o.insert(self.score_field.into(), serde_json::json!(l.score_cp));
                    o.insert("mate".into(), serde_json::json!(l.mate));
                    o.insert("pv".into(), serde_json::json!(l.pv));
                    serde_json::Value::Object(o)
                })
                .collect();
            v.insert("multipv".into(), serde_json::Value::Array(lines));
        }
        if let Some(reason) = &self.reason {
            v.insert("reason".into(), serde_json::json!(reason));
        }
        serde_json::Value::Object(v)
    }

    /// A line's score in words, as [`Thought::score_text`] gives the best line's.
    #[must_use]
    pub fn line_score_text(&self, line: &ThoughtLine) -> String {
        score_words(line.score_cp, line.mate, self.sides)
    }
}

/// What a forced win counts for in a review's losses (units of the evaluation): more than
/// any evaluation, so that a turn that let a win go or walked into a loss is the worst.
pub const REVIEW_MATE: i32 = 10_000;

/// One turn of a reviewed game ([`Game::review`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewTurn {
    /// Who played it.
    pub side: Side,
    /// The turn in the game's notation.
    pub played: String,
    /// The evaluation after it, from the first side's view, in hundredths of the game's
    /// unit (`None` with a forced result).
    pub score_cp: Option<i32>,
    /// A forced result after it: own moves to the first side's win (positive) or loss
    /// (negative); `±1` when the turn ended the game.
    pub mate: Option<i32>,
    /// How much the turn lost for its side against the evaluation before it (0 or more; a
    /// forced result counts [`REVIEW_MATE`]).
    pub lost: i32,
    /// The engine's turn in the position before, when it differs from the one played.
    pub best: Option<String>,
}

impl ReviewTurn {
    /// The evaluation after the turn for people: `White +2.06` (the side it favours and by
    /// how much, in the game's units), `Black wins` (a forced result) or `even`. `sides` are
    /// the first side's name, then the second's.
    #[must_use]
    pub fn score_text(&self, sides: [&str; 2]) -> String {
        match (self.score_cp, self.mate) {
            (_, Some(m)) if m > 0 => format!("{} wins", sides[0]),
            (_, Some(_)) => format!("{} wins", sides[1]),
            (Some(cp), None) if cp > 0 => format!("{} +{:.2}", sides[0], f64::from(cp) / 100.0),
            (Some(cp), None) if cp < 0 => {
                format!("{} +{:.2}", sides[1], f64::from(-cp) / 100.0)
            }
            _ => "even".to_string(),
        }
    }
}

/// The turns of a review that lost the most, as indices into `turns`, worst first: up to
/// three, each losing at least half a unit (50) against a better turn the engine names. A
/// turn the engine would have played too is no mistake, whatever the evaluations' noise
/// between depths says.
#[must_use]
pub fn worst_turns(turns: &[ReviewTurn]) -> Vec<usize> {
    let mut worst: Vec<usize> = (0..turns.len())
        .filter(|&i| turns[i].lost >= 50 && turns[i].best.is_some())
        .collect();
    worst.sort_by_key(|&i| std::cmp::Reverse(turns[i].lost));
    worst.truncate(3);
    worst
}

/// A score for people: the side it favours and the evaluation in hundreds of units
/// (`White +2.06`), or who wins a forced result in how many of their own moves
/// (`Black wins in 3`). `sides` is the side to move, then the other.
fn score_words(cp: Option<i32>, mate: Option<i32>, sides: [&str; 2]) -> String {
    let [me, other] = sides;
    match (cp, mate) {
        (_, Some(m)) if m > 0 => format!("{me} wins in {m}"),
        (_, Some(m)) if m < 0 => format!("{other} wins in {}", -m),
        (_, Some(_)) => "game over".to_string(),
        (Some(cp), None) if cp < 0 => format!("{other} +{:.2}", f64::from(-cp) / 100.0),
        (Some(cp), None) => format!("{me} +{:.2}", f64::from(cp) / 100.0),
        (None, None) => "?".to_string(),
    }
}

/// The object-safe view of a game in progress that every command drives.
pub trait Game: Send {
    /// The command-line name (`gomoku`, `renju`, `connect6`, `xiangqi`).
    fn name(&self) -> &'static str;
    /// How a person writes a turn here ([`Rules::move_help`]).
    fn move_help(&self) -> String;
    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// A side's name in this game.
    fn side_name(&self, side: Side) -> &'static str;
    /// The JSON name of the score ([`Thought::score_field`]).
    fn score_field(&self) -> &'static str;
    /// The end of the game, if over.
    fn ending(&self) -> Option<Ending>;
    /// The board as data, the last turn marked.
    fn board(&self) -> BoardView;
    /// The board drawn for a terminal.
    fn render(&self, style: &Style) -> String {
        render(&self.board(), style)
    }
    /// Legal moves of the side to move (single plies), sorted.
    fn legal_moves(&self) -> Vec<String>;
    /// Reads and plays a person's turn (or its first stones); returns it in notation. The
    /// game is unchanged on error.
    ///
    /// # Errors
    /// A message saying what was wrong with the move, where, and what is accepted.
    fn play_text(&mut self, text: &str) -> Result<String, String>;
    /// The side that played each turn so far, in order.
    fn turn_sides(&self) -> Vec<Side>;
    /// Takes back the last turn; returns the side that had played it.
    fn undo_turn(&mut self) -> Option<Side>;
    /// Thinks about the side to move's turn without playing it.
    fn think(&mut self, budget: &Budget, stop: &AtomicBool, info: &mut dyn FnMut(&Info))
    -> Thought;
    /// Thinks and plays the chosen turn.
    fn engine_turn(
        &mut self,
        budget: &Budget,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Thought;
    /// Why a person may not play `text` here although the rules take it ([`Rules::foul`]):
    /// renju's forbidden points, which lose at once. `None` for any other text (a move
    /// that does not read is [`play_text`](Game::play_text)'s to refuse).
    fn foul(&self, text: &str) -> Option<String>;
    /// Starts the game again from its start position (its setup included), under the same
    /// opening rule from its first step; the engine keeps its tables.
    fn restart(&mut self);
    /// The board after the first `turns` turns (clamped to the game's length), as
    /// [`board`](Game::board) shows it then: a game's review shows any earlier position.
    fn board_at(&self, turns: usize) -> BoardView;
    /// Reviews the game: the engine searches every position from the start to now within
    /// `budget` each (stopped by `stop`) and gives each turn's evaluation and the better
    /// move where the turn lost the most ([`ReviewTurn`]).
    fn review(&mut self, budget: &Budget, stop: &AtomicBool) -> Vec<ReviewTurn>;
    /// Replaces the engine with a fresh one of `config` (a larger or smaller table), the
    /// game unchanged.
    fn new_engine(&mut self, config: &EngineConfig);
    /// The opening rules this game offers, as (name, description) pairs
    /// ([`Rules::opening_rules`]).
    fn opening_rules(&self) -> Vec<(&'static str, &'static str)>;
    /// Plays the game under opening rule `name` ([`crate::opening_rule`]).
    ///
    /// # Errors
    /// A name the game does not offer (naming those it does), or a game already begun.
    fn set_opening(&mut self, name: &str) -> Result<(), String>;
    /// The opening rule the game is played under, if any (also once the opening is over).
    fn opening_name(&self) -> Option<&'static str>;
    /// What the opening asks now, or `None` when normal play goes on (the side to move's
    /// player moves).
    fn opening_ask(&self) -> Option<AskView>;
    /// A person's answer to [`opening_ask`](Game::opening_ask) as text: a point, a choice's
    /// word, the points offered, the point picked. Returns what was done, for people.
    ///
    /// # Errors
    /// No opening step is asked, or the answer does not read or is refused (a stone outside
    /// its square, symmetric offers, a pick not offered): the message says why and what is
    /// expected, and the game is unchanged.
    fn opening_answer(&mut self, text: &str) -> Result<String, String>;
    /// The engine answers the opening's step within `budget` and the answer is played;
    /// returns it as text (`swap`, `h8`, `offer g9 j7`), or an empty text when no step is
    /// asked.
    fn opening_engine(&mut self, budget: &Budget, stop: &AtomicBool) -> String;
    /// Whether the players have swapped colours in the opening: the player who began then
    /// plays the second side ([`Role::holding`](crate::opening_rule::Role::holding)).
    fn swapped(&self) -> bool;
    /// The game record: tags (players, result, start position) and the moves.
    fn record(&self, players: [&str; 2], ending: Option<&Ending>) -> String {
        self.record_with(players, ending, "qi", &[], &[])
    }
    /// The game record with `event` as its `[Event]` tag, `extra` tags after the start
    /// position's (a match's round, opening, time control), and each turn's time where
    /// `times` has one (indexed by turn from the start, setup moves included): a PGN
    /// `{[%emt 0:00:03.2]}` comment after the turn (hours, minutes, seconds and tenths).
    fn record_with(
        &self,
        players: [&str; 2],
        ending: Option<&Ending>,
        event: &str,
        extra: &[(&str, String)],
        times: &[Option<std::time::Duration>],
    ) -> String;
    /// What it means when `side`'s clock runs out now ([`Rules::flag_fall`]).
    fn flag_fall(&self, side: Side) -> game_core::Outcome;
    /// Every turn from the start (setup moves included) with its side, in the game's notation.
    fn turn_texts(&self) -> Vec<(Side, String)>;
    /// Every turn from the start in each notation the game offers ([`Rules::turn_notations`];
    /// empty lists for a game with one notation).
    fn turn_notations(&self) -> Vec<Vec<(&'static str, String)>>;
    /// Every turn from the start with its side in a protocol's notation
    /// ([`Rules::protocol_move`]), or `None` when the game does not speak it.
    fn protocol_turns(&self, notation: &str) -> Option<Vec<(Side, String)>>;
    /// The record tags of the start position ([`Rules::start_tags`]: rule, size, FEN, setup).
    fn start_tags(&self) -> Vec<(&'static str, String)>;
    /// Every position after each ply from the start to now (mid-turn positions included), in
    /// `qi tune`'s data form ([`Rules::tune_text`]); empty for a game without a tunable
    /// evaluation.
    fn tune_positions(&self) -> Vec<String>;
}

/// A game in progress: the start position, the current one, the turns played and an engine.
pub struct Session<R: Rules> {
    start: R,
    pos: R,
    turns: Vec<(Side, Vec<R::Move>)>,
    engine: R::Engine,
    /// The opening rule in play, if any ([`Game::set_opening`]).
    opening: Option<Box<dyn OpeningRule<R>>>,
    /// The turns the opening placed: undo stops there.
    opening_turns: usize,
    /// The opening's steps for the record (`swap`, `offer g9 j7`).
    opening_log: Vec<String>,
}

impl<R: Rules> Session<R> {
    /// A session from `start` with a fresh engine.
    pub fn new(start: R, config: &EngineConfig) -> Self {
        Session {
            pos: start.clone(),
            start,
            turns: Vec::new(),
            engine: R::new_engine(config),
            opening: None,
            opening_turns: 0,
            opening_log: Vec::new(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &R {
        &self.pos
    }

    fn push_ply(&mut self, side: Side, mv: R::Move) {
        match self.turns.last_mut() {
            Some((s, plies)) if *s == side => plies.push(mv),
            _ => self.turns.push((side, vec![mv])),
        }
    }

    /// The names of the side to move of `pos` and of the other side.
    fn sides(pos: &R) -> [&'static str; 2] {
        let side = pos.side_to_move();
        [R::side_name(side), R::side_name(side.opponent())]
    }

    /// Plies in notation grouped into turns, from `pos`.
    fn turn_texts(pos: &R, plies: &[R::Move]) -> Vec<String> {
        let mut pos = pos.clone();
        let mut out: Vec<String> = Vec::new();
        let mut last_side = None;
        for &mv in plies {
            let side = pos.side_to_move();
            let text = pos.format_move(mv);
            if last_side == Some(side) {
                out.last_mut().expect("a turn").push_str(&text);
            } else {
                out.push(text);
            }
            last_side = Some(side);
            pos.play(mv);
        }
        out
    }

    fn thought(&self, decision: &Decision<R::Move>) -> Thought {
        let view = |score| match ScoreView::from_score(score) {
            ScoreView::Centi(cp) => (Some(cp), None),
            ScoreView::MatePlies(p) => (None, Some(self.pos.mate_moves(p))),
        };
        let (score_cp, mate) = view(decision.score);
        let lines = decision
            .lines
            .iter()
            .map(|l| {
                let (score_cp, mate) = view(l.score);
                ThoughtLine {
                    score_cp,
                    mate,
                    pv: Self::turn_texts(&self.pos, &l.pv),
                }
            })
            .collect();
        let turn = Self::turn_texts(&self.pos, &decision.turn);
        Thought {
            bestmove: turn.first().cloned(),
            note: if decision.turn.is_empty() {
                None
            } else {
                self.pos.turn_note(&decision.turn)
            },
            score_cp,
            mate,
            sides: Self::sides(&self.pos),
            score_field: self.score_field(),
            depth: decision.depth,
            nodes: decision.nodes,
            time_ms: decision.time_ms,
            pv: Self::turn_texts(&self.pos, &decision.pv),
            lines,
            reason: decision.reason.clone(),
        }
    }

    /// Gives `answer` to the opening rule, plays the stones it places and logs it; returns
    /// it as text.
    fn apply_opening(&mut self, answer: Answer<R::Move>) -> Result<String, String> {
        let text = match &answer {
            Answer::Place(m) | Answer::Pick(m) => self.pos.format_move(*m),
            Answer::Choose(key) => (*key).to_string(),
            Answer::Offer(moves) => format!(
                "offer {}",
                moves
                    .iter()
                    .map(|&m| self.pos.format_move(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        let opening = self.opening.as_mut().ok_or("no opening rule")?;
        let moves = opening.answer(&self.pos, answer)?;
        for mv in moves {
            let mover = self.pos.side_to_move();
            self.pos.play_input(mv);
            self.push_ply(mover, mv);
        }
        self.opening_turns = self.turns.len();
        self.opening_log.push(text.clone());
        Ok(text)
    }

    fn decide(
        &mut self,
        budget: &Budget,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Decision<R::Move> {
        let pos = &self.pos;
        let mut progress = |p: &Progress<R::Move>| {
            let (cp, mate) = match ScoreView::from_score(p.score) {
                ScoreView::Centi(cp) => (Some(cp), None),
                ScoreView::MatePlies(n) => (None, Some(pos.mate_moves(n))),
            };
            info(&Info {
                depth: p.depth,
                score: score_words(cp, mate, Self::sides(pos)),
                nodes: p.nodes,
                nps: p.nodes * 1000 / p.time_ms.max(1),
                time_ms: p.time_ms,
                pv: Self::turn_texts(pos, &p.pv),
            });
        };
        R::think(&mut self.engine, pos, budget, stop, &mut progress)
    }
}

impl<R: Rules> Game for Session<R> {
    fn name(&self) -> &'static str {
        self.pos.game_name()
    }

    fn move_help(&self) -> String {
        self.pos.move_help()
    }

    fn side_to_move(&self) -> Side {
        self.pos.side_to_move()
    }

    fn score_field(&self) -> &'static str {
        if self.pos.score_in_centipawns() {
            "score_cp"
        } else {
            "score"
        }
    }

    fn side_name(&self, side: Side) -> &'static str {
        R::side_name(side)
    }

    fn ending(&self) -> Option<Ending> {
        self.pos.ending()
    }

    fn board(&self) -> BoardView {
        let last = self.turns.last().map_or(&[][..], |(_, t)| &t[..]);
        self.pos.board(last)
    }

    fn legal_moves(&self) -> Vec<String> {
        self.pos.legal_texts()
    }

    fn play_text(&mut self, text: &str) -> Result<String, String> {
        if let Some(end) = self.pos.ending() {
            return Err(format!("the game is over ({})", end.reason));
        }
        // Every message starts with the whole input, 'like this':.
        let mut plies = self
            .pos
            .parse_turn(text)
            .map_err(|e| crate::setup::quoted(text.trim(), &e))?;
        // Check every ply on a copy first, so a bad second stone leaves the game unchanged.
        let side = self.pos.side_to_move();
        let mut trial = self.pos.clone();
        let mut moves = Vec::new();
        let mut keep = plies.len();
        for (i, &mv) in plies.iter().enumerate() {
            if i > 0 {
                if trial.ending().is_some() {
                    // The turn's first stone already won: the rest is not played.
                    keep = i;
                    break;
                }
                if trial.side_to_move() != side {
                    return Err(format!(
                        "'{}': too many stones: {} places {} this turn",
                        text.trim(),
                        R::side_name(side),
                        i
                    ));
                }
                if trial.generate_moves(&mut moves).is_some() || !moves.contains(&mv) {
                    return Err(format!(
                        "'{}': {} is not a legal move here",
                        text.trim(),
                        trial.format_move(mv)
                    ));
                }
            }
            trial.play_input(mv);
        }
        plies.truncate(keep);
        let mut texts = Self::turn_texts(&self.pos, &plies);
        if let Some(note) = self.pos.turn_note(&plies) {
            texts.push(format!(" ({note})"));
        }
        for mv in plies {
            let mover = self.pos.side_to_move();
            self.pos.play_input(mv);
            self.push_ply(mover, mv);
        }
        Ok(texts.concat())
    }

    fn tune_positions(&self) -> Vec<String> {
        if self.start.tune_text().is_none() {
            return Vec::new();
        }
        let mut pos = self.start.clone();
        let mut out = Vec::new();
        for (_, plies) in &self.turns {
            for &mv in plies {
                pos.play_input(mv);
                out.extend(pos.tune_text());
            }
        }
        out
    }

    fn turn_sides(&self) -> Vec<Side> {
        self.turns.iter().map(|(s, _)| *s).collect()
    }

    fn undo_turn(&mut self) -> Option<Side> {
        // The opening's stones and choices stay: a take-back stops at normal play.
        if self.opening_ask().is_some() || self.turns.len() <= self.opening_turns {
            return None;
        }
        let (side, plies) = self.turns.pop()?;
        for &mv in plies.iter().rev() {
            self.pos.undo(mv);
        }
        Some(side)
    }

    fn think(
        &mut self,
        budget: &Budget,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Thought {
        if self.pos.ending().is_some() {
            return self.thought(&Decision {
                turn: Vec::new(),
                score: 0,
                depth: 0,
                nodes: 0,
                time_ms: 0,
                pv: Vec::new(),
                lines: Vec::new(),
                reason: None,
            });
        }
        let decision = self.decide(budget, stop, info);
        self.thought(&decision)
    }

    fn engine_turn(
        &mut self,
        budget: &Budget,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&Info),
    ) -> Thought {
        if self.pos.ending().is_some() {
            return self.think(budget, stop, info);
        }
        let decision = self.decide(budget, stop, info);
        let thought = self.thought(&decision);
        for &mv in &decision.turn {
            let mover = self.pos.side_to_move();
            self.pos.play(mv);
            self.push_ply(mover, mv);
        }
        thought
    }

    fn start_tags(&self) -> Vec<(&'static str, String)> {
        self.start.start_tags()
    }

    fn turn_texts(&self) -> Vec<(Side, String)> {
        let mut pos = self.start.clone();
        self.turns
            .iter()
            .map(|(side, plies)| {
                let mut text = String::new();
                for &mv in plies {
                    text.push_str(&pos.format_move(mv));
                    pos.play(mv);
                }
                (*side, text)
            })
            .collect()
    }

    fn turn_notations(&self) -> Vec<Vec<(&'static str, String)>> {
        let mut pos = self.start.clone();
        self.turns
            .iter()
            .map(|(_, plies)| {
                let names = pos.turn_notations(plies);
                for &mv in plies {
                    pos.play(mv);
                }
                names
            })
            .collect()
    }

    fn protocol_turns(&self, notation: &str) -> Option<Vec<(Side, String)>> {
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.turns.len());
        for (side, plies) in &self.turns {
            let mut text = String::new();
            for &mv in plies {
                text.push_str(&pos.protocol_move(mv, notation)?);
                pos.play(mv);
            }
            out.push((*side, text));
        }
        Some(out)
    }

    fn foul(&self, text: &str) -> Option<String> {
        if self.pos.ending().is_some() {
            return None;
        }
        let turn = self.pos.parse_turn(text).ok()?;
        self.pos
            .foul(&turn)
            .map(|why| crate::setup::quoted(text.trim(), &why))
    }

    fn restart(&mut self) {
        self.pos = self.start.clone();
        self.turns.clear();
        self.opening = self
            .opening
            .as_ref()
            .and_then(|o| self.start.opening_rule(o.name()));
        self.opening_turns = 0;
        self.opening_log.clear();
    }

    fn board_at(&self, turns: usize) -> BoardView {
        let mut pos = self.start.clone();
        let shown = &self.turns[..turns.min(self.turns.len())];
        for (_, plies) in shown {
            for &mv in plies {
                pos.play(mv);
            }
        }
        let last = shown.last().map_or(&[][..], |(_, t)| &t[..]);
        pos.board(last)
    }

    fn review(&mut self, budget: &Budget, stop: &AtomicBool) -> Vec<ReviewTurn> {
        // The evaluation of every position, from the first side's view, with its best turn.
        let mut pos = self.start.clone();
        /// A position's evaluation from the first side's view and the engine's turn there.
        struct Eval<M> {
            cp: Option<i32>,
            mate: Option<i32>,
            best: Vec<M>,
        }
        let mut evals: Vec<Eval<R::Move>> = Vec::new();
        for i in 0..=self.turns.len() {
            if i > 0 {
                for &mv in &self.turns[i - 1].1 {
                    pos.play(mv);
                }
            }
            if pos.ending().is_some() || stop.load(std::sync::atomic::Ordering::Relaxed) {
                evals.push(Eval {
                    cp: None,
                    mate: None,
                    best: Vec::new(),
                });
                continue;
            }
            let d = R::think(&mut self.engine, &pos, budget, stop, &mut |_| {});
            let sign = if pos.side_to_move() == Side::First {
                1
            } else {
                -1
            };
            let (cp, mate) = match ScoreView::from_score(d.score) {
                ScoreView::Centi(cp) => (Some(cp * sign), None),
                ScoreView::MatePlies(p) => (None, Some(pos.mate_moves(p) * sign)),
            };
            evals.push(Eval {
                cp,
                mate,
                best: d.turn,
            });
        }
        let outcome = self.pos.ending().map(|e| e.outcome);
        let mut pos = self.start.clone();
        let mut out = Vec::with_capacity(self.turns.len());
        for (i, (side, plies)) in self.turns.iter().enumerate() {
            let before = &evals[i];
            let after = &evals[i + 1];
            let (cp, mate) = match (after.cp, after.mate, outcome) {
                // The last turn ended the game: its evaluation is the result.
                (None, None, Some(game_core::Outcome::Win(w))) if i + 1 == self.turns.len() => {
                    (None, Some(if w == Side::First { 1 } else { -1 }))
                }
                (None, None, _) => (Some(0), None),
                (cp, mate, _) => (cp, mate),
            };
            let best = if before.best.is_empty() || before.best == *plies {
                None
            } else {
                Some(Self::turn_texts(&pos, &before.best).concat())
            };
            let value = |cp: Option<i32>, mate: Option<i32>| {
                mate.map_or(cp.unwrap_or(0), |m| m.signum() * REVIEW_MATE)
            };
            let sign = if *side == Side::First { 1 } else { -1 };
            let lost = sign * (value(before.cp, before.mate) - value(cp, mate));
            out.push(ReviewTurn {
                side: *side,
                played: Self::turn_texts(&pos, plies).concat(),
                score_cp: cp,
                mate,
                lost: lost.max(0),
                best,
            });
            for &mv in plies {
                pos.play(mv);
            }
        }
        out
    }

    fn new_engine(&mut self, config: &EngineConfig) {
        self.engine = R::new_engine(config);
    }

    fn opening_rules(&self) -> Vec<(&'static str, &'static str)> {
        self.start.opening_rules()
    }

    fn set_opening(&mut self, name: &str) -> Result<(), String> {
        let offered = self.start.opening_rules();
        let names = || {
            offered
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        };
        if !self.turns.is_empty() || self.opening.is_some() {
            return Err("an opening rule is chosen before the first move".to_string());
        }
        let known = offered
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name.trim()));
        match self.pos.opening_rule(name) {
            Some(rule) => {
                self.opening = Some(rule);
                Ok(())
            }
            // A choice of no rule (gomoku's `free`).
            None if known => Ok(()),
            None if offered.is_empty() => {
                Err(format!("{} has no opening rules", self.pos.game_name()))
            }
            // The name may be another rule set's (renju's `rif` in freestyle gomoku).
            None => Err(format!(
                "'{}' is not an opening rule of this {} game: it offers {}",
                name.trim(),
                self.pos.game_name(),
                names()
            )),
        }
    }

    fn opening_name(&self) -> Option<&'static str> {
        self.opening.as_ref().map(|o| o.name())
    }

    fn opening_ask(&self) -> Option<AskView> {
        let opening = self.opening.as_ref()?;
        let ask = opening.ask(&self.pos)?;
        let texts = |moves: &[R::Move]| -> Vec<String> {
            moves.iter().map(|&m| self.pos.format_move(m)).collect()
        };
        let mut view = AskView {
            rule: opening.name(),
            role: ask.role(),
            kind: "place",
            allowed: Vec::new(),
            options: Vec::new(),
            count: 0,
            offered: Vec::new(),
            prompt: opening.prompt(&self.pos),
        };
        match ask {
            Ask::Place { allowed, .. } => view.allowed = texts(&allowed),
            Ask::Choose { options, .. } => {
                view.kind = "choose";
                view.options = options;
            }
            Ask::Offer { count, .. } => {
                view.kind = "offer";
                view.count = count;
            }
            Ask::Pick { offered, .. } => {
                view.kind = "pick";
                view.offered = texts(&offered);
            }
        }
        Some(view)
    }

    fn opening_answer(&mut self, text: &str) -> Result<String, String> {
        let Some(opening) = self.opening.as_ref() else {
            return Err("no opening step is asked".to_string());
        };
        let Some(ask) = opening.ask(&self.pos) else {
            return Err("the opening is over: play a move".to_string());
        };
        let quoted = |e: &str| crate::setup::quoted(text.trim(), e);
        let one = |pos: &R, word: &str| -> Result<R::Move, String> {
            match pos.parse_turn(word)?.as_slice() {
                [mv] => Ok(*mv),
                _ => Err("expected one point".to_string()),
            }
        };
        let answer = match &ask {
            Ask::Place { .. } => Answer::Place(one(&self.pos, text).map_err(|e| quoted(&e))?),
            Ask::Pick { .. } => Answer::Pick(one(&self.pos, text).map_err(|e| quoted(&e))?),
            Ask::Choose { options, .. } => {
                let word = text.trim().to_ascii_lowercase();
                let choice = options.iter().find(|c| c.key == word).ok_or_else(|| {
                    quoted(&format!(
                        "expected {}",
                        options
                            .iter()
                            .map(|c| format!("'{}'", c.key))
                            .collect::<Vec<_>>()
                            .join(" or ")
                    ))
                })?;
                Answer::Choose(choice.key)
            }
            Ask::Offer { .. } => {
                let moves = text
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .map(|w| one(&self.pos, w).map_err(|e| quoted(&format!("{w}: {e}"))))
                    .collect::<Result<Vec<_>, _>>()?;
                Answer::Offer(moves)
            }
        };
        self.apply_opening(answer).map_err(|e| quoted(&e))
    }

    fn opening_engine(&mut self, budget: &Budget, stop: &AtomicBool) -> String {
        let Some(opening) = self.opening.as_mut() else {
            return String::new();
        };
        if opening.ask(&self.pos).is_none() {
            return String::new();
        }
        let answer = opening.engine_answer(&self.pos, &mut self.engine, budget, stop);
        // The engine's own answer is always one the rule takes.
        self.apply_opening(answer).unwrap_or_default()
    }

    fn swapped(&self) -> bool {
        self.opening.as_ref().is_some_and(|o| o.swapped())
    }

    fn flag_fall(&self, side: Side) -> game_core::Outcome {
        self.pos.flag_fall(side)
    }

    fn record_with(
        &self,
        players: [&str; 2],
        ending: Option<&Ending>,
        event: &str,
        extra: &[(&str, String)],
        times: &[Option<std::time::Duration>],
    ) -> String {
        let mut text = String::new();
        let mut tag = |k: &str, v: &str| {
            text.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        };
        tag("Game", self.pos.record_game());
        tag("Event", event);
        tag("Date", &today());
        tag(R::side_name(Side::First), players[0]);
        tag(R::side_name(Side::Second), players[1]);
        tag("Result", ending.map_or("*", Ending::result_tag));
        if let Some(end) = ending {
            tag("Termination", &end.reason);
        }
        for (k, v) in self.start.start_tags() {
            tag(k, &v);
        }
        if let Some(opening) = &self.opening {
            tag("Opening", opening.name());
            if !self.opening_log.is_empty() {
                tag("OpeningSteps", &self.opening_log.join("; "));
            }
        }
        for (k, v) in extra {
            tag(k, v);
        }
        text.push('\n');
        let turns: Vec<Vec<R::Move>> = self.turns.iter().map(|(_, t)| t.clone()).collect();
        let texts = R::record_turns(&self.start, &turns);
        // Number full rounds from the first side's turn, like PGN.
        let mut line = String::new();
        let mut body = String::new();
        let mut number = 1;
        for (i, t) in texts.iter().enumerate() {
            let side = self.turns[i].0;
            let piece = if side == Side::First {
                format!("{number}. {t}")
            } else if i == 0 {
                format!("{number}... {t}")
            } else {
                t.clone()
            };
            if side == Side::Second {
                number += 1;
            }
            let piece = match times.get(i).copied().flatten() {
                Some(t) => format!("{piece} {{[%emt {}]}}", crate::clock::emt_text(t)),
                None => piece,
            };
            if line.len() + piece.len() + 1 > 78 {
                body.push_str(line.trim_end());
                body.push('\n');
                line.clear();
            }
            line.push_str(&piece);
            line.push(' ');
        }
        if let Some(comment) = R::record_comment(&self.start, &turns) {
            for word in format!("{{{comment}}}").split(' ') {
                if line.len() + word.len() + 1 > 78 {
                    body.push_str(line.trim_end());
                    body.push('\n');
                    line.clear();
                }
                line.push_str(word);
                line.push(' ');
            }
        }
        line.push_str(ending.map_or("*", Ending::result_tag));
        body.push_str(&line);
        body.push('\n');
        text.push_str(&body);
        text
    }
}

/// Today's date as `YYYY.MM.DD` (UTC), for record headers (civil-from-days, H. Hinnant).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_shape() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }

    #[test]
    fn scores_name_the_side_they_favour() {
        let sides = ["Red", "Black"];
        assert_eq!(score_words(Some(35), None, sides), "Red +0.35");
        assert_eq!(score_words(Some(-206), None, sides), "Black +2.06");
        assert_eq!(score_words(None, Some(3), sides), "Red wins in 3");
        assert_eq!(score_words(None, Some(-2), sides), "Black wins in 2");
    }
}
