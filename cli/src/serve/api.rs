//! The HTTP API and the page's files: the routes, the games' store, and errors as JSON with a
//! reason (4xx), never a panic. Every refusal changes nothing.
//!
//! - `GET /` the page; `GET /app.js`, `GET /style.css` its script and style.
//! - `GET /api/catalog` the registered games: name, summary, sides, rules.
//! - `GET /api/limits` what this server allows ([`Limits`]) and uses now: `games` (the most
//!   open at once) and `games_open`, `idle_s` (a game without a change for this long is
//!   dropped), `searches` (engine searches at once; more wait their turn) and
//!   `searches_running`, `engine_table_mib` (one game's table), `engine_tables` (the most
//!   games holding one at once) and `engine_tables_held`, `movetime_ms_max`, `body_bytes_max`.
//! - `POST /api/games` a new game (body: [`NewGame`]) → 201 with its state plus the creator's
//!   secrets: `seat_keys` (each side's key, first side first: the creator holds every seat)
//!   and `invite` (when both sides are people: the key that hands the second side's seat to
//!   a friend, once; else `null`). 503 with a reason and `Retry-After` when the server's game
//!   limit is reached (no game is dropped to make room).
//! - `GET /api/games/{id}` the state; `GET /api/games/{id}/events` server-sent events
//!   (`state`, `info`, and `dropped` with `{reason}` when the server drops an idle game,
//!   after which the stream ends). Reads need no key: anyone with the id watches.
//! - `POST /api/games/{id}/claim` (body `{"invite": KEY}`) claims the invitation's seat once
//!   → `{side, side_name, key}`; the creator's key to that seat stops working. 403 for a key
//!   that is not the invitation, 409 when the game has none or it was used.
//! - `POST /api/games/{id}/move` (body `{"move": "h8"}`), `/hint` and `/stop` with the side to
//!   move's key; `/undo` with the key of a side whose turn it takes back (or who resigned);
//!   `/resign` with a person's seat key (that side resigns; an engine seat's key resigns for
//!   the person against it). The key goes in the header `Authorization: Bearer KEY`; without
//!   the right one the answer is 403 with a reason naming the seat it needs.
//! - `GET /api/games/{id}/record` the record, as `qi play`'s `save` writes it.
//! - `GET /api/games/{id}/board?turn=N` the board after `N` turns (reviewing a game);
//!   `POST /api/games/{id}/review` with either seat's key: every turn's evaluation, what it
//!   lost and the better move, and the worst turns ([`Room::review`]).
//!
//! Errors are `{"error": reason}`: 400 a bad value or header, 403 not this key's to do, 404 no
//! such game or path, 405 wrong method, 409 not now (the engine thinks, the game is over),
//! 413 a body over 256 KiB, 415/422 a body that is not the JSON expected, 503 the game limit.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream, StreamExt};
use game_core::text::escape_controls;
use game_frame::{
    EngineConfig, GameClock, GameSpec, Level, LevelError, LevelPick, MAX_DEPTH_LIMIT, Setup,
    TimeControl, quoted,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tokio::sync::broadcast::error::RecvError;

use super::room::{Invite, Refusal, Room, RoomConfig, SMALL_HASH_MIB, Seat, Tables};
use super::seats::{self, Key};
use crate::registry::{self, GameArg};

/// The longest time per move a game may ask for.
pub const MAX_MOVETIME: Duration = Duration::from_secs(60);
/// Time per move when a new game names none.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// Transposition table of a game's engine from its first search on, in MiB.
pub const GAME_HASH_MIB: usize = 16;
/// The largest request body accepted (a long record fits).
const MAX_BODY: usize = 256 * 1024;

/// What the server allows: `qi serve`'s options, shown by `GET /api/limits` and on the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most games open at once (`--games`); a new game beyond it is refused (503).
    pub games: usize,
    /// A game without a change (move, undo, search) for this long is dropped (`--idle`).
    pub idle: Duration,
    /// Engine searches running at once, for all games together (`--searches`).
    pub searches: usize,
    /// Memory for the engines' transposition tables, in MiB (`--engine-memory`): at most
    /// this many MiB / [`GAME_HASH_MIB`] games hold a full table at once; the others search
    /// with a 1 MiB one.
    pub engine_memory_mib: usize,
}

