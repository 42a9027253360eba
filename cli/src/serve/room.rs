//! A game served to browsers ([`Room`]): the game behind a lock, who sits at each side and
//! the keys that act for them, the engine's turns on the worker pool, its transposition table
//! (grown at the first search, given back at the end), and the state every page of the game
//! draws, pushed to them as events.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use game_core::{Outcome, Side};
use game_frame::opening_rule::Role;
use game_frame::{
    Budget, Ending, EngineConfig, Game, GameClock, GameSpec, Info, LEVELS, LevelPick,
};
use serde_json::{Map, Value, json};
use tokio::sync::{Semaphore, broadcast};

use super::seats::Key;
use super::view::{board_json, game_state, opening_json};

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

/// Principal variations a hint shows.
pub const HINT_LINES: u32 = 3;

/// Time the server keeps in reserve on the engine's clock for its own work.
const CLOCK_OVERHEAD: Duration = Duration::from_millis(50);

/// A pushed event: its SSE name (`state`, `info`, `dropped`) and its JSON text.
#[derive(Clone, Debug)]
pub struct Event {
    /// `state` (the whole state, as `GET /api/games/{id}` gives it), `info` (a search
    /// report: depth, score, nodes, nps, time_ms, pv) or `dropped` (`{reason}`: the server
    /// dropped the game; the stream ends after it).
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
    /// The seat (by index: the first is the creator's first player) that acts now: the
    /// opening rule's asked player, else the holder of the side to move.
    actor: Side,
    /// Whether an opening rule's swap gave each seat the other side.
    swapped: bool,
    /// Whether an opening rule's step is asked now.
    in_opening: bool,
    /// The side that played each turn so far, in order.
    turns: Vec<Side>,
    over: bool,
    /// Bumped on every change of the game.
    version: u64,
    /// The server's clock at the last change of the game (a move, an undo, a resignation).
    changed_at: SystemTime,
    search: Option<Search>,
    resigned: Option<Ending>,
    /// The last change of the game: a move, an undo, a resignation, a search's start or end,
    /// a claimed invitation. Reads do not count: a game idle longer than the server's limit is
    /// dropped even while pages watch it (they are told beforehand).
    touched: Instant,
    /// Each side's key, first side first: whoever holds it acts for that side.
    keys: [Key; 2],
    /// The invitation to the second side's seat of a person-against-person game.
    invite: Invite,
    /// The game clock of a game played on one: the side to move's runs; it gains the
    /// increment after each turn.
    clock: Option<GameClock>,
}

/// The invitation of a game whose both sides a person plays: the creator holds both seats
/// until a friend claims the second one with it, once.
#[derive(Debug)]
pub enum Invite {
    /// One or no person plays: nothing to invite to.
    None,
    /// Not used yet: this key claims the second side's seat.
    Open(Key),
    /// Used: the second side's seat has a key of its own, held by the friend.
    Claimed,
}

/// The side an invitation claims: the creator plays the first side, the friend the second.
pub const INVITED: Side = Side::Second;

/// The server-wide budget of full-size engine tables: every game searches with a 1 MiB table
/// until its first engine search, which grows it to `hash_mib` while fewer than `max` games
/// hold one (beyond that the game searches with its small table); the game gives it back when
/// it ends or is dropped.
#[derive(Debug)]
pub struct Tables {
    /// A full table's size in MiB.
    pub hash_mib: usize,
    /// The most full tables at once.
    pub max: usize,
    held: AtomicUsize,
}

impl Tables {
    /// A budget of `max` tables of `hash_mib` MiB.
    #[must_use]
    pub fn new(hash_mib: usize, max: usize) -> Self {
        Tables {
            hash_mib,
            max,
            held: AtomicUsize::new(0),
        }
    }

