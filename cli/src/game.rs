//! The game-agnostic frame: what each game supplies ([`Rules`]), a game in progress with its
//! engine ([`Session`]), and the object-safe view the commands drive ([`Game`]).
//!
//! A *ply* is one [`Position::play`]; a *turn* is the plies one side plays in a row (one stone
//! in gomoku, one move in xiangqi, one or two stones in connect6). Everything a person or a
//! script sees is in turns: a connect6 turn is written as its stones joined, `j9l11`.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use game_core::search::{Limits, Report, Searcher};
use game_core::{Evaluate, Outcome, Position, Score, ScoreView, Side};

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

/// How a finished game ended: the outcome and the reason in words ("five in a row").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why, in a few words.
    pub reason: String,
}

impl Ending {
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
}

/// Display settings for boards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    /// Unicode stones and Chinese pieces; false: ASCII (X O, FEN letters).
    pub unicode: bool,
    /// Emit ANSI colour codes (the output stream strips them for `NO_COLOR` and non-terminals).
    pub color: bool,
    /// Draw the board from the second side's view (xiangqi: Black at the bottom); the stone
    /// games' boards are the same from both sides and ignore it.
    pub flipped: bool,
}

/// ANSI helpers: wrap `text` in a colour when `on`.
pub(crate) fn paint(on: bool, code: &str, text: &str) -> String {
    if on {
        format!("\x1b[{code}m{text}\x1b[0m")
    } else {
        text.to_string()
    }
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

    /// The board drawn for a terminal: coordinates on all sides, `last` (the last turn's
    /// plies) marked.
    fn render(&self, last: &[Self::Move], style: &Style) -> String;

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

    /// Other notations of a turn for people, shown after a move is played (xiangqi: WXF and
    /// Chinese). Default none.
    fn turn_note(&self, _turn: &[Self::Move]) -> Option<String> {
        None
    }

    /// A comment to append to the record's movetext (xiangqi: the moves in WXF).
    fn record_comment(_start: &Self, _turns: &[Vec<Self::Move>]) -> Option<String> {
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
/// when the variation is too short.
pub fn search_turn<P: Position, E: Evaluate<P>>(
    searcher: &mut Searcher<P, E>,
    position: &P,
    budget: &Budget,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Progress<P::Move>),
) -> Decision<P::Move> {
    let limits = budget.limits();
    let result = searcher.search(position, &limits, stop, |r: &Report<P::Move>| {
        progress(&Progress {
            depth: r.depth,
            score: r.score,
            nodes: r.nodes,
            time_ms: r.time_ms,
            pv: r.pv.clone(),
        });
    });
    let mut decision = Decision {
        turn: Vec::new(),
        score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        time_ms: result.time_ms,
        pv: result.pv.clone(),
    };
    let Some(first) = result.best_move else {
        return decision;
    };
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
        mv = match result.pv.get(next) {
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
}

impl Thought {
    /// The score in words, naming the side it favours: `Red +0.35`, `White wins in 3`.
    #[must_use]
    pub fn score_text(&self) -> String {
        score_words(self.score_cp, self.mate, self.sides)
    }

    /// The JSON object of `analyze --json`: `bestmove`, the score under
    /// [`Thought::score_field`] (side to move's view, `null` for a forced result), `mate`,
    /// `depth`, `nodes`, `time_ms`, `pv`.
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
        serde_json::Value::Object(v)
    }
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
pub trait Game {
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
    /// The board for a terminal.
    fn render(&self, style: &Style) -> String;
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
    /// The game record: tags (players, result, start position) and the moves.
    fn record(&self, players: [&str; 2], ending: Option<&Ending>) -> String;
}

/// A game in progress: the start position, the current one, the turns played and an engine.
pub struct Session<R: Rules> {
    start: R,
    pos: R,
    turns: Vec<(Side, Vec<R::Move>)>,
    engine: R::Engine,
}

impl<R: Rules> Session<R> {
    /// A session from `start` with a fresh engine.
    pub fn new(start: R, config: &EngineConfig) -> Self {
        Session {
            pos: start.clone(),
            start,
            turns: Vec::new(),
            engine: R::new_engine(config),
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
        let (score_cp, mate) = match ScoreView::from_score(decision.score) {
            ScoreView::Centi(cp) => (Some(cp), None),
            ScoreView::MatePlies(p) => (None, Some(self.pos.mate_moves(p))),
        };
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
        }
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

    fn render(&self, style: &Style) -> String {
        let last = self.turns.last().map_or(&[][..], |(_, t)| &t[..]);
        self.pos.render(last, style)
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
            .map_err(|e| crate::games::quoted(text.trim(), &e))?;
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

    fn turn_sides(&self) -> Vec<Side> {
        self.turns.iter().map(|(s, _)| *s).collect()
    }

    fn undo_turn(&mut self) -> Option<Side> {
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

    fn record(&self, players: [&str; 2], ending: Option<&Ending>) -> String {
        let mut text = String::new();
        let mut tag = |k: &str, v: &str| {
            text.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
        };
        tag("Game", self.pos.record_game());
        tag("Event", "qi");
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

/// Today's date as `YYYY.MM.DD` (UTC), for record headers.
fn today() -> String {
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
    fn natural_sort() {
        let mut v = vec!["a10", "a2", "b1", "a1"];
        v.sort_by_cached_key(|t| natural_key(t));
        assert_eq!(v, ["a1", "a2", "a10", "b1"]);
    }

    #[test]
    fn date_shape() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
