//! A `qi serve` started for a test on a free port, stopped when dropped, and JSON over HTTP.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// A running `qi serve --port 0`.
pub struct Served {
    child: Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    agent: ureq::Agent,
}

impl Served {
    /// Starts the server and reads its URL from the first line it prints.
    pub fn start() -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(["serve", "--port", "0", "--searches", "2"])
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
        Served { child, url, agent }
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
        let mut res = self
            .agent
            .post(format!("{}{}", self.url, path.trim_start_matches('/')))
            .header("Content-Type", content_type)
            .send(body)
            .expect("the server answers");
        answer(&mut res)
    }

    /// Creates a game; panics unless it was created. Returns its state.
    pub fn create(&self, body: &Value) -> Value {
        let (status, state) = self.post("/api/games", body);
        assert_eq!(status, 201, "{state}");
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
