//! A game served to browsers ([`Room`]): the game behind a lock, who sits at each side, the
//! engine's turns on the worker pool, and the state every page of the game draws, pushed to
//! them as events.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use game_core::Side;
use game_frame::{Budget, Ending, Game, GameSpec, Info};
use serde_json::{Map, Value, json};
use tokio::sync::{Semaphore, broadcast};

use super::view::game_state;

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person clicking on a page.
    Human,
    /// qi's engine.
    Engine,
}

impl Seat {
    /// Reads `human` (also `h`, `me`) or `engine` (also `e`, `qi`, `computer`, `cpu`), any
    /// case, as `qi play` does.
    ///
    /// # Errors
    /// A message naming the text and the accepted words.
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "human" | "h" | "me" => Ok(Seat::Human),
            "engine" | "e" | "qi" | "computer" | "cpu" => Ok(Seat::Engine),
            _ => Err(format!(
                "{}: a player is human or engine",
                game_frame::quoted(text, "not a player")
            )),
        }
    }

    /// `human` or `engine`, as the API writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Engine => "engine",
        }
    }

    /// The player's name in a record (`human` or `qi`, as `qi play` saves it).
    fn record_name(self) -> &'static str {
        match self {
            Seat::Human => "human",
            Seat::Engine => "qi",
        }
    }
}

/// A pushed event: its SSE name (`state`, `info`) and its JSON text.
#[derive(Clone, Debug)]
pub struct Event {
    /// `state` (the whole state, as `GET /api/games/{id}` gives it) or `info` (a search
    /// report: depth, score, nodes, nps, time_ms, pv).
    pub kind: &'static str,
    /// The JSON text.
    pub data: String,
}

/// A search in progress.
struct Search {
    stop: Arc<AtomicBool>,
    /// Set by undo and resign: a search still waiting for a worker plays no move.
    cancel: Arc<AtomicBool>,
    /// A hint (think without playing) rather than the engine's own turn.
    hint: bool,
}

/// What changes between requests, behind one lock held only briefly (never during a search).
struct Status {
    /// The game's part of the state ([`game_state`]), as of the last change.
    state: Map<String, Value>,
    /// The record as `GET /record` serves it, as of the last change.
    record: String,
    to_move: Side,
    over: bool,
    /// Bumped on every change of the game.
    version: u64,
    search: Option<Search>,
    resigned: Option<Ending>,
    /// The last request or event for this game (idle games are dropped first).
    touched: Instant,
}

/// Why a request about a game was refused: `Conflict` (409) for a request that is fine but
/// not now, `Bad` (400) for one that is wrong.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not now (the engine is thinking, the game is over, it is the engine's turn).
    Conflict(String),
    /// Wrong (an illegal move, a move that does not read).
    Bad(String),
}

/// One game served to browsers.
pub struct Room {
    /// The game's id in URLs.
    pub id: String,
    /// The registered game.
    pub spec: &'static dyn GameSpec,
    /// Who plays each side, first side first.
    pub seats: [Seat; 2],
    /// The engine's time per move.
    pub movetime: Duration,
    /// The engine's depth limit, if any.
    pub depth: Option<u32>,
    game: Mutex<Box<dyn Game>>,
    status: Mutex<Status>,
    events: broadcast::Sender<Event>,
    watchers: AtomicUsize,
}

