//! A load benchmark of `qi serve` (not a test): N person-against-engine gomoku games played at
//! once over loopback, each followed by M watchers on its event stream, for a fixed number of
//! the person's moves per game.
//!
//! ```sh
//! cargo build --release -p cli
//! cargo run --release -p cli --example serve_load -- --games 8 --watchers 4 --moves 15
//! ```
//!
//! It starts `qi serve --port 0 --searches S --games G` (the `qi` beside this example's
//! directory, or `--qi PATH`), or drives a server already running with `--url URL --pid PID`.
//! Each game's person is a thread that follows the game's own event stream and, on its turn,
//! plays a random legal move (with its seat's key); when a game ends it takes the last turns
//! back and goes on, and after `--moves` moves it resigns. Each watcher is a thread reading
//! the game's event stream. At the end it prints one row of a Markdown table:
//!
//! - moves/s: every move played (the person's and the engine's) per second of the run;
//! - accept p50/p99: a person's `POST /move` from sending to its 200;
//! - reply p50/p99: from sending a person's move to the engine's reply arriving on the
//!   person's stream: the engine's thinking (at most `--movetime-ms`, less when the move is
//!   forced) plus its wait for a free search (`--searches`);
//! - watchers p50/p99: for each engine move, the time from the server's change of the game
//!   (the state's `changed_at_ms`, same machine, same clock) until the last of the game's
//!   watchers has the state with that move;
//! - errors: requests not answered 2xx, streams that broke or outlived 10 minutes (an engine
//!   reply that never came), engine moves that a watcher missed, watchers whose last state is
//!   not the game's final one, games that did not play all their moves;
//! - peak memory: the server's `VmHWM` from `/proc/PID/status` (Linux).
//!
//! Every request loop is bounded (the moves per game, a timeout on every wait) and the
//! benchmark talks only to the loopback server it was given.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant, SystemTime};

use clap::Parser;
use serde_json::{Value, json};

/// The benchmark's options.
#[derive(Parser, Debug)]
struct Options {
    /// Games played at once (N).
    #[arg(long, default_value_t = 8)]
    games: usize,
    /// Watchers per game (M), each on the game's event stream.
    #[arg(long, default_value_t = 4)]
    watchers: usize,
    /// The person's moves per game.
    #[arg(long, default_value_t = 15)]
    moves: usize,
    /// The engine's time per move in milliseconds.
    #[arg(long, default_value_t = 100)]
    movetime_ms: u64,
    /// `--searches` of the server this benchmark starts.
    #[arg(long, default_value_t = 2)]
    searches: usize,
    /// `--games` of the server this benchmark starts (its game limit).
    #[arg(long, default_value_t = 64)]
    limit: usize,
    /// The `qi` binary to start (default: `qi` in the directory above this example's).
    #[arg(long)]
    qi: Option<PathBuf>,
    /// A running server's URL (`http://127.0.0.1:8080/`) instead of starting one.
    #[arg(long, requires = "pid")]
    url: Option<String>,
    /// The running server's process id, for its peak memory.
    #[arg(long)]
    pid: Option<u32>,
}

