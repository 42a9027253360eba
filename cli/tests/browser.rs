//! `qi serve` in a real browser: Debian's Chromium driven through WebDriver (`chromedriver`,
//! installed by `.ci/run`). A person's clicks on the SVG board: a gomoku game won against a
//! depth-1 engine, a renju forbidden point shown and refused, a connect6 two-stone turn,
//! xiangqi click-click moves with a refused one and a capture, undo, a record downloaded and
//! loaded back, a friend taking the second seat through the invitation link and both seeing
//! each other's moves, and a watcher whose clicks do nothing.
//!
//! Without Chromium and chromedriver each test says on stderr that it was not run and passes,
//! so that `cargo test --workspace` passes on a machine with only the Rust toolchain; with
//! `QI_REQUIRE_BROWSER=1` (set by `.ci/run`) a missing browser fails them instead.
//!
//! With `QI_SCREENSHOTS=DIR` each test also saves a screenshot of its board to `DIR`
//! (the pictures in `docs/screenshots/` are made this way).

mod support;

use std::io::Write;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};
use support::{Served, pieces};

/// A `chromedriver` on a free port, stopped when dropped.
struct Driver {
    child: Child,
    url: String,
}

/// Set (to anything but `0`) where the browser tests must run: `.ci/run` sets it, so that a
/// missing Chromium or chromedriver fails CI instead of skipping the tests.
const REQUIRE_BROWSER: &str = "QI_REQUIRE_BROWSER";

/// What the browser tests need and how to install it on Debian.
const INSTALL: &str = "apt-get install chromium chromium-driver (or set CHROMIUM and \
                       CHROMEDRIVER to their paths)";