/// The server's shared state: the games by id, the pool that bounds concurrent searches, the
/// engine tables' budget and the limits.
#[derive(Clone)]
pub struct Server {
    games: Arc<Mutex<HashMap<String, Arc<Room>>>>,
    pool: Arc<Semaphore>,
    tables: Arc<Tables>,
    limits: Limits,
}

impl Server {
    /// A server within `limits` (a zero count is taken as one).
    #[must_use]
    pub fn new(limits: Limits) -> Self {
        let searches = limits.searches.max(1);
        Server {
            games: Arc::new(Mutex::new(HashMap::new())),
            pool: Arc::new(Semaphore::new(searches)),
            tables: Arc::new(Tables::new(
                GAME_HASH_MIB,
                limits.engine_memory_mib / GAME_HASH_MIB,
            )),
            limits: Limits {
                games: limits.games.max(1),
                searches,
                ..limits
            },
        }
    }

    /// Looks after the games until the runtime ends: every tenth of a second ends the games
    /// whose clock ran out; once a second gives back the full engine table of every game
    /// that is over, and drops the games idle for the limit (their pages get a `dropped`
    /// event first).
    pub async fn tend(self) {
        let mut tick = tokio::time::interval(Duration::from_millis(100));
        let mut ticks = 0u64;
        loop {
            tick.tick().await;
            ticks += 1;
            let rooms: Vec<Arc<Room>> = {
                let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
                games.values().cloned().collect()
            };
            // A game clock that ran out ends its game within a tenth of a second.
            for room in &rooms {
                room.check_flag();
            }
            if ticks % 10 != 0 {
                continue;
            }
            let rooms: Vec<Arc<Room>> = {
                let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
                games.values().cloned().collect()
            };
            for room in &rooms {
                room.free_table_if_over();
            }
            let reason = format!(
                "this game was dropped after {} without a change (the server's limit, qi serve \
                 --idle): start a new one",
                span(self.limits.idle)
            );
            let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
            games.retain(|_, room| {
                let keep = !room.expired();
                if !keep {
                    room.close(&reason);
                }
                keep
            });
        }
    }

    fn room(&self, id: &str) -> Result<Arc<Room>, ApiError> {
        let games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        games.get(id).cloned().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                format!(
                    "{}: start a new game (games end when the server stops)",
                    quoted(id, "no game with this id")
                ),
            )
        })
    }

    /// Stores `room`, or refuses when the game limit is reached: 503 with the time until the
    /// next idle game is dropped (`Retry-After`), when one will be.
    fn insert(&self, room: Arc<Room>) -> Result<(), ApiError> {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if games.len() >= self.limits.games {
            let next = games.values().filter_map(|r| r.expires_in()).min();
            let when = match next {
                Some(d) => format!(
                    "the next idle game is dropped in about {} s (after {} without a change)",
                    d.as_secs() + 1,
                    span(self.limits.idle)
                ),
                None => "every open game is playing now".into(),
            };
            let mut e = ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "this server keeps at most {} open games (qi serve --games) and all are \
                     open: {when}; try again then",
                    self.limits.games
                ),
            );
            e.retry_after = Some(next.map_or(60, |d| d.as_secs() + 1));
            return Err(e);
        }
        games.insert(room.id.clone(), room);
        Ok(())
    }
}

/// A duration for people: `30 min`, `90 s`, `2 h`.
fn span(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 && s % 3600 == 0 {
        format!("{} h", s / 3600)
    } else if s >= 60 && s % 60 == 0 {
        format!("{} min", s / 60)
    } else {
        format!("{} s", d.as_secs_f64())
    }
}

/// A new game id: 16 hexadecimal digits from the operating system's random source (ids are
/// not secrets, since anyone may watch, but neither are they guessed in order).
fn new_id() -> Result<String, ApiError> {
    let key = Key::new().map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e))?;
    Ok(key.text()[..16].to_string())
}

/// A refused request: its status and the reason, sent as `{"error": reason}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
    /// Seconds to wait before trying again (a `Retry-After` header), for a 503.
    retry_after: Option<u64>,
}