/// A server this benchmark started, stopped when dropped.
struct Started(Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// What every thread adds to.
#[derive(Default)]
struct Tally {
    /// Seconds from sending a person's move to its 200.
    accept: Vec<f64>,
    /// Seconds from sending a person's move to the engine's reply on the person's stream
    /// (the engine's thinking plus its wait for a free search).
    reply: Vec<f64>,
    /// (game, version) of an engine move → each watcher's delay in seconds.
    seen: HashMap<(usize, u64), Vec<f64>>,
    /// Requests not answered 2xx, replies that never came, streams that broke.
    errors: Vec<String>,
    /// Moves played, the person's and the engine's.
    moves: usize,
    /// Each watcher's last state version, by game.
    last: HashMap<usize, Vec<u64>>,
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_idle_connections(0)
        .max_idle_connections_per_host(0)
        .build()
        .into()
}

/// `POST` → (status, JSON body), or the transport's error.
fn post(agent: &ureq::Agent, url: &str, body: &Value, key: &str) -> Result<(u16, Value), String> {
    let mut res = agent
        .post(url)
        .header("Authorization", &format!("Bearer {key}"))
        .send_json(body)
        .map_err(|e| e.to_string())?;
    let status = res.status().as_u16();
    let text = res.body_mut().read_to_string().map_err(|e| e.to_string())?;
    Ok((
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    ))
}

/// Reads server-sent events from `reader`, calling `each(kind, data)` until it returns false
/// or the stream ends.
fn follow(reader: impl Read, mut each: impl FnMut(&str, &str) -> bool) -> Result<(), String> {
    let mut kind = String::new();
    for line in BufReader::new(reader).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(k) = line.strip_prefix("event: ") {
            kind = k.to_string();
        } else if let Some(data) = line.strip_prefix("data: ")
            && !each(&kind, data)
        {
            return Ok(());
        }
    }
    Ok(())
}

fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
        * 1000.0
}

/// Opens a game's event stream; reading it fails after 10 minutes (every wait is bounded).
fn stream(url: &str, id: &str) -> Result<impl Read + use<>, String> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(600)))
        .build()
        .into();
    let res = agent
        .get(&format!("{url}api/games/{id}/events"))
        .call()
        .map_err(|e| format!("events of {id}: {e}"))?;
    Ok(res.into_body().into_reader())
}

/// One watcher: records the delay of every engine move until the game is resigned.
fn watch(url: &str, game: usize, id: &str, ready: &Barrier, tally: &Mutex<Tally>) {
    let reader = stream(url, id);
    ready.wait();
    let reader = match reader {
        Ok(r) => r,
        Err(e) => {
            tally.lock().unwrap().errors.push(e);
            return;
        }
    };
    let mut moves = 0;
    let mut version = 0;
    let mut delays = Vec::new();
    let outcome = follow(reader, |kind, data| {
        if kind != "state" {
            return true;
        }
        let Ok(s) = serde_json::from_str::<Value>(data) else {
            return true;
        };
        let n = s["moves"].as_array().map_or(0, Vec::len);
        let v = s["version"].as_u64().unwrap_or(0);
        if n > moves && v > version && s["moves"][n - 1]["side"] == json!(1) {
            let delay = (now_ms() - s["changed_at_ms"].as_f64().unwrap_or(0.0)) / 1000.0;
            delays.push((v, delay));
        }
        moves = n;
        version = version.max(v);
        let resigned = s["ending"]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("resigned"));
        !resigned
    });
    let mut t = tally.lock().unwrap();
    if let Err(e) = outcome {
        t.errors.push(format!("watcher of {id}: {e}"));
    }
    for (v, d) in delays {
        t.seen.entry((game, v)).or_default().push(d);
    }
    t.last.entry(game).or_default().push(version);
}