    /// Full tables held now.
    #[must_use]
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Relaxed)
    }

    /// Takes one from the budget, or says there is none left.
    fn take(&self) -> bool {
        self.held
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < self.max).then_some(n + 1)
            })
            .is_ok()
    }

    fn give_back(&self) {
        self.held.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The table of a game that no engine has searched yet, in MiB.
pub const SMALL_HASH_MIB: usize = 1;

/// Why a request about a game was refused: `Conflict` (409) for a request that is fine but
/// not now, `Bad` (400) for one that is wrong, `Forbidden` (403) for one without the key of
/// the side it acts for.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not now (the engine is thinking, the game is over, it is the engine's turn).
    Conflict(String),
    /// Wrong (an illegal move, a move that does not read).
    Bad(String),
    /// Not this request's to make: no key, or another side's key (a watcher, the opponent).
    Forbidden(String),
}

/// How a [`Room`] is set up.
pub struct RoomConfig {
    /// Who plays each side, first side first.
    pub seats: [Seat; 2],
    /// The engine's time per move.
    pub movetime: Duration,
    /// The engine's depth limit, if any.
    pub depth: Option<u32>,
    /// Each side's key, first side first (the creator holds them all).
    pub keys: [Key; 2],
    /// The invitation to the second side's seat.
    pub invite: Invite,
    /// The server's budget of full engine tables.
    pub tables: Arc<Tables>,
    /// The server's idle limit: the game is dropped after this long without a change.
    pub idle_limit: Duration,
    /// The game clock at the start, if the game is played on one (the engine then plays to
    /// its clock).
    pub clock: Option<GameClock>,
    /// The engine's strength level below the full engine, with its seed.
    pub level: Option<LevelPick>,
    /// How a loaded game ended although its position goes on (a resignation, a flag fall,
    /// an agreed result: [`crate::record::recorded_ending`]).
    pub ended: Option<Ending>,
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
    /// The server's table budget.
    tables: Arc<Tables>,
    /// Whether the game's engine has a full table from `tables` (changed with the game locked).
    full_table: AtomicBool,
    /// The server's idle limit: the game is dropped after this long without a change.
    idle_limit: Duration,
    /// The engine's strength level below the full engine, with its seed.
    pub level: Option<LevelPick>,
}

impl Drop for Room {
    fn drop(&mut self) {
        if self.full_table.load(Ordering::Relaxed) {
            self.tables.give_back();
        }
    }
}

/// The seat (by index: 0 the player who began) that holds `side`, given whether an opening
/// rule's swap exchanged the sides.
fn seat_of(side: Side, swapped: bool) -> Side {
    if swapped { side.opponent() } else { side }
}