impl ApiError {
    /// A refusal with `reason` in the web's words: the command line's option names
    /// (`--moves:`) become the API's field names, control characters are escaped and a
    /// reason is cut at 300 characters (it may quote a huge input).
    fn new(status: StatusCode, reason: String) -> Self {
        let mut reason = escape_controls(&reason).into_owned();
        for field in ["moves", "size", "rule", "fen", "black", "white", "to-move"] {
            let web = field.replace('-', "_");
            reason = reason
                .replace(&format!("--{field}:"), &format!("{web}:"))
                .replace(&format!("--{field}"), &format!("\"{web}\""));
        }
        reason = reason.replace("--black/--white:", "black/white:");
        if reason.chars().count() > 300 {
            reason = reason.chars().take(300).collect::<String>() + "…";
        }
        ApiError {
            status,
            reason,
            retry_after: None,
        }
    }

    fn bad(reason: String) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, reason)
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Conflict(m) => ApiError::new(StatusCode::CONFLICT, m),
            Refusal::Bad(m) => ApiError::bad(m),
            Refusal::Forbidden(m) => ApiError::new(StatusCode::FORBIDDEN, m),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        ApiError::new(
            r.status(),
            format!(
                "the request body is not what was expected: {}",
                r.body_text()
            ),
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut res = (self.status, Json(json!({"error": self.reason}))).into_response();
        if let Some(s) = self.retry_after {
            res.headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(s));
        }
        res
    }
}

/// The body of `POST /api/games`. Every field is optional but `game` (or `record`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// A registered game's name (`gomoku`, `renju`, `connect6`, `xiangqi`, `connect4`).
    pub game: Option<String>,
    /// A rule set of the game (gomoku: `freestyle`, `standard`, `renju`).
    pub rule: Option<String>,
    /// Board size.
    pub size: Option<usize>,
    /// A start position in FEN (xiangqi).
    pub fen: Option<String>,
    /// Moves from the start, in the game's notation.
    pub moves: Option<String>,
    /// The first side's setup stones.
    pub black: Option<String>,
    /// The second side's setup stones.
    pub white: Option<String>,
    /// The side to move of a stone setup.
    pub to_move: Option<String>,
    /// A whole game record (`qi play`'s `save`, `qi match --records`) to go on from.
    pub record: Option<String>,
    /// Who plays each side: `human` or `engine` (default: a person plays the side to move,
    /// the engine the other).
    pub players: Option<[String; 2]>,
    /// The engine's time per move in milliseconds (default 1000, at most 60000).
    pub movetime_ms: Option<u64>,
    /// The engine's depth limit (1 to [`game_frame::MAX_DEPTH_LIMIT`]; default none: the time
    /// decides).
    pub depth: Option<u32>,
    /// A game clock for both sides, `BASE+INCREMENT` like `5m+3s` or `10+0.1` (seconds);
    /// default none. The engine then plays to its clock, and a side whose clock runs out
    /// loses. A `record` played on the same clock (its `[TimeControl]` tag) goes on with
    /// the times its `%emt` comments left.
    pub clock: Option<String>,
    /// The engine's strength level, 1 (weakest) to 8 (the full engine, the default).
    pub level: Option<Value>,
    /// The opening rule (`swap2` for gomoku, `taraguchi-10` or `rif` for renju; see
    /// `GET /api/games`); default none, and for renju Black's first stone on the centre.
    pub opening: Option<String>,
}

/// The routes over `server`.
pub fn router(server: Server) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/api/catalog", get(catalog))
        .route("/api/limits", get(limits))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/claim", post(claim))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/board", get(board_at))
        .route("/api/games/{id}/review", post(review))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY))
        .with_state(server)
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such page: the board is at /, the API under /api/".into(),
    )
}

/// 405: says which method the path takes (every path of the API takes exactly one).
async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    let path = uri.path();
    let posts = path == "/api/games"
        || ["claim", "move", "undo", "resign", "stop", "hint", "review"]
            .iter()
            .any(|action| path.ends_with(&format!("/{action}")));
    let takes = if posts { "POST" } else { "GET" };
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} {path}: this path takes {takes} only (reads are GET, changes POST)"),
    )
}