/// One person: plays `moves` random legal moves against the engine, then resigns.
fn play(
    url: &str,
    id: &str,
    key: &str,
    moves: usize,
    seed: u64,
    start: &Barrier,
    tally: &Mutex<Tally>,
) {
    let agent = agent();
    let reader = stream(url, id);
    start.wait();
    let reader = match reader {
        Ok(r) => r,
        Err(e) => {
            tally.lock().unwrap().errors.push(e);
            return;
        }
    };
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut played = 0;
    let mut acted = 0; // the last version acted on
    let mut resigning = false;
    let mut errors = Vec::new();
    let mut accept = Vec::new();
    let mut reply = Vec::new();
    let mut waiting: Option<Instant> = None;
    let mut engine_moves = 0;
    let mut last_len = 0;
    let action = |path: &str, body: &Value, errors: &mut Vec<String>| -> Option<Value> {
        match post(&agent, &format!("{url}api/games/{id}/{path}"), body, key) {
            Ok((200, state)) => Some(state),
            Ok((status, answer)) => {
                errors.push(format!("{path} in {id}: {status} {answer}"));
                None
            }
            Err(e) => {
                errors.push(format!("{path} in {id}: {e}"));
                None
            }
        }
    };
    let outcome = follow(reader, |kind, data| {
        if kind != "state" {
            return true;
        }
        let Ok(s) = serde_json::from_str::<Value>(data) else {
            return true;
        };
        let version = s["version"].as_u64().unwrap_or(0);
        let n = s["moves"].as_array().map_or(0, Vec::len);
        if n > last_len && s["moves"][n - 1]["side"] == json!(1) {
            engine_moves += 1;
            if let Some(sent) = waiting.take() {
                reply.push(sent.elapsed().as_secs_f64());
            }
        }
        last_len = n;
        if version <= acted || s["thinking"] == json!(true) {
            return true;
        }
        if !s["ending"].is_null() {
            if resigning {
                return false;
            }
            // Over before the moves ran out: take the last turns back and go on (the undo's
            // own event, a newer version, brings the person's turn).
            acted = version;
            action("undo", &Value::Null, &mut errors);
            return errors.len() < 10;
        }
        if s["to_move"] != json!(0) {
            return true;
        }
        acted = version;
        if played == moves {
            resigning = true;
            action("resign", &Value::Null, &mut errors);
            return errors.len() < 10;
        }
        let legal = s["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() {
            return true;
        }
        let mv = legal[(next() % legal.len() as u64) as usize].clone();
        let sent = Instant::now();
        if let Some(st) = action("move", &json!({ "move": mv }), &mut errors) {
            accept.push(sent.elapsed().as_secs_f64());
            waiting = Some(sent);
            played += 1;
            // The move's own event is this version: the next to act on is the engine's.
            acted = st["version"].as_u64().unwrap_or(acted);
        }
        errors.len() < 10
    });
    let mut t = tally.lock().unwrap();
    if let Err(e) = outcome {
        t.errors.push(format!("player of {id}: {e}"));
    }
    if played < moves {
        t.errors
            .push(format!("{id}: only {played} of {moves} moves were played"));
    }
    t.errors.extend(errors);
    t.accept.extend(accept);
    t.reply.extend(reply);
    t.moves += played + engine_moves;
}

/// The `q` quantile of sorted `xs`, in milliseconds.
fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    let i = ((xs.len() - 1) as f64 * q).round() as usize;
    xs[i] * 1000.0
}