impl Driver {
    /// Starts chromedriver, or returns `None` after saying on stderr that `test` was not run
    /// when chromedriver or Chromium is missing and [`REQUIRE_BROWSER`] is not set.
    ///
    /// # Panics
    /// When the browser is missing and [`REQUIRE_BROWSER`] is set, or when chromedriver
    /// starts but never listens.
    fn start(test: &str) -> Option<Driver> {
        let program = std::env::var("CHROMEDRIVER").unwrap_or_else(|_| "chromedriver".into());
        let missing = if !std::path::Path::new(&chromium()).is_file() {
            Some(format!("no Chromium at {}", chromium()))
        } else if !on_path(&program) {
            Some(format!("no {program}"))
        } else {
            None
        };
        if let Some(missing) = missing {
            let required = std::env::var(REQUIRE_BROWSER).is_ok_and(|v| v != "0");
            assert!(
                !required,
                "{missing}, but {REQUIRE_BROWSER} is set: the browser tests need {INSTALL}"
            );
            // Straight to the process's stderr: libtest captures `eprintln!` of a passing test.
            let _ = writeln!(
                std::io::stderr(),
                "browser test {test} NOT RUN: {missing}. To run the browser tests: {INSTALL}; \
                 set {REQUIRE_BROWSER}=1 to make a missing browser a failure (.ci/run does)."
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&program)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program} ({e}): {INSTALL}"));
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "chromedriver never listened"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Driver { child, url })
    }

    /// A new headless Chromium session.
    async fn browser(&self) -> Client {
        let binary = chromium();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": binary,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--window-size=1200,900",
                ],
            }),
        );
        // chromedriver may listen before it takes sessions, and on a busy machine it has
        // reset the first connection: a few tries, then the error.
        let mut tries = 0;
        loop {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&self.url)
                .await
            {
                Ok(client) => return client,
                Err(_) if tries < 10 => {
                    tries += 1;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                }
                Err(e) => panic!("a Chromium session: {e}"),
            }
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Chromium binary: `$CHROMIUM`, or Debian's `/usr/bin/chromium`.
fn chromium() -> String {
    std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

/// Whether `program` is a path to a file or a file in a directory of `$PATH`.
fn on_path(program: &str) -> bool {
    if program.contains('/') {
        return std::path::Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Runs a JavaScript expression in the page and returns its value.
async fn js(c: &Client, expr: &str) -> Value {
    c.execute(&format!("return {expr};"), vec![])
        .await
        .unwrap_or_else(|e| panic!("{expr}: {e}"))
}

/// Waits until the expression is true (at most 30 s).
async fn until(c: &Client, expr: &str) {
    let start = Instant::now();
    loop {
        if js(c, expr).await == json!(true) {
            return;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let status = js(c, "document.getElementById('status').textContent").await;
            let message = js(c, "document.getElementById('message').textContent").await;
            panic!("never true: {expr} (status {status}, message {message})");
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

async fn text(c: &Client, id: &str) -> String {
    js(c, &format!("document.getElementById('{id}').textContent"))
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Clicks the board at the cell named `name` (`h8`, `e2`). The page redraws the board on
/// every state it receives (the event stream's first state may arrive just after the
/// board was found), so a click on a board replaced meanwhile is tried again.
async fn click_cell(c: &Client, name: &str) {
    let selector = format!("[data-cell='{name}']");
    let mut tries = 0;
    loop {
        let clicked = match c.find(Locator::Css(&selector)).await {
            Ok(cell) => cell.click().await,
            Err(e) => Err(e),
        };
        match clicked {
            Ok(()) => return,
            Err(_) if tries < 50 => {
                tries += 1;
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Err(e) => panic!("cannot click {name}: {e}"),
        }
    }
}

async fn click(c: &Client, id: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("no #{id}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click #{id}: {e}"));
}

async fn select(c: &Client, id: &str, value: &str) {
    c.find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("no #{id}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("#{id} = {value}: {e}"));
}

/// Fills the start screen and starts a game; waits for its board.
async fn start_game(c: &Client, served: &Served, game: &str, players: [&str; 2], setup: &str) {
    c.goto(&served.url).await.expect("the page loads");
    c.wait()
        .for_element(Locator::Css("#game option"))
        .await
        .expect("the start screen");
    select(c, "game", game).await;
    select(c, "first", players[0]).await;
    select(c, "second", players[1]).await;
    if players.contains(&"engine") {
        select(c, "depth", "1").await;
    }
    if !setup.is_empty() {
        c.find(Locator::Css("#setup-box summary"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        c.find(Locator::Id("setup"))
            .await
            .unwrap()
            .send_keys(setup)
            .await
            .unwrap();
    }
    click(c, "start-button").await;
    until(c, "!!document.querySelector('#board svg')").await;
}

/// The state of the game the page shows, from the server.
async fn page_state(c: &Client, served: &Served) -> Value {
    let id = js(c, "new URLSearchParams(location.search).get('game')").await;
    served
        .get(&format!("/api/games/{}", id.as_str().expect("a game id")))
        .1
}

async fn screenshot(c: &Client, name: &str) {
    if let Ok(dir) = std::env::var("QI_SCREENSHOTS") {
        let png = c.screenshot().await.expect("a screenshot");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(format!("{dir}/{name}.png"), png).unwrap();
    }
}

#[tokio::test]
async fn gomoku_won_by_clicks_against_a_depth_1_engine_then_undone() {
    let Some(driver) = Driver::start("gomoku_won_by_clicks_against_a_depth_1_engine_then_undone")
    else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    // Black has an open three h8 i8 j8; a fourth stone makes an open four.
    start_game(
        &c,
        &served,
        "gomoku",
        ["human", "engine"],
        "h8 a1 i8 a3 j8 a5",
    )
    .await;
    assert_eq!(page_state(&c, &served).await["depth"], json!(1));
    let state = page_state(&c, &served).await;
    assert_eq!(pieces(&state), 6);
    click_cell(&c, "k8").await;
    until(
        &c,
        "document.querySelectorAll('[data-stone][data-side=\"1\"]').length === 4",
    )
    .await;
    let state = page_state(&c, &served).await;
    let open = ["g8", "l8"]
        .into_iter()
        .find(|p| support::piece_at(&state, p).is_null())
        .expect("one end of the four is open");
    click_cell(&c, open).await;
    until(
        &c,
        "document.getElementById('status').textContent.includes('Game over: Black wins')",
    )
    .await;
    // The five is marked, and no live line of the engine's last search is left.
    until(&c, "document.querySelectorAll('[data-win]').length === 5").await;
    for cell in ["h8", "i8", "j8", "k8", open] {
        let marked = js(
            &c,
            &format!("!!document.querySelector(\"[data-win='{cell}']\")"),
        )
        .await;
        assert_eq!(
            marked,
            json!(true),
            "{cell} is not marked as part of the five"
        );
    }
    assert_eq!(text(&c, "live").await, "");
    screenshot(&c, "gomoku").await;
    // Undo takes back Black's five: Black is to move again.
    click(&c, "undo").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Black to move')",
    )
    .await;
    assert_eq!(pieces(&page_state(&c, &served).await), 8);
    c.close().await.unwrap();
}

#[tokio::test]
async fn renju_forbidden_point_is_shown_and_refused() {
    let Some(driver) = Driver::start("renju_forbidden_point_is_shown_and_refused") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    start_game(
        &c,
        &served,
        "renju",
        ["human", "human"],
        "g8 a1 h8 a3 i10 a5 i9 o15",
    )
    .await;
    assert_eq!(
        js(&c, "document.querySelectorAll('[data-hint]').length").await,
        json!(1)
    );
    assert_eq!(
        js(&c, "document.querySelector('[data-hint]').dataset.hint").await,
        json!("i8")
    );
    assert!(text(&c, "legend").await.contains("forbidden for Black"));
    click_cell(&c, "i8").await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('forbidden for Black under renju (double three)')",
    )
    .await;
    assert_eq!(pieces(&page_state(&c, &served).await), 8);
    screenshot(&c, "renju").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn connect6_two_stone_turn() {
    let Some(driver) = Driver::start("connect6_two_stone_turn") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    start_game(&c, &served, "connect6", ["human", "human"], "").await;
    click_cell(&c, "j10").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('White to move')",
    )
    .await;
    click_cell(&c, "k10").await;
    until(&c, "!!document.querySelector('[data-stone=\"k10\"]')").await;
    // One stone of two: still White's turn, the first stone shown and marked.
    assert!(text(&c, "status").await.starts_with("White to move"));
    assert_eq!(
        js(&c, "document.querySelector('[data-last]').dataset.last").await,
        json!("k10")
    );
    click_cell(&c, "k11").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Black to move')",
    )
    .await;
    let state = page_state(&c, &served).await;
    assert_eq!(state["moves"][1]["text"], json!("k10k11"));
    screenshot(&c, "connect6").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn xiangqi_click_click_moves_a_refusal_and_a_capture() {
    let Some(driver) = Driver::start("xiangqi_click_click_moves_a_refusal_and_a_capture") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    start_game(&c, &served, "xiangqi", ["human", "human"], "").await;
    // The rook on a0 cannot pass its own pawn on a3.
    click_cell(&c, "a0").await;
    click_cell(&c, "a5").await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('blocked')",
    )
    .await;
    assert_eq!(page_state(&c, &served).await["moves"], json!([]));
    // The cannon's targets light up; a click on one moves it.
    click_cell(&c, "h2").await;
    until(&c, "!!document.querySelector('[data-target=\"e2\"]')").await;
    click_cell(&c, "e2").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Black to move')",
    )
    .await;
    click_cell(&c, "h9").await;
    click_cell(&c, "g7").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Red to move')",
    )
    .await;
    // The other cannon jumps the screen on b7 and takes the horse on b9.
    click_cell(&c, "b2").await;
    click_cell(&c, "b9").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Black to move')",
    )
    .await;
    let state = page_state(&c, &served).await;
    assert_eq!(pieces(&state), 31);
    assert_eq!(support::piece_at(&state, "b9")["name"], json!("cannon"));
    if js(&c, "document.body.dataset.chinese").await == json!("true") {
        // The move list in Chinese notation.
        select(&c, "notation", "Chinese").await;
        assert!(
            text(&c, "moves").await.contains("炮二平五"),
            "{}",
            text(&c, "moves").await
        );
    } else {
        // Without a CJK font: letters on the pieces, the river named in English, and no
        // Chinese notation to pick (all would be empty boxes).
        let shown = js(
            &c,
            "[...document.querySelectorAll('.piece-text')].map((t) => t.textContent).join('')",
        )
        .await;
        let shown = shown.as_str().unwrap();
        assert!(
            shown.len() == 31 && shown.chars().all(|ch| ch.is_ascii_alphabetic()),
            "{shown}"
        );
        assert_eq!(
            js(&c, "document.querySelector('.river').textContent").await,
            json!("river")
        );
        let options = js(
            &c,
            "[...document.getElementById('notation').options].map((o) => o.value).join()",
        )
        .await;
        assert!(!options.as_str().unwrap().contains("Chinese"), "{options}");
    }
    // A laptop's screen (1366x768, less the browser's bars): the whole board shows.
    c.set_window_size(1366, 660).await.unwrap();
    until(
        &c,
        "document.querySelector('#board svg').getBoundingClientRect().bottom <= window.innerHeight",
    )
    .await;
    screenshot(&c, "xiangqi").await;
    c.close().await.unwrap();
}

#[tokio::test]
async fn record_downloaded_and_loaded_back() {
    let Some(driver) = Driver::start("record_downloaded_and_loaded_back") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    start_game(&c, &served, "gomoku", ["human", "human"], "").await;
    for p in ["h8", "h9", "i9"] {
        click_cell(&c, p).await;
        until(
            &c,
            &format!("!!document.querySelector('[data-stone=\"{p}\"]')"),
        )
        .await;
    }
    let href = js(
        &c,
        "document.getElementById('download').getAttribute('href')",
    )
    .await;
    let record = served.get_text(href.as_str().expect("a download link"));
    assert!(record.contains("1. h8 h9 2. i9"), "{record}");
    let before = page_state(&c, &served).await;
    click(&c, "new").await;
    c.wait().for_element(Locator::Id("setup")).await.unwrap();
    // The start screen takes a whole record.
    start_game(&c, &served, "gomoku", ["human", "human"], &record).await;
    let after = page_state(&c, &served).await;
    assert_ne!(after["id"], before["id"]);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["board"], before["board"]);
    c.close().await.unwrap();
}

#[tokio::test]
async fn two_browsers_on_one_game_see_each_others_moves() {
    let Some(driver) = Driver::start("two_browsers_on_one_game_see_each_others_moves") else {
        return;
    };
    let served = Served::start();
    let a = driver.browser().await;
    let b = driver.browser().await;
    start_game(&a, &served, "connect4", ["human", "human"], "").await;
    // The creator's page offers an invitation to the second seat; the friend opens it.
    until(&a, "!document.getElementById('invite-box').hidden").await;
    screenshot(&a, "invitation").await;
    let url = js(&a, "document.getElementById('invite').href").await;
    b.goto(url.as_str().expect("an invitation link"))
        .await
        .unwrap();
    until(&b, "!!document.querySelector('#board svg')").await;
    until(
        &b,
        "document.getElementById('status').textContent.includes('you play')",
    )
    .await;
    // The invitation is used: the friend's address bar keeps the plain game link, and the
    // creator's page no longer offers it.
    assert_eq!(
        js(&b, "location.search.includes('invite')").await,
        json!(false)
    );
    until(&a, "document.getElementById('invite-box').hidden").await;
    click_cell(&a, "43").await; // any cell of file 4 drops a stone into it
    until(&b, "document.querySelectorAll('[data-stone]').length === 1").await;
    // The creator cannot move for the friend any more.
    click_cell(&a, "36").await;
    until(
        &a,
        "document.getElementById('message').textContent.includes('the other player moves')",
    )
    .await;
    click_cell(&b, "36").await;
    until(&a, "document.querySelectorAll('[data-stone]').length === 2").await;
    let state = page_state(&a, &served).await;
    assert_eq!(
        state["moves"],
        json!([
            {"side": 0, "text": "4", "notations": {}},
            {"side": 1, "text": "3", "notations": {}},
        ])
    );
    assert_eq!(state["invitation"], json!("claimed"));
    assert!(state["watchers"].as_u64().unwrap() >= 2, "{state}");
    screenshot(&a, "connect4").await;
    a.close().await.unwrap();
    b.close().await.unwrap();
}

#[tokio::test]
async fn a_watchers_clicks_do_nothing() {
    let Some(driver) = Driver::start("a_watchers_clicks_do_nothing") else {
        return;
    };
    let served = Served::start();
    let player = driver.browser().await;
    let watcher = driver.browser().await;
    // The start screen shows the server's limits.
    player.goto(&served.url).await.expect("the page loads");
    until(
        &player,
        "document.getElementById('limits').textContent.includes('at most 64 games open')",
    )
    .await;
    start_game(&player, &served, "gomoku", ["human", "human"], "h8").await;
    let url = js(&player, "document.getElementById('share').href").await;
    watcher
        .goto(url.as_str().expect("a watch link"))
        .await
        .unwrap();
    until(&watcher, "!!document.querySelector('#board svg')").await;
    until(
        &watcher,
        "document.getElementById('status').textContent.includes('you are watching')",
    )
    .await;
    let before = page_state(&watcher, &served).await;
    click_cell(&watcher, "i9").await;
    until(
        &watcher,
        "document.getElementById('message').textContent.includes('You are watching')",
    )
    .await;
    screenshot(&watcher, "watcher").await;
    for button in ["undo", "resign", "hint", "stop"] {
        assert_eq!(
            js(
                &watcher,
                &format!("document.getElementById('{button}').disabled")
            )
            .await,
            json!(true),
            "{button}"
        );
    }
    // Not even a request sent by hand moves without a key.
    let refused = js(
        &watcher,
        "fetch(`/api/games/${new URLSearchParams(location.search).get('game')}/move`, \
         {method: 'POST', headers: {'Content-Type': 'application/json'}, body: '{\"move\": \"i9\"}'}) \
         .then((r) => r.status)",
    )
    .await;
    assert_eq!(refused, json!(403));
    let after = page_state(&watcher, &served).await;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["moves"], before["moves"]);
    // The player's click is a move, and the watcher sees it.
    click_cell(&player, "i9").await;
    until(&watcher, "!!document.querySelector('[data-stone=\"i9\"]')").await;
    player.close().await.unwrap();
    watcher.close().await.unwrap();
}

/// A clocked game against a level-1 engine chosen on the start screen: both clocks show, the
/// side to move's runs, the engine answers on its own clock at the level picked, and the
/// person's flag falls while the page waits: the game ends on time.
#[tokio::test]
async fn a_clocked_game_against_a_level_1_engine_ends_on_time() {
    let Some(driver) = Driver::start("a_clocked_game_against_a_level_1_engine_ends_on_time") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    c.goto(&served.url).await.expect("the page loads");
    c.wait()
        .for_element(Locator::Css("#game option"))
        .await
        .expect("the start screen");
    select(&c, "game", "xiangqi").await;
    select(&c, "first", "human").await;
    select(&c, "second", "engine").await;
    select(&c, "level", "1").await;
    // An 8-second clock (the menu's shortest is a minute; the test adds a shorter choice).
    js(
        &c,
        "(() => { const o = document.createElement('option'); o.value = '8+0'; \
         o.textContent = '8 s'; document.getElementById('clock').append(o); return true; })()",
    )
    .await;
    select(&c, "clock", "8+0").await;
    click(&c, "start-button").await;
    until(&c, "!!document.querySelector('#board svg')").await;
    let state = page_state(&c, &served).await;
    assert_eq!(state["level"], json!(1), "{state}");
    assert_eq!(state["clock"]["control"], json!("8s"), "{state}");
    until(
        &c,
        "!document.getElementById('clocks').hidden \
         && document.getElementById('clock-0').classList.contains('running') \
         && !document.getElementById('clock-1').classList.contains('running')",
    )
    .await;
    click_cell(&c, "h2").await;
    until(&c, "!!document.querySelector('[data-target=\"e2\"]')").await;
    click_cell(&c, "e2").await;
    // The engine replies; its clock ran for it.
    until(&c, "document.querySelectorAll('#moves li').length >= 2 || document.getElementById('status').textContent.includes('Red to move')").await;
    let replied = served.wait_state(state["id"].as_str().unwrap(), |st| {
        st["moves"].as_array().unwrap().len() == 2 || !st["ending"].is_null()
    });
    assert_eq!(replied["moves"].as_array().unwrap().len(), 2, "{replied}");
    let black = replied["clock"]["remaining_ms"][1].as_u64().unwrap();
    assert!(black < 8000, "the engine's clock never ran: {replied}");
    screenshot(&c, "clock").await;
    // Red waits: its flag falls and the page says so.
    until(
        &c,
        "document.getElementById('status').textContent.includes('Red ran out of time')",
    )
    .await;
    assert_eq!(text(&c, "clock-0").await, "Red 0:00.0");
    c.close().await.unwrap();
}

#[tokio::test]
async fn move_now_stops_the_engine_s_reply_to_a_person() {
    let Some(driver) = Driver::start("move_now_stops_the_engine_s_reply_to_a_person") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    c.goto(&served.url).await.expect("the page loads");
    c.wait()
        .for_element(Locator::Css("#game option"))
        .await
        .expect("the start screen");
    select(&c, "game", "gomoku").await;
    select(&c, "first", "human").await;
    select(&c, "second", "engine").await;
    // A minute a move (the server's longest; the menu stops at 10 s): only Move now ends the
    // reply within the test's 30-second waits.
    js(
        &c,
        "(() => { const o = document.createElement('option'); o.value = '60000'; \
         o.textContent = '60 s'; document.getElementById('movetime').append(o); return true; })()",
    )
    .await;
    select(&c, "movetime", "60000").await;
    click(&c, "start-button").await;
    until(&c, "!!document.querySelector('#board svg')").await;
    click_cell(&c, "h8").await;
    // The page says the engine thinks, and Move now is live for the whole reply.
    until(
        &c,
        "document.getElementById('status').textContent.includes('thinking') \
         && !document.getElementById('stop').disabled",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        js(&c, "document.getElementById('stop').disabled").await,
        json!(false),
        "Move now went grey while the engine thinks"
    );
    click(&c, "stop").await;
    until(&c, "document.querySelectorAll('[data-stone]').length === 2").await;
    until(
        &c,
        "document.getElementById('status').textContent.startsWith('Black to move') \
         && document.getElementById('stop').disabled \
         && document.getElementById('live').textContent === ''",
    )
    .await;
    c.close().await.unwrap();
}

/// Starts a game with an opening rule from the start screen: `players` by seat (the first
/// is the player who begins), the engine at depth 1 and 200 ms.
async fn start_opening(c: &Client, served: &Served, game: &str, opening: &str, players: [&str; 2]) {
    c.goto(&served.url).await.expect("the page loads");
    c.wait()
        .for_element(Locator::Css("#game option"))
        .await
        .expect("the start screen");
    select(c, "game", game).await;
    until(c, "!document.getElementById('opening-label').hidden").await;
    select(c, "opening", opening).await;
    select(c, "first", players[0]).await;
    select(c, "second", players[1]).await;
    select(c, "movetime", "200").await;
    select(c, "depth", "1").await;
    click(c, "start-button").await;
    until(c, "!!document.querySelector('#board svg')").await;
}

/// Plays the person's part of the opening through the page until it is over, whatever the
/// engine chooses: a stone on the first point marked allowed (or near the centre), the
/// first choice offered ("offer" where there is one), ten far points that no symmetry maps
/// onto each other, the first offered move. Returns the kinds of step the person took.
async fn play_opening_by_clicks(c: &Client, served: &Served) -> Vec<String> {
    let mut took = Vec::new();
    for _ in 0..30 {
        let id = js(c, "new URLSearchParams(location.search).get('game')").await;
        let id = id.as_str().unwrap().to_string();
        // Wait for the engine's steps: the opening is over, or a person is asked.
        let st = served.wait_state(&id, |st| {
            !st["thinking"].as_bool().unwrap_or(false)
                && (st["opening"]["asked"].is_null()
                    || st["seats"][st["opening"]["asked"]["seat"].as_u64().unwrap() as usize]
                        == json!("human"))
        });
        let ask = &st["opening"]["asked"];
        if ask.is_null() {
            return took;
        }
        let version = st["version"].as_u64().unwrap();
        until(
            c,
            &format!(
                "!document.getElementById('opening-box').hidden && \
                 document.getElementById('opening-prompt').textContent.startsWith('{}: You')",
                st["opening"]["rule"].as_str().unwrap()
            ),
        )
        .await;
        let kind = ask["kind"].as_str().unwrap().to_string();
        match kind.as_str() {
            "place" => {
                let allowed: Vec<&str> = ask["allowed"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_str().unwrap())
                    .collect();
                let point = allowed.first().copied().unwrap_or_else(|| {
                    ["g9", "i7", "g7", "i9", "f8", "j8", "h10", "h6"]
                        .into_iter()
                        .find(|p| support::piece_at(&st, p).is_null())
                        .unwrap()
                });
                click_cell(c, point).await;
            }
            "choose" => {
                let keys: Vec<&str> = ask["options"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["key"].as_str().unwrap())
                    .collect();
                // Offer 5th moves, place two more, and otherwise hold Black: so that the
                // person meets every kind of step whatever the engine does.
                let seat = ask["seat"].as_u64().unwrap();
                let holds_black = (seat == 0) != st["swapped"].as_bool().unwrap();
                let key = ["offer", "two", "black"]
                    .into_iter()
                    .find(|k| keys.contains(k))
                    .unwrap_or(if holds_black { "stay" } else { "swap" });
                c.find(Locator::Css(&format!("[data-choice='{key}']")))
                    .await
                    .unwrap_or_else(|e| panic!("no button {key}: {e}"))
                    .click()
                    .await
                    .unwrap();
            }
            "offer" => {
                let count = ask["count"].as_u64().unwrap() as usize;
                // Column a, rows 8 to 15, then b8 and b9: distances from the centre that no
                // rotation or reflection exchanges.
                let far = [
                    "a8", "a9", "a10", "a11", "a12", "a13", "a14", "a15", "b8", "b9",
                ];
                for p in &far[..count] {
                    click_cell(c, p).await;
                }
                until(c, "!document.getElementById('send-offer').disabled").await;
                click(c, "send-offer").await;
            }
            "pick" => {
                let first = ask["offered"][0].as_str().unwrap().to_string();
                until(
                    c,
                    &format!("!!document.querySelector(\"[data-offered='{first}']\")"),
                )
                .await;
                click_cell(c, &first).await;
            }
            other => panic!("unknown step {other}"),
        }
        served.wait_state(&id, |s| s["version"].as_u64().unwrap() > version);
        took.push(kind);
    }
    panic!("the opening never ended: {took:?}");
}

#[tokio::test]
async fn taraguchi_10_and_swap2_openings_through_the_page_in_both_roles() {
    let Some(driver) =
        Driver::start("taraguchi_10_and_swap2_openings_through_the_page_in_both_roles")
    else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    for (game, opening) in [("renju", "taraguchi-10"), ("gomoku", "swap2")] {
        for players in [["human", "engine"], ["engine", "human"]] {
            start_opening(&c, &served, game, opening, players).await;
            let took = play_opening_by_clicks(&c, &served).await;
            let st = page_state(&c, &served).await;
            assert!(st["opening"]["asked"].is_null(), "{st}");
            assert_eq!(st["opening"]["rule"], json!(opening), "{st}");
            let stones = pieces(&st);
            // Taraguchi ends at five stones (the 5th placed, or an offer picked), swap2 at
            // three or five; the engine may have replied since.
            let least = if opening == "taraguchi-10" { 5 } else { 3 };
            assert!(stones >= least, "{players:?} {took:?}");
            assert!(!took.is_empty(), "{players:?}");
            let record =
                served.get_text(&format!("/api/games/{}/record", st["id"].as_str().unwrap()));
            assert!(
                record.contains(&format!("[Opening \"{opening}\"]")),
                "{record}"
            );
            // Normal play goes on: whoever is to move, the page says so.
            until(
                &c,
                "document.getElementById('status').textContent.includes('to move') \
                 && document.getElementById('opening-box').hidden",
            )
            .await;
            screenshot(&c, &format!("opening-{opening}")).await;
        }
    }
    c.close().await.unwrap();
}

#[tokio::test]
async fn review_an_earlier_position_and_the_evaluation_graph() {
    let Some(driver) = Driver::start("review_an_earlier_position_and_the_evaluation_graph") else {
        return;
    };
    let served = Served::start();
    let c = driver.browser().await;
    // White blundered a1 a3 a5 while Black built an open three: the review marks them.
    start_game(
        &c,
        &served,
        "gomoku",
        ["human", "engine"],
        "h8 a1 i8 a3 j8 a5",
    )
    .await;
    click_cell(&c, "k8").await;
    until(&c, "document.querySelectorAll('#moves li').length === 8").await;
    // Click the 2nd move: the board shows two stones; back to the game: eight.
    c.find(Locator::Css("#moves li[data-turn='2']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &c,
        "!document.getElementById('viewing').hidden \
         && document.querySelectorAll('[data-stone]').length === 2",
    )
    .await;
    assert!(text(&c, "viewing-text").await.contains("after move 2 of 8"));
    // A click on the board while looking back plays nothing.
    click_cell(&c, "h10").await;
    until(
        &c,
        "document.getElementById('message').textContent.includes('Back to the game')",
    )
    .await;
    click(&c, "back").await;
    until(
        &c,
        "document.getElementById('viewing').hidden \
         && document.querySelectorAll('[data-stone]').length === 8",
    )
    .await;
    // The review: a plot of the evaluation, one dot a turn, the worst turns marked.
    click(&c, "review").await;
    until(
        &c,
        "document.querySelectorAll('#graph [data-graph-turn]').length === 8",
    )
    .await;
    assert_eq!(
        js(&c, "!!document.querySelector('#graph polyline')").await,
        json!(true)
    );
    until(
        &c,
        "document.querySelectorAll('#moves li.worst').length >= 1",
    )
    .await;
    let marked = text(&c, "moves").await;
    assert!(marked.contains("better"), "{marked}");
    screenshot(&c, "review").await;
    // A dot of the graph shows its position.
    c.find(Locator::Css("#graph [data-graph-turn='4']"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(&c, "document.querySelectorAll('[data-stone]').length === 4").await;
    c.close().await.unwrap();
}