/// Locks `m`, whatever a panicking holder left (the game's state is checked on every move).
fn lock<T: ?Sized>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Room {
    /// A room for `game` (built with a [`SMALL_HASH_MIB`] table) as `config` says.
    #[must_use]
    pub fn new(
        id: String,
        spec: &'static dyn GameSpec,
        game: Box<dyn Game>,
        config: RoomConfig,
    ) -> Arc<Room> {
        let RoomConfig {
            seats,
            movetime,
            depth,
            keys,
            invite,
            tables,
            idle_limit,
            clock,
            level,
            ended,
        } = config;
        let (events, _) = broadcast::channel(64);
        let status = Status {
            state: Map::new(),
            record: String::new(),
            to_move: Side::First,
            actor: Side::First,
            swapped: false,
            in_opening: false,
            turns: Vec::new(),
            over: false,
            version: 0,
            changed_at: SystemTime::now(),
            search: None,
            resigned: ended,
            touched: Instant::now(),
            keys,
            invite,
            clock,
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
            tables,
            full_table: AtomicBool::new(false),
            idle_limit,
            level,
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
        let over = st.resigned.is_some() || game.ending().is_some();
        let turns = game.turn_sides().len();
        let ask = game.opening_ask();
        st.swapped = game.swapped();
        st.in_opening = ask.is_some();
        st.actor = match &ask {
            Some(a) if a.role == Role::First => Side::First,
            Some(_) => Side::Second,
            None => seat_of(game.side_to_move(), st.swapped),
        };
        if let Some(c) = st.clock.as_mut().filter(|_| ask.is_some()) {
            // The clocks start once the opening is over.
            c.pause(Instant::now());
        } else if let Some(c) = st.clock.as_mut() {
            let now = Instant::now();
            if turns < st.turns.len() {
                // Taken back: the clocks keep their readings, the turns their times.
                c.take_back(turns);
            } else if game.side_to_move() != st.to_move {
                c.press(turns.saturating_sub(1), now);
            }
            if over {
                c.pause(now);
            } else {
                c.start(game.side_to_move(), now);
            }
        }
        st.state = game_state(game, st.resigned.as_ref());
        st.state
            .insert("opening".into(), opening_json(game, ask.as_ref()));
        let players = [Side::First, Side::Second]
            .map(|side| self.seats[seat_of(side, st.swapped).index()].record_name());
        st.record = match &st.clock {
            Some(c) => game.record_with(
                players,
                st.resigned.as_ref().or(game.ending().as_ref()),
                "qi",
                &[("TimeControl", c.time_control().tag())],
                &c.turn_times(turns),
            ),
            None => game.record(players, st.resigned.as_ref()),
        };
        st.to_move = game.side_to_move();
        st.turns = game.turn_sides();
        st.over = st.resigned.is_some() || game.ending().is_some();
        st.version += 1;
        st.touched = Instant::now();
        st.changed_at = SystemTime::now();
    }

    /// The whole state as the API gives it: the game's part plus `id`, `version`, `seats`,
    /// `movetime_ms`, `depth`, `thinking` (an engine turn or a hint is being searched),
    /// `watchers` (pages following the game), `invitation` (`open`, `claimed`, or `null` when
    /// fewer than two people play), `drops_in_s` (whole seconds until the server drops the
    /// game unless it changes; a search running holds it), `changed_at_ms` (the server's
    /// clock at the last move, undo or resignation, in milliseconds since the Unix epoch) and
    /// `engine_table_mib` (the engine's transposition table now: 1 until its first search,
    /// then the server's size while the game goes on), `level` (the engine's strength, 1..8)
    /// and `clock` (`null`, or `control` like `5m+3s`, each side's `remaining_ms` now and the
    /// `running` side's index). No key is ever part of it.
    fn state_of(&self, st: &Status) -> Value {
        let mut m = st.state.clone();
        m.insert("id".into(), json!(self.id));
        m.insert("version".into(), json!(st.version));
        m.insert("seats".into(), json!(self.seats.map(Seat::name)));
        m.insert("actor".into(), json!(st.actor.index()));
        m.insert("swapped".into(), json!(st.swapped));
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
        let invitation = match st.invite {
            Invite::None => Value::Null,
            Invite::Open(_) => json!("open"),
            Invite::Claimed => json!("claimed"),
        };
        m.insert("invitation".into(), invitation);
        let left = self.idle_limit.saturating_sub(st.touched.elapsed());
        m.insert("drops_in_s".into(), json!(left.as_secs_f64().ceil() as u64));
        let at = st
            .changed_at
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap_or_default();
        m.insert("changed_at_ms".into(), json!(at.as_millis() as u64));
        let mib = if self.full_table.load(Ordering::Relaxed) {
            self.tables.hash_mib
        } else {
            SMALL_HASH_MIB
        };
        m.insert("engine_table_mib".into(), json!(mib));
        m.insert(
            "level".into(),
            json!(self.level.map_or(LEVELS, |p| p.level.get())),
        );
        let clock = st.clock.as_ref().map(|c| {
            let now = Instant::now();
            let remaining =
                [Side::First, Side::Second].map(|s| c.remaining(s, now).as_millis() as u64);
            json!({
                "control": c.time_control().to_string(),
                "remaining_ms": remaining,
                "running": c.running().map(Side::index),
            })
        });
        m.insert("clock".into(), json!(clock));
        Value::Object(m)
    }

    /// The state now.
    #[must_use]
    pub fn state(&self) -> Value {
        self.state_of(&lock(&self.status))
    }

    /// The side whose key `key` is, comparing it with both seats' keys in constant time.
    fn side_of(st: &Status, key: Option<&str>) -> Option<Side> {
        let key = key?;
        let first = st.keys[0].matches(key);
        let second = st.keys[1].matches(key);
        if first {
            Some(Side::First)
        } else if second {
            Some(Side::Second)
        } else {
            None
        }
    }

    /// A side's name in this game.
    fn side_name(st: &Status, side: Side) -> &str {
        st.state["sides"][side.index()]
            .as_str()
            .unwrap_or("this side")
    }

    /// Refuses `what` (for `need`'s seat) to a request presenting `key` (or none).
    fn not_yours(st: &Status, what: &str, need: &[Side], key: Option<&str>) -> Refusal {
        let names: Vec<&str> = need.iter().map(|&s| Self::side_name(st, s)).collect();
        let need = names.join(" or ");
        Refusal::Forbidden(match (key, Self::side_of(st, key)) {
            (None, _) => format!(
                "{what} needs the key of {need}'s seat and this request has none: a watch link \
                 is read-only (a player's page sends its seat's key)"
            ),
            (Some(_), None) => format!(
                "{what} needs the key of {need}'s seat; this key is no seat's in this game (the \
                 creator's key to the second seat stops working once a friend claims it)"
            ),
            (Some(_), Some(side)) => format!(
                "{what} needs the key of {need}'s seat; this key is {}'s",
                Self::side_name(st, side)
            ),
        })
    }

    /// Checks that `key` is the key of the side to move, for `what`.
    fn require_to_move(st: &Status, key: Option<&str>, what: &str) -> Result<(), Refusal> {
        let held = Self::side_of(st, key);
        if held == Some(st.actor) {
            Ok(())
        } else {
            Err(Self::not_yours(st, what, &[st.actor], key))
        }
    }

    /// Claims the invitation with `presented`: the second side's seat gets a new key, which
    /// is returned with the side; the creator's key to that seat stops working.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] for a key that is not this game's invitation,
    /// [`Refusal::Conflict`] when the game has no invitation or it was used already.
    pub fn claim(&self, presented: &str) -> Result<(Side, Key), Refusal> {
        let mut st = lock(&self.status);
        match &st.invite {
            Invite::None => Err(Refusal::Conflict(
                "this game has no invitation: fewer than two people play it (its link only \
                 watches)"
                    .into(),
            )),
            Invite::Claimed => Err(Refusal::Conflict(
                "this game's invitation was used already: its seat is taken (the link still \
                 watches the game)"
                    .into(),
            )),
            Invite::Open(invite) if !invite.matches(presented) => Err(Refusal::Forbidden(
                "not this game's invitation: check the link you were sent".into(),
            )),
            Invite::Open(_) => {
                let key = Key::new().map_err(Refusal::Conflict)?;
                st.keys[INVITED.index()] = key.clone();
                st.invite = Invite::Claimed;
                st.touched = Instant::now();
                st.version += 1;
                self.publish(&st);
                Ok((INVITED, key))
            }
        }
    }

    /// Whether the game has been idle (no change, no search) for the server's limit.
    #[must_use]
    pub fn expired(&self) -> bool {
        let st = lock(&self.status);
        st.search.is_none() && st.touched.elapsed() >= self.idle_limit
    }

    /// How long until the game expires unless it changes (zero while a search holds it).
    #[must_use]
    pub fn expires_in(&self) -> Option<Duration> {
        let st = lock(&self.status);
        st.search
            .is_none()
            .then(|| self.idle_limit.saturating_sub(st.touched.elapsed()))
    }

    /// Tells the pages that the game is dropped (the event streams end after it).
    pub fn close(&self, reason: &str) {
        let _ = self.events.send(Event {
            kind: "dropped",
            data: json!({ "reason": reason }).to_string(),
        });
    }

    /// Gives the full table back once the game is over (the engine keeps a small one, in
    /// case an undo brings the game back). Skips a game busy now; the next call frees it.
    pub fn free_table_if_over(&self) {
        if !self.full_table.load(Ordering::Relaxed) {
            return;
        }
        {
            let st = lock(&self.status);
            if !st.over || st.search.is_some() {
                return;
            }
        }
        let Ok(mut game) = self.game.try_lock() else {
            return;
        };
        let small = EngineConfig {
            hash_mib: SMALL_HASH_MIB,
            threads: 1,
        };
        game.new_engine(&small);
        self.full_table.store(false, Ordering::Relaxed);
        self.tables.give_back();
    }

    /// Before a search (the game locked): grows the engine's table to the full size at the
    /// first search, while the server's budget has one; otherwise the search uses the table
    /// the game has.
    fn grow_table(&self, game: &mut Box<dyn Game>) {
        if self.full_table.load(Ordering::Relaxed) || !self.tables.take() {
            return;
        }
        let full = EngineConfig {
            hash_mib: self.tables.hash_mib,
            threads: 1,
        };
        game.new_engine(&full);
        self.full_table.store(true, Ordering::Relaxed);
    }

    /// The game record now, in `qi play`'s `save` format.
    #[must_use]
    pub fn record(&self) -> String {
        lock(&self.status).record.clone()
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

    /// A page stopped following the room (the game goes on without it: an engine against
    /// engine game keeps playing).
    pub fn unwatch(&self) {
        self.watchers.fetch_sub(1, Ordering::Relaxed);
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
        if self.seats[st.actor.index()] == Seat::Engine {
            return Err(Refusal::Conflict(format!(
                "it is the engine's turn ({} is played by the engine)",
                Self::side_name(st, st.actor)
            )));
        }
        Ok(())
    }

    /// Plays a person's move (or a connect6 turn's first stone) from text, as `qi play` reads
    /// it, for the holder of the side to move's `key`; returns the new state. The game is
    /// unchanged when it is refused.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without the side to move's key, [`Refusal::Conflict`] when it is
    /// not a person's turn now, [`Refusal::Bad`] with the game's reason for a move that does
    /// not read or is illegal.
    pub fn play(&self, text: &str, key: Option<&str>) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        Self::require_to_move(&st, key, "a move")?;
        self.check_human_turn(&st)?;
        // No search runs (checked above), so the game's lock is free or about to be.
        let mut game = lock(&self.game);
        if let Some(why) = game.foul(text) {
            return Err(Refusal::Bad(why));
        }
        if self.flag_fall(&mut st, game.as_ref()) {
            return Err(Refusal::Conflict(
                "your time ran out before this move: the game is over".into(),
            ));
        }
        if st.in_opening {
            game.opening_answer(text).map_err(Refusal::Bad)?;
        } else {
            game.play_text(text).map_err(Refusal::Bad)?;
        }
        self.refresh(&mut st, game.as_ref());
        drop(game);
        self.publish(&st);
        Ok(self.state_of(&st))
    }

    /// Stops the running search (the side to move's: an engine turn or a hint) for the holder
    /// of that side's `key`; returns whether one was running.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without the side to move's key.
    pub fn stop_for(&self, key: Option<&str>) -> Result<bool, Refusal> {
        Self::require_to_move(&lock(&self.status), key, "stopping the engine")?;
        Ok(self.stop())
    }

    /// Stops the running search, if any; returns whether one was running.
    fn stop(&self) -> bool {
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

    /// The sides whose turns an undo would take back now: the resigning side; otherwise the
    /// last turn's, and then more while the engine would be to move and a person plays here.
    fn undo_sides(&self, st: &Status) -> Vec<Side> {
        if let Some(Ending {
            outcome: Outcome::Win(winner),
            ..
        }) = &st.resigned
        {
            return vec![winner.opponent()];
        }
        let mut turns = st.turns.clone();
        let human = self.seats.contains(&Seat::Human);
        let mut taken = Vec::new();
        while let Some(side) = turns.pop() {
            taken.push(side);
            if !(human && self.seats[seat_of(side, st.swapped).index()] == Seat::Engine) {
                break;
            }
        }
        taken
    }

    /// Checks that `key` may undo now: it is the key of a side whose turn the undo takes
    /// back (or who resigned).
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] otherwise, [`Refusal::Conflict`] when there is nothing to take
    /// back.
    pub fn may_undo(&self, key: Option<&str>) -> Result<(), Refusal> {
        self.check_undo(&lock(&self.status), key)
    }

    fn check_undo(&self, st: &Status, key: Option<&str>) -> Result<(), Refusal> {
        if st.clock.is_some()
            && st
                .resigned
                .as_ref()
                .is_some_and(|e| e.reason.ends_with("ran out of time"))
        {
            return Err(Refusal::Conflict(
                "the game was lost on time: it cannot be taken back".into(),
            ));
        }
        let held = Self::side_of(st, key);
        let taken = self.undo_sides(st);
        if held.is_none() {
            let need = if taken.is_empty() {
                &[Side::First, Side::Second][..]
            } else {
                &taken[..1]
            };
            return Err(Self::not_yours(st, "undo", need, key));
        }
        if taken.is_empty() {
            return Err(Refusal::Conflict("there is no move to take back".into()));
        }
        if !held.is_some_and(|h| taken.contains(&h)) {
            return Err(Self::not_yours(
                st,
                "taking back this turn",
                &taken[..1],
                key,
            ));
        }
        Ok(())
    }

    /// Takes back turns for the holder of `key`: a resignation first; otherwise the last
    /// turn, and then more while the engine would be to move and a person plays here, so
    /// that a person is to move again. Returns the new state.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] unless `key` is the key of a side whose turn is taken back (or
    /// who resigned); [`Refusal::Conflict`] when there is nothing to take back or a search
    /// runs.
    pub fn undo(&self, key: Option<&str>) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        self.check_undo(&st, key)?;
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

    /// Checks, before the engine is stopped for it, that `key` may resign now: it is a seat's
    /// key, a person plays here and the game is not over.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without a seat's key, [`Refusal::Conflict`] when the game is
    /// over or only engines play.
    pub fn may_resign(&self, key: Option<&str>) -> Result<(), Refusal> {
        let st = lock(&self.status);
        if Self::side_of(&st, key).is_none() {
            return Err(Self::not_yours(
                &st,
                "resigning",
                &[Side::First, Side::Second],
                key,
            ));
        }
        if st.over {
            return Err(Refusal::Conflict("the game is already over".into()));
        }
        if !self.seats.contains(&Seat::Human) {
            return Err(Refusal::Conflict(
                "only engines play this game: nobody can resign".into(),
            ));
        }
        Ok(())
    }

    /// The side of `key` resigns when a person plays it; the key of an engine's seat (its
    /// creator holds it) resigns for the person playing the other side. Returns the new
    /// state.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without a seat's key, [`Refusal::Conflict`] when the game is
    /// over, a search runs, or no person plays.
    pub fn resign(&self, key: Option<&str>) -> Result<Value, Refusal> {
        let mut st = lock(&self.status);
        let Some(held) = Self::side_of(&st, key) else {
            return Err(Self::not_yours(
                &st,
                "resigning",
                &[Side::First, Side::Second],
                key,
            ));
        };
        if st.search.is_some() {
            return Err(Refusal::Conflict(
                "the engine is thinking: press stop first".into(),
            ));
        }
        if st.over {
            return Err(Refusal::Conflict("the game is already over".into()));
        }
        // The side the seat holds now (a swap in the opening exchanged them).
        let side = if self.seats[held.index()] == Seat::Human {
            seat_of(held, st.swapped)
        } else if self.seats[held.opponent().index()] == Seat::Human {
            seat_of(held.opponent(), st.swapped)
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

    /// The engine's budget for a turn or a hint (of `hint`: three lines, full strength, on
    /// the asking side's clock): the time per move, or the side to move's clock.
    fn budget(&self, hint: bool) -> Budget {
        let st = lock(&self.status);
        let clock = st
            .clock
            .as_ref()
            .map(|c| c.engine_clock(st.to_move, Instant::now(), CLOCK_OVERHEAD));
        Budget {
            depth: self.depth,
            time: if clock.is_some() {
                None
            } else {
                Some(self.movetime)
            },
            nodes: None,
            clock,
            multipv: if hint { HINT_LINES } else { 1 },
            level: if hint { None } else { self.level },
        }
    }

    /// Ends the game on time when the running clock has run out: the side to move loses as
    /// its game's rules say, a search of it stops. Tried without waiting for a lock (a busy
    /// game is looked at again on the next tick); returns whether a flag fell.
    pub fn check_flag(&self) -> bool {
        {
            let st = lock(&self.status);
            let flagged = st.clock.as_ref().and_then(|c| c.flagged(Instant::now()));
            if st.over || flagged.is_none() {
                return false;
            }
            if let Some(search) = &st.search {
                search.stop.store(true, Ordering::Relaxed);
                search.cancel.store(true, Ordering::Relaxed);
            }
        }
        let Ok(game) = self.game.try_lock() else {
            return false;
        };
        let Ok(mut st) = self.status.try_lock() else {
            return false;
        };
        self.flag_fall(&mut st, game.as_ref())
    }

    /// Ends the game when the side to move's flag has fallen (the caller holds the game and
    /// the state); returns whether it did.
    fn flag_fall(&self, st: &mut Status, game: &dyn Game) -> bool {
        let Some(side) = st.clock.as_ref().and_then(|c| c.flagged(Instant::now())) else {
            return false;
        };
        if st.over {
            return false;
        }
        st.resigned = Some(Ending::time_forfeit(
            game.flag_fall(side),
            game.side_name(side),
        ));
        self.refresh(st, game);
        self.publish(st);
        true
    }

    /// Marks a search as running, or refuses (a hint needs the side to move's `key`);
    /// returns its stop and cancel flags.
    fn begin(
        &self,
        hint: bool,
        key: Option<&str>,
    ) -> Result<(Arc<AtomicBool>, Arc<AtomicBool>), Refusal> {
        let mut st = lock(&self.status);
        if hint {
            Self::require_to_move(&st, key, "a hint")?;
        }
        st.touched = Instant::now();
        if st.search.is_some() {
            return Err(Refusal::Conflict("the engine is already thinking".into()));
        }
        if st.over {
            return Err(Refusal::Conflict("the game is over".into()));
        }
        if !hint && self.seats[st.actor.index()] != Seat::Engine {
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
    /// (engine against engine, whether or not a page follows the game).
    pub fn schedule(self: &Arc<Self>, pool: &Arc<Semaphore>) {
        {
            let st = lock(&self.status);
            if st.search.is_some() || st.over || self.seats[st.actor.index()] != Seat::Engine {
                return;
            }
        }
        let Ok((stop, cancel)) = self.begin(false, None) else {
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
                worker.grow_table(&mut game);
                let budget = worker.budget(false);
                if game.opening_ask().is_some() {
                    // The opening rule's step (no clock runs yet).
                    game.opening_engine(&budget, &stop);
                    let mut st = lock(&worker.status);
                    worker.refresh(&mut st, game.as_ref());
                    return;
                }
                let mut report = worker.reporter();
                let side = game.side_to_move();
                let thought = game.engine_turn(&budget, &stop, &mut report);
                let mut st = lock(&worker.status);
                let late = st
                    .clock
                    .as_ref()
                    .is_some_and(|c| c.flagged(Instant::now()) == Some(side));
                if late {
                    // The move came after the flag fell: it does not count.
                    if thought.bestmove.is_some() {
                        game.undo_turn();
                    }
                    worker.flag_fall(&mut st, game.as_ref());
                    return;
                }
                worker.refresh(&mut st, game.as_ref());
            })
            .await;
            drop(permit);
            room.end();
            if played.is_ok() {
                room.schedule(&pool);
            }
        });
    }

    /// Thinks for the side to move without playing (a hint) on a worker of `pool`, for the
    /// holder of that side's `key`; returns `bestmove`, `score` in words, `depth`, `pv`, and
    /// `lines`: the best few ([`HINT_LINES`]), each with its `score` in words and `pv`.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without the side to move's key, [`Refusal::Conflict`] when a
    /// search runs or the game is over.
    pub async fn hint(
        self: &Arc<Self>,
        pool: &Arc<Semaphore>,
        key: Option<&str>,
    ) -> Result<Value, Refusal> {
        let (stop, _) = self.begin(true, key)?;
        let permit = worker_slot(pool, &stop).await;
        let worker = Arc::clone(self);
        let thought = tokio::task::spawn_blocking(move || {
            let mut game = lock(&worker.game);
            worker.grow_table(&mut game);
            let budget = worker.budget(true);
            let mut report = worker.reporter();
            game.think(&budget, &stop, &mut report)
        })
        .await;
        drop(permit);
        self.end();
        let thought = thought.map_err(|_| Refusal::Conflict("the hint's search failed".into()))?;
        let lines: Vec<Value> = thought
            .lines
            .iter()
            .map(|l| json!({"score": thought.line_score_text(l), "pv": l.pv}))
            .collect();
        Ok(json!({
            "bestmove": thought.bestmove,
            "score": thought.score_text(),
            "depth": thought.depth,
            "pv": thought.pv,
            "lines": lines,
        }))
    }

    /// The board after the first `turn` turns, as JSON ([`board_json`]), for a review.
    #[must_use]
    pub fn board_at(&self, turn: usize) -> Value {
        board_json(&lock(&self.game).board_at(turn))
    }

    /// Reviews the game on a worker of `pool` for the holder of either seat's `key`: the
    /// engine searches every position (a tenth of the engine's time per move each, at
    /// least 20 ms, at most a second) and gives `turns`, one per turn: `side`, `played`,
    /// `score` (the first side's view in words), `score_cp` and `mate` (the first side's
    /// view; `null` when the other is given), `lost` (what the turn cost its side) and `best`
    /// (the engine's turn there when it differs), and `worst`: the indices of the turns that
    /// lost the most (up to three, each losing at least half a unit against a better move
    /// the engine names), worst first.
    ///
    /// # Errors
    /// [`Refusal::Forbidden`] without a seat's key, [`Refusal::Conflict`] while a search runs.
    pub async fn review(
        self: &Arc<Self>,
        pool: &Arc<Semaphore>,
        key: Option<&str>,
    ) -> Result<Value, Refusal> {
        let stop = {
            let mut st = lock(&self.status);
            if Self::side_of(&st, key).is_none() {
                return Err(Self::not_yours(
                    &st,
                    "a review",
                    &[Side::First, Side::Second],
                    key,
                ));
            }
            if st.search.is_some() {
                return Err(Refusal::Conflict(
                    "the engine is thinking: review the game once it has moved".into(),
                ));
            }
            let stop = Arc::new(AtomicBool::new(false));
            st.search = Some(Search {
                stop: stop.clone(),
                cancel: Arc::new(AtomicBool::new(false)),
                hint: true,
            });
            st.touched = Instant::now();
            self.publish(&st);
            stop
        };
        let permit = worker_slot(pool, &stop).await;
        let worker = Arc::clone(self);
        let per_position =
            (self.movetime / 10).clamp(Duration::from_millis(20), Duration::from_secs(1));
        let reviewed = tokio::task::spawn_blocking(move || {
            let mut game = lock(&worker.game);
            worker.grow_table(&mut game);
            let budget = Budget {
                time: Some(per_position),
                depth: worker.depth,
                ..Budget::default()
            };
            let turns = game.review(&budget, &stop);
            let sides = [game.side_name(Side::First), game.side_name(Side::Second)];
            (turns, sides)
        })
        .await;
        drop(permit);
        self.end();
        let (turns, sides) =
            reviewed.map_err(|_| Refusal::Conflict("the review's search failed".into()))?;
        let worst = game_frame::worst_turns(&turns);
        let turns: Vec<Value> = turns
            .iter()
            .map(|t| {
                let score = t.score_text(sides);
                json!({
                    "side": t.side.index(),
                    "played": t.played,
                    "score": score,
                    "score_cp": t.score_cp,
                    "mate": t.mate,
                    "lost": t.lost,
                    "best": t.best,
                })
            })
            .collect();
        Ok(json!({"turns": turns, "worst": worst}))
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