async fn page() -> Html<&'static str> {
    Html(include_str!("page/index.html"))
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("page/app.js"),
    )
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("page/style.css"),
    )
}

/// The opening rules a game offers under each of its rules (`""` for a game without rules):
/// `{rule: [{name, help}]}`, empty lists left out.
fn openings_of(spec: &dyn GameSpec) -> Value {
    let rules: Vec<Option<&str>> = if spec.rules().is_empty() {
        vec![None]
    } else {
        spec.rules().iter().map(|(n, _)| Some(*n)).collect()
    };
    let mut out = serde_json::Map::new();
    for rule in rules {
        let setup = Setup {
            rule: rule.map(str::to_string),
            ..Setup::default()
        };
        let Ok(game) = spec.build(&setup, &EngineConfig::small()) else {
            continue;
        };
        let offered = game.opening_rules();
        if !offered.is_empty() {
            out.insert(
                rule.unwrap_or("").to_string(),
                json!(
                    offered
                        .iter()
                        .map(|(n, h)| json!({"name": n, "help": h}))
                        .collect::<Vec<_>>()
                ),
            );
        }
    }
    Value::Object(out)
}

async fn catalog() -> Json<Value> {
    let games: Vec<Value> = registry::GAMES
        .iter()
        .map(|g| {
            json!({
                "name": g.name(),
                "summary": g.summary(),
                "sides": g.side_names(),
                "rules": g.rules().iter().map(|(n, h)| json!({"name": n, "help": h})).collect::<Vec<_>>(),
                "stone_setups": g.stone_setups(),
                "openings": openings_of(*g),
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

async fn limits(State(server): State<Server>) -> Json<Value> {
    let open = server
        .games
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .len();
    let l = &server.limits;
    Json(json!({
        "games": l.games,
        "games_open": open,
        "idle_s": l.idle.as_secs_f64(),
        "searches": l.searches,
        "searches_running": l.searches.saturating_sub(server.pool.available_permits()),
        "engine_table_mib": server.tables.hash_mib,
        "engine_tables": server.tables.max,
        "engine_tables_held": server.tables.held(),
        "movetime_ms_max": MAX_MOVETIME.as_millis() as u64,
        "body_bytes_max": MAX_BODY,
    }))
}

/// Builds the game a [`NewGame`] asks for, with a small engine table (grown at the engine's
/// first search), and its creator's keys: one for each seat, and the invitation to the
/// second seat when both are people's.
fn build(req: &NewGame, server: &Server) -> Result<Created, ApiError> {
    // Every game starts with a small table: most never search (person against person), and
    // one that does grows it at its first search (see `Room`), within the server's budget.
    let config = EngineConfig {
        hash_mib: SMALL_HASH_MIB,
        threads: 1,
    };
    let setup = Setup {
        rule: req.rule.clone(),
        size: req.size,
        fen: req.fen.clone(),
        moves: req.moves.clone(),
        black: req.black.clone(),
        white: req.white.clone(),
        to_move: req.to_move.clone(),
        no_capture_plies: None,
    };
    let spec = match req.game.as_deref() {
        Some(name) => Some(registry::find(name.trim()).ok_or_else(|| {
            ApiError::bad(format!(
                "{}: expected {}",
                quoted(name, "unknown game"),
                registry::names()
            ))
        })?),
        None => None,
    };
    let mut game = match (&req.record, spec) {
        (Some(text), _) => {
            crate::record::load(text, "the record", spec.map(GameArg), &setup, &config)
                .map_err(|e| ApiError::bad(e.to_string()))?
        }
        (None, Some(spec)) => spec
            .build(&setup, &config)
            .map_err(|e| ApiError::bad(crate::CliError::from(e).to_string()))?,
        (None, None) => {
            return Err(ApiError::bad(format!(
                "a new game needs \"game\" ({}) or \"record\"",
                registry::names()
            )));
        }
    };
    let spec = registry::find(game.name())
        .or_else(|| {
            registry::GAMES
                .iter()
                .copied()
                .find(|g| g.family() == game.name())
        })
        .or(spec)
        .ok_or_else(|| ApiError::bad(format!("{} is not served here", game.name())))?;
    match (req.opening.as_deref().map(str::trim), &req.record) {
        (Some(name), None) if !name.is_empty() => {
            game.set_opening(name).map_err(ApiError::bad)?;
        }
        (Some(name), Some(_)) if !name.is_empty() => {
            return Err(ApiError::bad(
                "an opening rule is for a new game: a record goes on from its moves".to_string(),
            ));
        }
        // Renju starts with Black's stone on the centre point (RIF rules, article 2).
        _ if req.record.is_none()
            && game.turn_sides().is_empty()
            && game.opening_rules().iter().any(|(n, _)| *n == "centre") =>
        {
            game.set_opening("centre").map_err(ApiError::bad)?;
        }
        _ => {}
    }
    let seats = match &req.players {
        Some([a, b]) => [
            Seat::parse(a).map_err(ApiError::bad)?,
            Seat::parse(b).map_err(ApiError::bad)?,
        ],
        None => {
            let mut s = [Seat::Engine; 2];
            s[game.side_to_move().index()] = Seat::Human;
            s
        }
    };
    let movetime = match req.movetime_ms {
        None => DEFAULT_MOVETIME,
        Some(ms) if (1..=MAX_MOVETIME.as_millis() as u64).contains(&ms) => {
            Duration::from_millis(ms)
        }
        Some(ms) => {
            return Err(ApiError::bad(format!(
                "movetime_ms {ms} is out of range: 1 to {}",
                MAX_MOVETIME.as_millis()
            )));
        }
    };
    if let Some(d) = req.depth
        && !(1..=MAX_DEPTH_LIMIT).contains(&d)
    {
        return Err(ApiError::bad(format!(
            "depth {d} is out of range: 1 to {MAX_DEPTH_LIMIT}"
        )));
    }
    let clock = match req.clock.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(text) => Some(
            text.parse::<TimeControl>()
                .map_err(|e| ApiError::bad(e.to_string()))?,
        ),
    };
    if clock.is_some() && req.movetime_ms.is_some() {
        return Err(ApiError::bad(
            "give the engine a clock or a time per move (movetime_ms), not both".to_string(),
        ));
    }
    let level = match &req.level {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .ok_or_else(|| LevelError(v.to_string()))
                .and_then(Level::new)
                .map_err(|e| ApiError::bad(format!("level: {e}")))?,
        ),
    };
    let level = level.and_then(LevelPick::fresh);
    let unavailable = |e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, e);
    let keys = [
        Key::new().map_err(unavailable)?,
        Key::new().map_err(unavailable)?,
    ];
    let invite = if seats == [Seat::Human; 2] {
        Some(Key::new().map_err(unavailable)?)
    } else {
        None
    };
    let clock = match &req.record {
        Some(text) => {
            clock.and_then(|tc| crate::record::resumed_clock(text, game.as_ref(), Some(tc)))
        }
        None => clock.map(GameClock::new),
    };
    let ended = req
        .record
        .as_deref()
        .and_then(|text| crate::record::recorded_ending(text, game.as_ref()));
    let room = Room::new(
        new_id()?,
        spec,
        game,
        RoomConfig {
            seats,
            movetime,
            depth: req.depth,
            keys: keys.clone(),
            invite: invite.clone().map_or(Invite::None, Invite::Open),
            tables: Arc::clone(&server.tables),
            idle_limit: server.limits.idle,
            clock,
            level,
            ended,
        },
    );
    Ok(Created { room, keys, invite })
}

/// A new game and its creator's secrets.
struct Created {
    room: Arc<Room>,
    keys: [Key; 2],
    invite: Option<Key>,
}

async fn create(
    State(server): State<Server>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(req) = body?;
    let Created { room, keys, invite } = build(&req, &server)?;
    server.insert(Arc::clone(&room))?;
    room.schedule(&server.pool);
    let mut answer = room.state();
    answer["seat_keys"] = json!(keys.each_ref().map(Key::text));
    answer["invite"] = json!(invite.as_ref().map(Key::text));
    Ok((StatusCode::CREATED, Json(answer)))
}

/// The body of `POST /api/games/{id}/claim`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// The invitation's key, from the invitation link (`/?game=ID&invite=KEY`).
    pub invite: String,
}

async fn claim(
    State(server): State<Server>,
    Path(id): Path<String>,
    body: Result<Json<ClaimRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let Json(req) = body?;
    let (side, key) = room.claim(req.invite.trim())?;
    let name = room.state()["sides"][side.index()].clone();
    Ok(Json(
        json!({"side": side.index(), "side_name": name, "key": key.text()}),
    ))
}

/// The key a request presents (see [`seats::presented`]).
fn key_of(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    seats::presented(headers).map_err(ApiError::bad)
}

async fn state(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    Ok(Json(server.room(&id)?.state()))
}

/// The body of `POST /api/games/{id}/move`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move (or connect6 turn, or its first stone) in the game's notation.
    #[serde(rename = "move")]
    pub text: String,
}