/// Locks `m`, whatever a panicking holder left (the game's state is checked on every move).
fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Room {
    /// A room for `game` with its seats and engine budget.
    #[must_use]
    pub fn new(
        id: String,
        spec: &'static dyn GameSpec,
        game: Box<dyn Game>,
        seats: [Seat; 2],
        movetime: Duration,
        depth: Option<u32>,
    ) -> Arc<Room> {
        let (events, _) = broadcast::channel(64);
        let status = Status {
            state: Map::new(),
            record: String::new(),
            to_move: Side::First,
            over: false,
            version: 0,
            search: None,
            resigned: None,
            touched: Instant::now(),
        };
        let room = Arc::new(Room {
            id,
            spec,
            seats,
            movetime,
            depth,
            game: Mutex::new(game),
            status: Mutex::new(status),
            events,
            watchers: AtomicUsize::new(0),
        });
        {
            let game = lock(&room.game);
            let mut st = lock(&room.status);
            room.refresh(&mut st, game.as_ref());
        }
        room
    }

    /// Recomputes the stored state from the game (the caller holds the game).
    fn refresh(&self, st: &mut Status, game: &dyn Game) {
        st.state = game_state(game, st.resigned.as_ref());
        st.record = game.record(self.seats.map(Seat::record_name), st.resigned.as_ref());
        st.to_move = game.side_to_move();
        st.over = st.resigned.is_some() || game.ending().is_some();
        st.version += 1;
        st.touched = Instant::now();
    }

    /// The whole state as the API gives it: the game's part plus `id`, `version`, `seats`,
    /// `movetime_ms`, `depth`, `thinking` (an engine turn or a hint is being searched) and
    /// `watchers` (pages following the game).
    fn state_of(&self, st: &Status) -> Value {
        let mut m = st.state.clone();
        m.insert("id".into(), json!(self.id));
        m.insert("version".into(), json!(st.version));
        m.insert("seats".into(), json!(self.seats.map(Seat::name)));
        m.insert(
            "movetime_ms".into(),
            json!(self.movetime.as_millis() as u64),
        );
        m.insert("depth".into(), json!(self.depth));
        m.insert("thinking".into(), json!(st.search.is_some()));
        m.insert(
            "watchers".into(),
            json!(self.watchers.load(Ordering::Relaxed)),
        );
        Value::Object(m)
    }

    /// The state now.
    #[must_use]
    pub fn state(&self) -> Value {
        let mut st = lock(&self.status);
        st.touched = Instant::now();
        self.state_of(&st)
    }

    /// The game record now, in `qi play`'s `save` format.
    #[must_use]
    pub fn record(&self) -> String {
        lock(&self.status).record.clone()
    }

    /// How long since the last request or event, and whether the room is busy (a search or
    /// a page following it): busy rooms are never dropped.
    pub fn idle(&self) -> (Duration, bool) {
        let st = lock(&self.status);
        let busy = st.search.is_some() || self.watchers.load(Ordering::Relaxed) > 0;
        (st.touched.elapsed(), busy)
    }

    /// A new subscription to the room's events.
    pub fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn publish(&self, st: &Status) {
        // No receiver is fine: nobody is watching.
        let _ = self.events.send(Event {
            kind: "state",
            data: self.state_of(st).to_string(),
        });
    }

    /// A page starts following the room.
    pub fn watch(&self) {
        self.watchers.fetch_add(1, Ordering::Relaxed);
    }

    /// A page stopped following the room. When it was the last and only engines play here,
    /// the running search stops (the engine moves now) and no engine turn follows until
    /// someone asks; a person's game keeps its engine's full time (a reloaded page is back).
    pub fn unwatch(&self) {
        if self.watchers.fetch_sub(1, Ordering::Relaxed) == 1 && !self.seats.contains(&Seat::Human)
        {
            let st = lock(&self.status);
            if let Some(search) = &st.search {
                search.stop.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether the side to move may be played by a person now.
    fn check_human_turn(&self, st: &Status) -> Result<(), Refusal> {
        if st.search.is_some() {
            return Err(Refusal::Conflict(
                "the engine is thinking: wait for it, or press stop".into(),
            ));
        }
        if st.over {
            let why = st.state["ending"]["text"].as_str().unwrap_or("over");
            return Err(Refusal::Conflict(format!("the game is over ({why})")));
        }
        if self.seats[st.to_move.index()] == Seat::Engine {
            return Err(Refusal::Conflict(format!(
                "it is the engine's turn ({} is played by the engine)",
                st.state["sides"][st.to_move.index()]
                    .as_str()
                    .unwrap_or("this side")
            )));
        }
        Ok(())
    }

    /// Plays a person's move (or a connect6 turn's first stone) from text, as `qi play` reads
    /// it; returns the new state. The game is unchanged when it is refused.
    ///
    /// # Errors
    /// [`Refusal::Conflict`] when it is not a person's turn now, [`Refusal::Bad`] with the
    /// game's reason for a move that does not read or is illegal.
    pub fn play(&self, text: &str) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        st.touched = Instant::now();
        self.check_human_turn(&st)?;
        if let Some(meaning) = marked(&st.state["board"], text) {
            return Err(Refusal::Bad(format!(
                "{}: the point is marked ✕, and playing it loses the game: choose another",
                game_frame::quoted(text, &meaning)
            )));
        }
        // No search runs (checked above), so the game's lock is free or about to be.
        let mut game = lock(&self.game);
        game.play_text(text).map_err(Refusal::Bad)?;
        self.refresh(&mut st, game.as_ref());
        drop(game);
        self.publish(&st);
        Ok(self.state_of(&st))
    }

    /// Stops the running search, if any; returns whether one was running.
    pub fn stop(&self) -> bool {
        let st = lock(&self.status);
        match &st.search {
            Some(search) => {
                search.stop.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Stops the running search and waits (up to 10 s) until it has ended; a search still
    /// waiting for a worker ends without a move.
    pub async fn stop_and_wait(&self) -> Result<(), Refusal> {
        if let Some(search) = &lock(&self.status).search {
            search.cancel.store(true, Ordering::Relaxed);
        }
        let start = Instant::now();
        while self.stop() {
            if start.elapsed() > Duration::from_secs(10) {
                return Err(Refusal::Conflict(
                    "the engine did not stop in time: try again".into(),
                ));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        Ok(())
    }

    /// Takes back turns: a resignation first; otherwise the last turn, and then more while
    /// the engine would be to move and a person plays here, so that a person is to move
    /// again. Returns the new state.
    ///
    /// # Errors
    /// [`Refusal::Conflict`] when there is nothing to take back.
    pub fn undo(&self) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        st.touched = Instant::now();
        if st.search.is_some() {
            return Err(Refusal::Conflict(
                "the engine is thinking: press stop first".into(),
            ));
        }
        let mut game = lock(&self.game);
        if st.resigned.take().is_none() {
            if game.undo_turn().is_none() {
                return Err(Refusal::Conflict("there is no move to take back".into()));
            }
            let human = self.seats.contains(&Seat::Human);
            while human
                && self.seats[game.side_to_move().index()] == Seat::Engine
                && game.undo_turn().is_some()
            {}
        }
        self.refresh(&mut st, game.as_ref());
        drop(game);
        self.publish(&st);
        Ok(self.state_of(&st))
    }

    /// The side to move resigns when a person plays it; otherwise the one person playing
    /// here does. Returns the new state.
    ///
    /// # Errors
    /// [`Refusal::Conflict`] when the game is over, a search runs, or no person plays.
    pub fn resign(&self) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        st.touched = Instant::now();
        if st.search.is_some() {
            return Err(Refusal::Conflict(
                "the engine is thinking: press stop first".into(),
            ));
        }
        if st.over {
            return Err(Refusal::Conflict("the game is already over".into()));
        }
        let side = if self.seats[st.to_move.index()] == Seat::Human {
            st.to_move
        } else if let Some(i) = self.seats.iter().position(|&s| s == Seat::Human) {
            if i == 0 { Side::First } else { Side::Second }
        } else {
            return Err(Refusal::Conflict(
                "only engines play this game: nobody can resign".into(),
            ));
        };
        let game = lock(&self.game);
        st.resigned = Some(Ending::resignation(side, game.side_name(side)));
        self.refresh(&mut st, game.as_ref());
        drop(game);
        self.publish(&st);
        Ok(self.state_of(&st))
    }

    /// The engine's budget for a turn or a hint.
    fn budget(&self) -> Budget {
        Budget {
            depth: self.depth,
            time: Some(self.movetime),
            nodes: None,
            ..Default::default()
        }
    }

    /// Marks a search as running, or refuses; returns its stop and cancel flags.
    fn begin(&self, hint: bool) -> Result<(Arc<AtomicBool>, Arc<AtomicBool>), Refusal> {
        let mut st = lock(&self.status);
        st.touched = Instant::now();
        if st.search.is_some() {
            return Err(Refusal::Conflict("the engine is already thinking".into()));
        }
        if st.over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if !hint && self.seats[st.to_move.index()] != Seat::Engine {
            return Err(Refusal::Conflict("it is a person's turn".into()));
        }
        let stop = Arc::new(AtomicBool::new(false));
        let cancel = Arc::new(AtomicBool::new(false));
        st.search = Some(Search {
            stop: stop.clone(),
            cancel: cancel.clone(),
            hint,
        });
        self.publish(&st);
        Ok((stop, cancel))
    }

    /// Ends the running search and publishes the state.
    fn end(&self) {
        let mut st = lock(&self.status);
        st.search = None;
        st.touched = Instant::now();
        self.publish(&st);
    }

    /// The live line's reporter: each report becomes an `info` event.
    fn reporter(&self) -> impl FnMut(&Info) + '_ {
        move |info: &Info| {
            let data = json!({
                "depth": info.depth,
                "score": info.score,
                "nodes": info.nodes,
                "nps": info.nps,
                "time_ms": info.time_ms,
                "pv": info.pv,
            });
            let _ = self.events.send(Event {
                kind: "info",
                data: data.to_string(),
            });
        }
    }

    /// Starts the engine's turn when the engine is to move and nothing else runs: the search
    /// waits for a worker of `pool`, plays its move, and schedules the next engine turn
    /// (engine against engine) while a page follows the game.
    pub fn schedule(self: &Arc<Self>, pool: &Arc<Semaphore>) {
        {
            let st = lock(&self.status);
            if st.search.is_some() || st.over || self.seats[st.to_move.index()] != Seat::Engine {
                return;
            }
        }
        let Ok((stop, cancel)) = self.begin(false) else {
            return;
        };
        let room = Arc::clone(self);
        let pool = Arc::clone(pool);
        tokio::spawn(async move {
            let permit = worker_slot(&pool, &stop).await;
            if cancel.load(Ordering::Relaxed) {
                room.end();
                return;
            }
            let worker = Arc::clone(&room);
            let played = tokio::task::spawn_blocking(move || {
                let mut game = lock(&worker.game);
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let budget = worker.budget();
                let mut report = worker.reporter();
                game.engine_turn(&budget, &stop, &mut report);
                let mut st = lock(&worker.status);
                worker.refresh(&mut st, game.as_ref());
            })
            .await;
            drop(permit);
            room.end();
            if played.is_ok() && room.watchers.load(Ordering::Relaxed) > 0 {
                room.schedule(&pool);
            }
        });
    }

    /// Thinks for the side to move without playing (a hint) on a worker of `pool`; returns
    /// `bestmove`, `score` in words, `depth`, `pv`.
    ///
    /// # Errors
    /// [`Refusal::Conflict`] when a search runs or the game is over.
    pub async fn hint(self: &Arc<Self>, pool: &Arc<Semaphore>) -> Result<Value, Refusal> {
        let (stop, _) = self.begin(true)?;
        let permit = worker_slot(pool, &stop).await;
        let worker = Arc::clone(self);
        let thought = tokio::task::spawn_blocking(move || {
            let mut game = lock(&worker.game);
            let budget = worker.budget();
            let mut report = worker.reporter();
            game.think(&budget, &stop, &mut report)
        })
        .await;
        drop(permit);
        self.end();
        let thought = thought.map_err(|_| Refusal::Conflict("the hint's search failed".into()))?;
        Ok(json!({
            "bestmove": thought.bestmove,
            "score": thought.score_text(),
            "depth": thought.depth,
            "pv": thought.pv,
        }))
    }

    /// Whether the running search (if any) is a hint.
    #[must_use]
    pub fn hinting(&self) -> bool {
        lock(&self.status).search.as_ref().is_some_and(|s| s.hint)
    }
}

/// Waits for a worker of `pool`, or until `stop` is set: a stopped search (move now, undo,
/// resign) need not wait for another game's search, since it ends at once. `None` then.
async fn worker_slot(
    pool: &Arc<Semaphore>,
    stop: &AtomicBool,
) -> Option<tokio::sync::OwnedSemaphorePermit> {
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let wait = Arc::clone(pool).acquire_owned();
        match tokio::time::timeout(Duration::from_millis(10), wait).await {
            Ok(Ok(permit)) => return Some(permit),
            Ok(Err(_)) => return None,
            Err(_) => {}
        }
    }
}

/// When `text` names a point the board marks with a warning (renju: a point forbidden to
/// Black, which the rules let Black play and lose by), the mark's meaning: the page refuses
/// such a click rather than lose the game for a slip of the mouse.
fn marked(board: &Value, text: &str) -> Option<String> {
    let name = text.trim().to_ascii_lowercase();
    let labels = |key: &str| -> Vec<&str> {
        board[key]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    };
    let (files, rows) = (labels("file_labels"), labels("row_labels"));
    let hit = board["hints"].as_array()?.iter().any(|cell| {
        let f = cell[0].as_u64().and_then(|f| files.get(f as usize));
        let r = cell[1].as_u64().and_then(|r| rows.get(r as usize));
        matches!((f, r), (Some(f), Some(r)) if format!("{f}{r}") == name)
    });
    hit.then(|| {
        board["hint_meaning"]
            .as_str()
            .unwrap_or("marked")
            .to_string()
    })
}
