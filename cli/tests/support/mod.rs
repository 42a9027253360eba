//! A `qi serve` started for a test on a free port, stopped when dropped, and JSON over HTTP.

#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;

use serde_json::Value;

/// A running `qi serve --port 0`.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    agent: ureq::Agent,
    /// The seat keys of every game created through [`Served::create`], by id.
    keys: Mutex<HashMap<String, [String; 2]>>,
}

impl Served {
    /// Starts the server and reads its URL from the first line it prints.
    pub fn start() -> Served {
        Self::start_with(&[])
    }

    /// Starts the server with more options (`--games 2`, `--idle 2s`).
    pub fn start_with(options: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(["serve", "--port", "0", "--searches", "2"])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("qi serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("qi serve prints its URL");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        // A fresh connection for every request: a pooled one that the server closed after an
        // error reply (a 409 before the body was read) failed the next request now and then
        // with "Peer disconnected".
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(0)
            .max_idle_connections_per_host(0)
            .build()
            .into();
        Served {
            child,
            url,
            agent,
            keys: Mutex::new(HashMap::new()),
        }
    }

    /// `GET path` → (status, JSON body).
    pub fn get(&self, path: &str) -> (u16, Value) {
        let mut res = self
            .agent
            .get(format!("{}{}", self.url, path.trim_start_matches('/')))
            .call()
            .expect("the server answers");
        answer(&mut res)
    }

    /// `GET path` → the body as text.
    pub fn get_text(&self, path: &str) -> String {
        match self.get(path) {
            (200, Value::String(s)) => s,
            (status, v) => panic!("GET {path}: {status} {v}"),
        }
    }

    /// `POST path` with a JSON body → (status, JSON body).
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_raw(path, &body.to_string(), "application/json")
    }

    /// `POST path` with any body and content type → (status, JSON body).
    pub fn post_raw(&self, path: &str, body: &str, content_type: &str) -> (u16, Value) {
        self.post_headers(path, body, &[("Content-Type", content_type)])
    }

    /// `POST path` with a JSON body and `key` (if any) as `Authorization: Bearer KEY`.
    pub fn post_as(&self, path: &str, body: &Value, key: Option<&str>) -> (u16, Value) {
        let auth = key.map(|k| format!("Bearer {k}"));
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(a) = &auth {
            headers.push(("Authorization", a));
        }
        self.post_headers(path, &body.to_string(), &headers)
    }

    /// `POST path` with any body and headers → (status, JSON body).
    pub fn post_headers(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> (u16, Value) {
        let mut req = self
            .agent
            .post(format!("{}{}", self.url, path.trim_start_matches('/')));
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        let mut res = req.send(body).expect("the server answers");
        answer(&mut res)
    }

    /// `POST /api/games/{id}/{action}` as the game's creator holding both seats: with the
    /// key of `side` (0 or 1).
    pub fn as_seat(&self, id: &str, side: usize, action: &str, body: &Value) -> (u16, Value) {
        let key = self.seat_key(id, side);
        self.post_as(&format!("/api/games/{id}/{action}"), body, Some(&key))
    }

    /// Plays `text` as the creator, with the key of the side to move now.
    pub fn play(&self, id: &str, text: &str) -> (u16, Value) {
        let state = self.get(&format!("/api/games/{id}")).1;
        let side = state["to_move"].as_u64().expect("a side to move") as usize;
        self.as_seat(id, side, "move", &serde_json::json!({ "move": text }))
    }

    /// The creator's key to `side` of the game `id`.
    pub fn seat_key(&self, id: &str, side: usize) -> String {
        self.keys.lock().unwrap()[id][side].clone()
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Creates a game; panics unless it was created. Returns its state, with the creator's
    /// `seat_keys` and `invite` (also kept for [`Served::as_seat`]).
    pub fn create(&self, body: &Value) -> Value {
        let (status, state) = self.post("/api/games", body);
        assert_eq!(status, 201, "{state}");
        let keys = state["seat_keys"]
            .as_array()
            .expect("seat keys")
            .iter()
            .map(|k| k.as_str().expect("a key").to_string())
            .collect::<Vec<_>>();
        let id = state["id"].as_str().expect("an id").to_string();
        self.keys
            .lock()
            .unwrap()
            .insert(id, [keys[0].clone(), keys[1].clone()]);
        state
    }

    /// Polls the game's state until `done` holds (at most 30 s).
    pub fn wait_state(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let start = std::time::Instant::now();
        loop {
            let (status, state) = self.get(&format!("/api/games/{id}"));
            assert_eq!(status, 200, "{state}");
            if done(&state) {
                return state;
            }
            assert!(
                start.elapsed().as_secs() < 30,
                "the game never reached the state: {state}"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response as (status, JSON body; a body that is not JSON as a JSON string).
fn answer(res: &mut ureq::http::Response<ureq::Body>) -> (u16, Value) {
    let status = res.status().as_u16();
    let text = res.body_mut().read_to_string().expect("a body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The piece or stone on the cell named `name` (`h8`, `b9`) of a state's board, or `Null`.
pub fn piece_at(state: &Value, name: &str) -> Value {
    let b = &state["board"];
    let files = b["files"].as_u64().unwrap() as usize;
    for (r, row) in b["row_labels"].as_array().unwrap().iter().enumerate() {
        for (f, file) in b["file_labels"].as_array().unwrap().iter().enumerate() {
            if format!("{}{}", file.as_str().unwrap(), row.as_str().unwrap()) == name {
                return b["cells"][r * files + f].clone();
            }
        }
    }
    panic!("no cell {name}");
}

/// The number of stones or pieces on a state's board.
pub fn pieces(state: &Value) -> usize {
    state["board"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| !c.is_null())
        .count()
}
