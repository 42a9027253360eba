//! The HTTP API and the page's files: the routes, the games' store, and errors as JSON with a
//! reason (4xx), never a panic.
//!
//! - `GET /` the page; `GET /app.js`, `GET /style.css` its script and style.
//! - `GET /api/catalog` the registered games: name, summary, sides, rules.
//! - `POST /api/games` a new game (body: [`NewGame`]) → its state.
//! - `GET /api/games/{id}` the state; `GET /api/games/{id}/events` server-sent events
//!   (`state` and `info`).
//! - `POST /api/games/{id}/move` (body `{"move": "h8"}`), `/undo`, `/resign`, `/stop`, `/hint`.
//! - `GET /api/games/{id}/record` the record, as `qi play`'s `save` writes it.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream, StreamExt};
use game_core::text::escape_controls;
use game_frame::{EngineConfig, Setup, quoted};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::Semaphore;
use tokio::sync::broadcast::error::RecvError;

use super::room::{Refusal, Room, Seat};
use crate::registry::{self, GameArg};

/// The most games kept at once; a new one then replaces the longest idle game that no page
/// follows and no search runs in.
pub const MAX_GAMES: usize = 64;
/// The longest time per move a game may ask for.
pub const MAX_MOVETIME: Duration = Duration::from_secs(60);
/// Time per move when a new game names none.
pub const DEFAULT_MOVETIME: Duration = Duration::from_secs(1);
/// Transposition table of each game's engine, in MiB (64 games: 1 GiB at most).
pub const GAME_HASH_MIB: usize = 16;
/// The largest request body accepted (a long record fits).
const MAX_BODY: usize = 256 * 1024;

/// The server's shared state: the games by id and the pool that bounds concurrent searches.
#[derive(Clone)]
pub struct Server {
    games: Arc<Mutex<HashMap<String, Arc<Room>>>>,
    pool: Arc<Semaphore>,
    ids: std::hash::RandomState,
    counter: Arc<std::sync::atomic::AtomicU64>,
}

impl Server {
    /// A server running at most `searches` engine searches at once (more wait their turn).
    #[must_use]
    pub fn new(searches: usize) -> Self {
        Server {
            games: Arc::new(Mutex::new(HashMap::new())),
            pool: Arc::new(Semaphore::new(searches.max(1))),
            ids: std::hash::RandomState::new(),
            counter: Arc::new(std::sync::atomic::AtomicU64::new(0)),
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

    fn new_id(&self) -> String {
        use std::hash::BuildHasher;
        let n = self
            .counter
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        format!("{:016x}", self.ids.hash_one(n))
    }

    /// Stores `room`, dropping the longest idle free game when full.
    fn insert(&self, room: Arc<Room>) -> Result<(), ApiError> {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .map(|(id, r)| (id.clone(), r.idle()))
                .filter(|(_, (_, busy))| !busy)
                .max_by_key(|(_, (idle, _))| *idle)
                .map(|(id, _)| id);
            match oldest {
                Some(id) => {
                    games.remove(&id);
                }
                None => {
                    return Err(ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        format!("{MAX_GAMES} games are in play: try again later"),
                    ));
                }
            }
        }
        games.insert(room.id.clone(), room);
        Ok(())
    }
}

/// A refused request: its status and the reason, sent as `{"error": reason}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    reason: String,
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
        ApiError { status, reason }
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
        (self.status, Json(json!({"error": self.reason}))).into_response()
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
    /// The engine's depth limit (1 to 64; default none: the time decides).
    pub depth: Option<u32>,
}

/// The routes over `server`.
pub fn router(server: Server) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/api/catalog", get(catalog))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/stop", post(stop))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/record", get(record))
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

async fn wrong_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "wrong method for this path: reads are GET, changes are POST (see cli/src/serve/api.rs)"
            .into(),
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
            })
        })
        .collect();
    Json(json!({ "games": games }))
}

/// Builds the game a [`NewGame`] asks for.
fn build(req: &NewGame, server: &Server) -> Result<Arc<Room>, ApiError> {
    let config = EngineConfig {
        hash_mib: GAME_HASH_MIB,
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
    let game = match (&req.record, spec) {
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
        && !(1..=64).contains(&d)
    {
        return Err(ApiError::bad(format!("depth {d} is out of range: 1 to 64")));
    }
    Ok(Room::new(
        server.new_id(),
        spec,
        game,
        seats,
        movetime,
        req.depth,
    ))
}

async fn create(
    State(server): State<Server>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Json(req) = body?;
    let room = build(&req, &server)?;
    server.insert(Arc::clone(&room))?;
    room.schedule(&server.pool);
    Ok((StatusCode::CREATED, Json(room.state())))
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
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    let Json(req) = body?;
    let state = room.play(&req.text)?;
    room.schedule(&server.pool);
    Ok(Json(state))
}

async fn undo(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    if !room.hinting() {
        room.stop_and_wait().await?;
    }
    let state = room.undo()?;
    // Back at the engine's turn (its first move taken back, or engine against engine).
    room.schedule(&server.pool);
    Ok(Json(state))
}

async fn resign(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    room.stop_and_wait().await?;
    Ok(Json(room.resign()?))
}

async fn stop(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    Ok(Json(json!({ "stopped": room.stop() })))
}

async fn hint(
    State(server): State<Server>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let room = server.room(&id)?;
    Ok(Json(room.hint(&server.pool).await?))
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
    let rest = stream::unfold((rx, watch), |(mut rx, watch)| async move {
        let event = match rx.recv().await {
            Ok(ev) => SseEvent::default().event(ev.kind).data(ev.data),
            // Events were missed: the whole state brings the page up to date.
            Err(RecvError::Lagged(_)) => SseEvent::default()
                .event("state")
                .data(watch.0.state().to_string()),
            Err(RecvError::Closed) => return None,
        };
        Some((Ok(event), (rx, watch)))
    });
    let stream = stream::once(async move { Ok(first) }).chain(rest);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}