fn peak_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let o = Options::parse();
    let mut started = None;
    let (url, pid) = match (&o.url, o.pid) {
        (Some(url), Some(pid)) => (format!("{}/", url.trim_end_matches('/')), pid),
        _ => {
            let qi = o.qi.clone().unwrap_or_else(|| {
                let exe = std::env::current_exe().expect("this example's path");
                exe.parent()
                    .and_then(|examples| examples.parent())
                    .expect("a target directory")
                    .join("qi")
            });
            let mut child = Command::new(&qi)
                .args(["serve", "--port", "0"])
                .args(["--searches", &o.searches.to_string()])
                .args(["--games", &o.limit.to_string()])
                .stdout(Stdio::piped())
                .stderr(Stdio::inherit())
                .spawn()
                .unwrap_or_else(|e| {
                    panic!(
                        "cannot start {} ({e}): cargo build --release -p cli",
                        qi.display()
                    )
                });
            let mut line = String::new();
            BufReader::new(child.stdout.take().expect("stdout"))
                .read_line(&mut line)
                .expect("qi serve prints its URL");
            let url = line
                .split_whitespace()
                .find(|w| w.starts_with("http://"))
                .unwrap_or_else(|| panic!("no URL in {line:?}"))
                .to_string();
            let pid = child.id();
            started = Some(Started(child));
            (url, pid)
        }
    };
    let agent = agent();
    let mut games = Vec::new();
    for _ in 0..o.games {
        let mut res = agent
            .post(format!("{url}api/games"))
            .send_json(json!({
                "game": "gomoku", "players": ["human", "engine"], "movetime_ms": o.movetime_ms,
            }))
            .expect("the server answers");
        let status = res.status().as_u16();
        let body: Value = res.body_mut().read_json().expect("a JSON answer");
        assert_eq!(status, 201, "a new game: {body}");
        games.push((
            body["id"].as_str().unwrap().to_string(),
            body["seat_keys"][0].as_str().unwrap().to_string(),
        ));
    }
    let tally = Arc::new(Mutex::new(Tally::default()));
    // Everyone (watchers and players) opens its stream, then the players start together.
    let ready = Arc::new(Barrier::new(o.games * (o.watchers + 1) + 1));
    let mut threads = Vec::new();
    for (g, (id, key)) in games.iter().enumerate() {
        for _ in 0..o.watchers {
            let (url, id, ready, tally) = (url.clone(), id.clone(), ready.clone(), tally.clone());
            threads.push(std::thread::spawn(move || {
                watch(&url, g, &id, &ready, &tally);
            }));
        }
        let (url, id, key, ready, tally, moves) = (
            url.clone(),
            id.clone(),
            key.clone(),
            ready.clone(),
            tally.clone(),
            o.moves,
        );
        threads.push(std::thread::spawn(move || {
            play(
                &url,
                &id,
                &key,
                moves,
                0x9e37_79b9 + g as u64,
                &ready,
                &tally,
            );
        }));
    }
    ready.wait();
    let start = Instant::now();
    for t in threads {
        t.join().expect("a benchmark thread");
    }
    let seconds = start.elapsed().as_secs_f64();
    let mut t = tally.lock().unwrap();
    // Every watcher ends on the game's final state, and saw every engine move.
    for (g, (id, _)) in games.iter().enumerate() {
        let mut res = agent
            .get(format!("{url}api/games/{id}"))
            .call()
            .expect("the server answers");
        let final_state: Value = res.body_mut().read_json().expect("a state");
        let version = final_state["version"].as_u64().unwrap_or(0);
        let last = t.last.get(&g).cloned().unwrap_or_default();
        if last.len() != o.watchers || last.iter().any(|&v| v != version) {
            t.errors.push(format!(
                "{id}: watchers ended at versions {last:?}, the game at {version}"
            ));
        }
    }
    let mut all = Vec::new();
    let mut missed = 0;
    for delays in t.seen.values() {
        if delays.len() < o.watchers {
            missed += o.watchers - delays.len();
        }
        all.push(delays.iter().copied().fold(0.0, f64::max));
    }
    if missed > 0 {
        t.errors
            .push(format!("{missed} engine moves missed by a watcher"));
    }
    all.sort_by(f64::total_cmp);
    let mut accept = t.accept.clone();
    accept.sort_by(f64::total_cmp);
    let mut reply = t.reply.clone();
    reply.sort_by(f64::total_cmp);
    let peak = peak_kib(pid).map_or("?".into(), |k| format!("{:.0} MiB", k as f64 / 1024.0));
    for e in t.errors.iter().take(10) {
        eprintln!("error: {e}");
    }
    println!(
        "| games | watchers | moves | seconds | moves/s | accept p50 | accept p99 | \
         reply p50 | reply p99 | watchers p50 | watchers p99 | errors | server peak |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    println!(
        "| {} | {} | {} | {:.1} | {:.1} | {:.1} ms | {:.1} ms | {:.0} ms | {:.0} ms | {:.1} ms \
         | {:.1} ms | {} | {} |",
        o.games,
        o.games * o.watchers,
        t.moves,
        seconds,
        t.moves as f64 / seconds,
        quantile(&accept, 0.5),
        quantile(&accept, 0.99),
        quantile(&reply, 0.5),
        quantile(&reply, 0.99),
        quantile(&all, 0.5),
        quantile(&all, 0.99),
        t.errors.len(),
        peak,
    );
    drop(t);
    drop(started);
}