async fn play(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    let Json(req) = body?;
    room.play(&req.text, key.as_deref())?;
    room.schedule(&server.pool);
    // The state once the engine's reply has started (`thinking`): the event stream already
    // says so, and an answer taken before it would bring the page an older state at the same
    // version (Move now greyed out for the whole reply).
    Ok(Json(room.state()))
}

async fn undo(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    // Refused before the engine is stopped: a refusal changes nothing.
    room.may_undo(key.as_deref())?;
    if !room.hinting() {
        room.stop_and_wait().await?;
    }
    room.undo(key.as_deref())?;
    // Back at the engine's turn (its first move taken back, or engine against engine): the
    // state once its search has started, as after a move.
    room.schedule(&server.pool);
    Ok(Json(room.state()))
}

async fn resign(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    room.may_resign(key.as_deref())?;
    room.stop_and_wait().await?;
    Ok(Json(room.resign(key.as_deref())?))
}

async fn stop(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    Ok(Json(json!({ "stopped": room.stop_for(key.as_deref())? })))
}

async fn hint(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    Ok(Json(room.hint(&server.pool, key.as_deref()).await?))
}

/// `GET /api/games/{id}/board?turn=N`: the board after `N` turns (a review's earlier
/// position; clamped to the game's length).
#[derive(Debug, Deserialize)]
struct TurnQuery {
    turn: usize,
}

async fn board_at(
    State(server): State<Server>,
    Path(id): Path<String>,
    query: Result<axum::extract::Query<TurnQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let axum::extract::Query(q) = query.map_err(|e| {
        ApiError::bad(format!(
            "{e}: expected ?turn=N, a whole number of turns from the start"
        ))
    })?;
    Ok(Json(
        json!({"turn": q.turn, "board": room.board_at(q.turn)}),
    ))
}

async fn review(
    State(server): State<Server>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let key = key_of(&headers)?;
    Ok(Json(room.review(&server.pool, key.as_deref()).await?))
}

async fn record(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let room = server.room(&id)?;
    let file = format!("qi-{}-{}.txt", room.spec.name(), &room.id[..8]);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{file}\""),
            ),
        ],
        room.record(),
    )
        .into_response())
}

/// Follows a page's subscription: counts it as a watcher while it lasts.
struct Watch(Arc<Room>);

impl Drop for Watch {
    fn drop(&mut self) {
        self.0.unwatch();
    }
}

async fn events(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let room = server.room(&id)?;
    let rx = room.subscribe();
    room.watch();
    let first = SseEvent::default()
        .event("state")
        .data(room.state().to_string());
    // A page that follows an engine-only game keeps it going.
    room.schedule(&server.pool);
    let watch = Watch(room);
    let rest = stream::unfold((rx, watch, false), |(mut rx, watch, ended)| async move {
        if ended {
            return None;
        }
        let (event, ended) = match rx.recv().await {
            Ok(ev) => (
                SseEvent::default().event(ev.kind).data(ev.data),
                ev.kind == "dropped",
            ),
            // Events were missed: the whole state brings the page up to date.
            Err(RecvError::Lagged(_)) => (
                SseEvent::default()
                    .event("state")
                    .data(watch.0.state().to_string()),
                false,
            ),
            Err(RecvError::Closed) => return None,
        };
        Some((Ok(event), (rx, watch, ended)))
    });
    let stream = stream::once(async move { Ok(first) }).chain(rest);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
