//! `qi serve` over HTTP: the API's answers to good and bad requests, checked against the rules
//! (a renju forbidden point, a connect6 two-stone turn, a blocked xiangqi rook, a cannon's
//! capture), engine replies, undo, resignation and a record loaded back.

mod support;

use serde_json::{Value, json};
use support::{Served, piece_at, pieces};

fn id(state: &Value) -> String {
    state["id"].as_str().expect("an id").to_string()
}

#[test]
fn catalog_lists_every_registered_game() {
    let s = Served::start();
    let (status, c) = s.get("/api/catalog");
    assert_eq!(status, 200);
    let names: Vec<&str> = c["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    // The same games, in the same order, as the command line's help lists.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
        .arg("--help")
        .output()
        .expect("qi --help runs");
    let help = String::from_utf8(help.stdout).unwrap();
    let listed: Vec<&str> = help
        .split("Games:")
        .nth(1)
        .expect("the help lists the games")
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(listed.len() >= 5, "{help}");
    assert_eq!(names, listed);
    let xiangqi = names.iter().position(|&n| n == "xiangqi").unwrap();
    assert_eq!(c["games"][xiangqi]["sides"], json!(["Red", "Black"]));
    // The page and its files are served.
    let page = s.get_text("/");
    assert!(
        page.contains("<script type=\"module\" src=\"/app.js\">"),
        "{page}"
    );
    assert!(s.get_text("/app.js").contains("EventSource"));
}

#[test]
fn bad_requests_get_a_reason_and_change_nothing() {
    let s = Served::start();
    let cases: &[(&str, Value, u16, &str)] = &[
        (
            "/api/games",
            json!({"game": "chess"}),
            400,
            "'chess': unknown game",
        ),
        ("/api/games", json!({}), 400, "needs \"game\""),
        (
            "/api/games",
            json!({"game": "gomoku", "size": 40}),
            400,
            "size",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "colour": 1}),
            422,
            "unknown field `colour`",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "players": ["human", "robot"]}),
            400,
            "'robot': not a player",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "movetime_ms": 0}),
            400,
            "movetime_ms 0 is out of range",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "depth": 101}),
            400,
            "depth 101 is out of range: 1 to 100",
        ),
        (
            "/api/games",
            json!({"game": "xiangqi", "fen": "rnbakabnr/9/9 w"}),
            400,
            "FEN",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "moves": "h8 h8"}),
            400,
            "occupied",
        ),
        ("/api/games", json!({"record": "1. h8 *"}), 400, "no [Game"),
        (
            "/api/games",
            json!({"game": "gomoku", "black": "h8 h9", "white": "a1", "to_move": "purple"}),
            400,
            "to_move: 'purple': not a side: expected black or white",
        ),
        (
            "/api/games",
            json!({"game": "gomoku", "moves": "h8 \u{1b}[2J"}),
            400,
            "\\u{1b}",
        ),
        (
            "/api/games/0000/move",
            json!({"move": "h8"}),
            404,
            "no game with this id",
        ),
    ];
    for (path, body, code, words) in cases {
        let (status, answer) = s.post(path, body);
        assert_eq!(status, *code, "{path} {body}: {answer}");
        let reason = answer["error"].as_str().unwrap_or_default();
        assert!(reason.contains(words), "{path} {body}: {reason}");
    }
    let (status, answer) = s.post_raw("/api/games", "{not json", "application/json");
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("not what was expected")
    );
    let (status, _) = s.get("/api/nothing-here");
    assert_eq!(status, 404);
    let (status, answer) = s.get("/api/games");
    assert_eq!(status, 405);
    assert_eq!(
        answer["error"],
        json!("GET /api/games: this path takes POST only (reads are GET, changes POST)")
    );

    let game = s.create(&json!({"game": "gomoku", "players": ["human", "human"], "moves": "h8"}));
    let g = id(&game);
    for (body, code, words) in [
        (json!({"move": "h8"}), 400, "occupied"),
        (json!({"move": "z99"}), 400, "z99"),
        (json!({"move": ""}), 400, ""),
        (json!({"mv": "h9"}), 422, "unknown field `mv`"),
        (json!({"move": 5}), 422, "invalid type"),
    ] {
        let (status, answer) = s.as_seat(&g, 1, "move", &body);
        assert_eq!(status, code, "{body}: {answer}");
        assert!(
            answer["error"].as_str().unwrap().contains(words),
            "{answer}"
        );
    }
    let after = s.get(&format!("/api/games/{g}")).1;
    assert_eq!(
        after["version"], game["version"],
        "a refused move changed the game"
    );
    assert_eq!(after["moves"], game["moves"]);
}

#[test]
fn renju_forbidden_point_is_marked_and_refused() {
    let s = Served::start();
    // Black's g8 h8 and i9 i10 make i8 a double three.
    let game = s.create(&json!({
        "game": "renju", "players": ["human", "human"], "moves": "g8 a1 h8 a3 i10 a5 i9 o15",
    }));
    assert_eq!(game["board"]["hints"], json!([[8, 7]]));
    assert_eq!(
        game["board"]["hint_meaning"],
        json!("forbidden for Black under renju")
    );
    let (status, answer) = s.play(&id(&game), "i8");
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("forbidden"),
        "{answer}"
    );
    // White may play there.
    let (status, _) = s.play(&id(&game), "o1");
    assert_eq!(status, 200);
    let (status, after) = s.play(&id(&game), "i8");
    assert_eq!(status, 200, "{after}");
    assert_eq!(piece_at(&after, "i8")["side"], json!(1));
}

#[test]
fn connect6_turn_is_two_stones_played_one_by_one() {
    let s = Served::start();
    let game = s.create(&json!({"game": "connect6", "players": ["human", "human"]}));
    let g = id(&game);
    let mv = |text: &str| s.play(&g, text);
    let (_, one) = mv("j10");
    assert_eq!(
        (one["to_move"].clone(), one["pending"].clone()),
        (json!(1), json!(false))
    );
    let (_, half) = mv("k10");
    assert_eq!(
        (half["to_move"].clone(), half["pending"].clone()),
        (json!(1), json!(true))
    );
    assert_eq!(half["board"]["last"], json!([[10, 9]]));
    let (_, full) = mv("k11");
    assert_eq!(
        (full["to_move"].clone(), full["pending"].clone()),
        (json!(0), json!(false))
    );
    assert_eq!(full["moves"][1]["text"], json!("k10k11"));
    // Undo takes back the whole turn of two stones (with White's key: White played it).
    let (_, undone) = s.as_seat(&g, 1, "undo", &json!(null));
    assert_eq!(pieces(&undone), 1);
    assert_eq!(undone["to_move"], json!(1));
}

#[test]
fn xiangqi_blocked_rook_is_refused_and_a_cannon_captures() {
    let s = Served::start();
    let game = s.create(&json!({"game": "xiangqi", "players": ["human", "human"]}));
    let g = id(&game);
    let mv = |text: &str| s.play(&g, text);
    let (status, answer) = mv("a0a5");
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("blocked"),
        "{answer}"
    );
    assert!(game["legal"].as_array().unwrap().contains(&json!("h2e2")));
    assert_eq!(game["board"]["click"], json!("from-to"));
    let (_, first) = mv("h2e2");
    assert_eq!(
        first["moves"][0]["notations"],
        json!({"ICCS": "h2e2", "WXF": "C2.5", "Chinese": "炮二平五"})
    );
    assert_eq!(mv("h9g7").0, 200);
    assert_eq!(
        piece_at(&s.get(&format!("/api/games/{g}")).1, "b9")["name"],
        json!("horse")
    );
    let (status, after) = mv("b2b9");
    assert_eq!(status, 200, "{after}");
    let taker = piece_at(&after, "b9");
    assert_eq!(
        (taker["side"].clone(), taker["name"].clone()),
        (json!(0), json!("cannon"))
    );
    assert_eq!(pieces(&after), 31);
}

#[test]
fn engine_replies_and_undo_gives_the_turn_back() {
    let s = Served::start();
    let game = s.create(&json!({"game": "gomoku", "players": ["human", "engine"], "depth": 2}));
    let g = id(&game);
    let (status, _) = s.as_seat(&g, 0, "move", &json!({"move": "h8"}));
    assert_eq!(status, 200);
    let replied = s.wait_state(&g, |st| {
        st["moves"].as_array().unwrap().len() == 2 && st["thinking"] == json!(false)
    });
    assert_eq!(replied["to_move"], json!(0));
    // The person's undo takes back the engine's reply and the person's move.
    let (_, undone) = s.as_seat(&g, 0, "undo", &json!(null));
    assert_eq!(undone["moves"], json!([]));
    assert_eq!(undone["to_move"], json!(0));
    let (status, answer) = s.as_seat(&g, 0, "undo", &json!(null));
    assert_eq!(status, 409, "{answer}");
    // An engine moving first plays at once.
    let first = s.create(&json!({"game": "connect4", "players": ["engine", "human"], "depth": 3}));
    let moved = s.wait_state(&id(&first), |st| {
        st["to_move"] == json!(1) && st["thinking"] == json!(false)
    });
    assert_eq!(pieces(&moved), 1);
    let (status, hint) = s.as_seat(&id(&first), 1, "hint", &json!(null));
    assert_eq!(status, 200, "{hint}");
    assert!(hint["bestmove"].is_string(), "{hint}");
}

#[test]
fn resignation_and_a_record_loaded_back() {
    let s = Served::start();
    let game = s.create(&json!({
        "game": "xiangqi", "players": ["human", "human"], "moves": "h2e2 h9g7 h0g2",
    }));
    let g = id(&game);
    let (_, resigned) = s.as_seat(&g, 1, "resign", &json!(null));
    assert_eq!(
        resigned["ending"]["text"],
        json!("Red wins: Black resigned")
    );
    assert_eq!(resigned["ending"]["result"], json!("1-0"));
    let (status, _) = s.as_seat(&g, 1, "move", &json!({"move": "a9a8"}));
    assert_eq!(status, 409);
    let record = s.get_text(&format!("/api/games/{g}/record"));
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    // Loaded back, the resigned game is over as its record says.
    let loaded = s.create(&json!({"record": record, "players": ["human", "human"]}));
    assert_eq!(loaded["ending"]["text"], json!("Red wins: Black resigned"));
    // Undo takes back the resignation, not a move.
    let (_, reopened) = s.as_seat(&g, 1, "undo", &json!(null));
    assert_eq!(reopened["ending"], Value::Null);
    assert_eq!(reopened["moves"].as_array().unwrap().len(), 3);
    let record = s.get_text(&format!("/api/games/{g}/record"));
    let loaded = s.create(&json!({"record": record, "players": ["human", "human"]}));
    assert_eq!(loaded["game"], json!("xiangqi"));
    assert_eq!(loaded["moves"], reopened["moves"]);
    assert_eq!(loaded["board"], reopened["board"]);
}

/// The reason of a refusal.
fn reason(answer: &Value) -> &str {
    answer["error"].as_str().unwrap_or_default()
}

#[test]
fn seats_are_kept_a_watcher_and_the_other_seat_change_nothing() {
    let s = Served::start();
    let game = s.create(&json!({"game": "gomoku", "players": ["human", "human"]}));
    let g = id(&game);
    let (black, white) = (s.seat_key(&g, 0), s.seat_key(&g, 1));
    let invite = game["invite"].as_str().expect("an invitation").to_string();
    assert_eq!(game["invitation"], json!("open"));
    assert_ne!(black, white);
    let path = |action: &str| format!("/api/games/{g}/{action}");
    let at = format!("/api/games/{g}");
    let version = |s: &Served| s.get(&at).1["version"].clone();
    let before = version(&s);

    // A watcher (no key) and the wrong seat are refused, whatever they ask.
    for action in ["move", "undo", "resign", "hint", "stop"] {
        let body = json!({"move": "h8"});
        let body = if action == "move" {
            &body
        } else {
            &Value::Null
        };
        let (status, answer) = s.post_as(&path(action), body, None);
        assert_eq!(status, 403, "{action}: {answer}");
        assert!(reason(&answer).contains("read-only"), "{action}: {answer}");
    }
    let (status, answer) = s.post_as(&path("move"), &json!({"move": "h8"}), Some(&white));
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        reason(&answer),
        "a move needs the key of Black's seat; this key is White's"
    );
    for action in ["hint", "stop"] {
        let (status, answer) = s.post_as(&path(action), &Value::Null, Some(&white));
        assert_eq!(status, 403, "{action}: {answer}");
    }
    // A well-formed key that is nobody's, and malformed headers.
    let nobody = "0123456789abcdef0123456789abcdef";
    let (status, answer) = s.post_as(&path("move"), &json!({"move": "h8"}), Some(nobody));
    assert_eq!(status, 403, "{answer}");
    for header in ["Basic aGVsbG8=", "Bearer", "Bearer 1234", "Bearer ???"] {
        let (status, answer) = s.post_headers(
            &path("move"),
            r#"{"move": "h8"}"#,
            &[
                ("Content-Type", "application/json"),
                ("Authorization", header),
            ],
        );
        assert_eq!(status, 400, "{header}: {answer}");
        assert!(reason(&answer).contains("Authorization"), "{answer}");
    }
    assert_eq!(version(&s), before, "a refused request changed the game");

    // Black's key moves for Black.
    let (status, _) = s.post_as(&path("move"), &json!({"move": "h8"}), Some(&black));
    assert_eq!(status, 200);

    // The invitation: a wrong one is refused, the right one claims White's seat once.
    let (status, answer) = s.post(&path("claim"), &json!({"invite": nobody}));
    assert_eq!(
        (status, reason(&answer)),
        (
            403,
            "not this game's invitation: check the link you were sent"
        )
    );
    let (status, seat) = s.post(&path("claim"), &json!({"invite": invite}));
    assert_eq!(status, 200, "{seat}");
    assert_eq!(
        (seat["side"].clone(), seat["side_name"].clone()),
        (json!(1), json!("White"))
    );
    let friend = seat["key"].as_str().unwrap().to_string();
    assert_eq!(friend.len(), 32);
    let (status, answer) = s.post(&path("claim"), &json!({"invite": invite}));
    assert_eq!(status, 409, "{answer}");
    assert!(reason(&answer).contains("used already"), "{answer}");
    let state = s.get(&at).1;
    assert_eq!(state["invitation"], json!("claimed"));

    // The creator's key to White stopped working; the friend's moves for White.
    let (status, answer) = s.post_as(&path("move"), &json!({"move": "h9"}), Some(&white));
    assert_eq!(status, 403, "{answer}");
    assert!(
        reason(&answer).contains("this key is no seat's in this game"),
        "{answer}"
    );
    let (status, answer) = s.post_as(&path("move"), &json!({"move": "h9"}), Some(&black));
    assert_eq!(status, 403, "{answer}");
    let (status, _) = s.post_as(&path("move"), &json!({"move": "h9"}), Some(&friend));
    assert_eq!(status, 200);

    // Black may not take back White's move; White may.
    let (status, answer) = s.post_as(&path("undo"), &Value::Null, Some(&black));
    assert_eq!(status, 403, "{answer}");
    assert_eq!(
        reason(&answer),
        "taking back this turn needs the key of White's seat; this key is Black's"
    );
    let (status, undone) = s.post_as(&path("undo"), &Value::Null, Some(&friend));
    assert_eq!(status, 200, "{undone}");
    assert_eq!(undone["moves"].as_array().unwrap().len(), 1);

    // A watcher cannot resign for anyone; White resigns for White.
    let (status, _) = s.post_as(&path("resign"), &Value::Null, None);
    assert_eq!(status, 403);
    let (status, resigned) = s.post_as(&path("resign"), &Value::Null, Some(&friend));
    assert_eq!(status, 200);
    assert_eq!(
        resigned["ending"]["text"],
        json!("Black wins: White resigned")
    );

    // No key is ever part of a state or a record.
    let text = format!("{}{}", s.get(&at).1, s.get_text(&path("record")));
    for secret in [&black, &white, &friend, &invite] {
        assert!(!text.contains(secret.as_str()), "a key leaked: {text}");
    }
}

#[test]
fn a_person_against_the_engine_holds_both_keys_and_a_watcher_cannot_stop_it() {
    let s = Served::start();
    let game =
        s.create(&json!({"game": "gomoku", "players": ["human", "engine"], "movetime_ms": 60000}));
    let g = id(&game);
    assert_eq!(game["invite"], Value::Null);
    assert_eq!(game["invitation"], Value::Null);
    let (status, answer) = s.post(&format!("/api/games/{g}/claim"), &json!({"invite": "x"}));
    assert_eq!(status, 409, "{answer}");
    assert!(reason(&answer).contains("no invitation"), "{answer}");
    let (status, _) = s.as_seat(&g, 0, "move", &json!({"move": "h8"}));
    assert_eq!(status, 200);
    // The engine thinks for up to a minute: a watcher cannot make it move now.
    let thinking = s.wait_state(&g, |st| st["thinking"] == json!(true));
    let (status, answer) = s.post_as(&format!("/api/games/{g}/stop"), &Value::Null, None);
    assert_eq!(status, 403, "{answer}");
    let (status, answer) = s.post_as(&format!("/api/games/{g}/undo"), &Value::Null, None);
    assert_eq!(status, 403, "{answer}");
    let still = s.get(&format!("/api/games/{g}")).1;
    assert_eq!(still["moves"], thinking["moves"]);
    // The creator holds the engine's seat key too: "Move now".
    let (status, stopped) = s.as_seat(&g, 1, "stop", &Value::Null);
    assert_eq!((status, stopped), (200, json!({"stopped": true})));
    let replied = s.wait_state(&g, |st| {
        st["moves"].as_array().unwrap().len() == 2 && st["thinking"] == json!(false)
    });
    assert_eq!(replied["to_move"], json!(0));
    // The engine seat's key resigns for the person.
    let (status, resigned) = s.as_seat(&g, 1, "resign", &Value::Null);
    assert_eq!(status, 200, "{resigned}");
    assert_eq!(
        resigned["ending"]["text"],
        json!("White wins: Black resigned")
    );
}

#[test]
fn limits_are_shown_and_a_full_server_refuses_new_games() {
    let s = Served::start_with(&["--games", "2", "--idle", "1h", "--engine-memory", "32"]);
    let (status, limits) = s.get("/api/limits");
    assert_eq!(status, 200);
    assert_eq!(
        limits,
        json!({
            "games": 2, "games_open": 0, "idle_s": 3600.0, "searches": 2, "searches_running": 0,
            "engine_table_mib": 16, "engine_tables": 2, "engine_tables_held": 0,
            "movetime_ms_max": 60000, "body_bytes_max": 262144,
        })
    );
    let first = s.create(&json!({"game": "connect4", "players": ["human", "human"]}));
    s.create(&json!({"game": "connect4", "players": ["human", "human"]}));
    let (status, answer) = s.post("/api/games", &json!({"game": "connect4"}));
    assert_eq!(status, 503, "{answer}");
    assert!(
        reason(&answer).contains("at most 2 open games (qi serve --games)"),
        "{answer}"
    );
    assert!(reason(&answer).contains("dropped in about"), "{answer}");
    // No game was dropped to make room.
    assert_eq!(s.get(&format!("/api/games/{}", id(&first))).0, 200);
    assert_eq!(s.get("/api/limits").1["games_open"], json!(2));
    // The limits are options: bad values are refused with a reason.
    for (option, value, words) in [
        ("--games", "0", "0 is not in 1..=100000"),
        ("--idle", "0.5s", "under a second"),
        ("--idle", "soon", "soon"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(["serve", "--port", "0", option, value])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(words), "{option} {value}: {err}");
    }
}

#[test]
fn an_idle_game_is_dropped_and_its_pages_are_told() {
    let s = Served::start_with(&["--idle", "2s"]);
    let game = s.create(&json!({"game": "connect4", "players": ["human", "human"]}));
    let g = id(&game);
    assert!(game["drops_in_s"].as_u64().unwrap() <= 2, "{game}");
    let at = format!("/api/games/{g}");
    // A page following the game gets a `dropped` event, and its stream ends.
    let url = format!("{}api/games/{g}/events", s.url);
    let follower = std::thread::spawn(move || {
        let res = ureq::get(&url).call().expect("the event stream");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut res.into_body().into_reader(), &mut text)
            .expect("the stream ends");
        text
    });
    // Moving keeps the game until the page follows it, however long that takes.
    while s.get(&at).1["watchers"] != json!(1) {
        assert_eq!(s.play(&g, "4").0, 200);
        assert_eq!(s.as_seat(&g, 0, "undo", &json!(null)).0, 200);
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let start = std::time::Instant::now();
    while s.get(&at).0 != 404 {
        assert!(
            start.elapsed().as_secs() < 60,
            "the idle game was never dropped"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let text = follower.join().unwrap();
    assert!(text.contains("event: state"), "{text}");
    assert!(
        text.contains(
            "event: dropped\ndata: {\"reason\":\"this game was dropped after 2 s without a change"
        ),
        "{text}"
    );
}

#[test]
fn engine_table_grows_at_the_first_search_and_is_given_back_at_the_end() {
    let s = Served::start();
    // A game of two people never allocates the engine's full table.
    let people = s.create(&json!({"game": "connect6", "players": ["human", "human"]}));
    assert_eq!(people["engine_table_mib"], json!(1));
    // A hint in the middle of a connect6 turn grows it: the game is rebuilt with the full
    // table from its record, first stone of the turn included, and is the same game.
    let g = id(&people);
    s.play(&g, "j10");
    let (_, half) = s.play(&g, "k10");
    assert_eq!(half["pending"], json!(true));
    let (status, hint) = s.as_seat(&g, 1, "hint", &json!(null));
    assert_eq!(status, 200, "{hint}");
    let grown = s.get(&format!("/api/games/{g}")).1;
    assert_eq!(grown["engine_table_mib"], json!(16));
    for field in ["board", "moves", "legal", "pending", "to_move"] {
        assert_eq!(grown[field], half[field], "{field} changed");
    }
    assert_eq!(s.get("/api/limits").1["engine_tables_held"], json!(1));
    // The game ends (a resignation): the table is given back within a second or so.
    let (status, _) = s.as_seat(&g, 1, "resign", &json!(null));
    assert_eq!(status, 200);
    let freed = s.wait_state(&g, |st| st["engine_table_mib"] == json!(1));
    assert_eq!(freed["board"], half["board"]);
    assert_eq!(s.get("/api/limits").1["engine_tables_held"], json!(0));
}

#[test]
fn an_engine_game_plays_on_without_a_page() {
    let s = Served::start();
    let game = s.create(&json!({"game": "connect4", "players": ["engine", "engine"], "depth": 2}));
    // No page ever follows this game.
    let played = s.wait_state(&id(&game), |st| st["moves"].as_array().unwrap().len() >= 6);
    assert_eq!(played["watchers"], json!(0));
    assert_eq!(played["engine_table_mib"], json!(16));
    // Nobody resigns an engines' game, and the refusal does not stop the engine thinking.
    // Corner stones: no book move, no forced move, so the engine thinks for its minute.
    let slow = s.create(&json!({
        "game": "gomoku", "players": ["engine", "engine"], "movetime_ms": 60000,
        "moves": "a1 o15 a15 o1",
    }));
    let g = id(&slow);
    let before = s.wait_state(&g, |st| st["thinking"] == json!(true));
    let (status, answer) = s.as_seat(&g, 0, "resign", &json!(null));
    assert_eq!(status, 409, "{answer}");
    assert!(reason(&answer).contains("only engines"), "{answer}");
    let still = s.get(&format!("/api/games/{g}")).1;
    assert_eq!(
        (still["thinking"].clone(), still["moves"].clone()),
        (json!(true), before["moves"].clone())
    );
    // Its creator may make it move now.
    let (status, _) = s.as_seat(&g, 0, "stop", &json!(null));
    assert_eq!(status, 200);
    s.wait_state(&g, |st| st["moves"].as_array().unwrap().len() > 4);
}

#[test]
fn every_route_answers_bad_input_with_a_reason() {
    let s = Served::start();
    let game = s.create(&json!({"game": "gomoku", "players": ["human", "human"]}));
    let g = id(&game);
    // Unknown ids on every route.
    for path in ["state", "events", "record"] {
        let p = if path == "state" {
            "/api/games/ffff".to_string()
        } else {
            format!("/api/games/ffff/{path}")
        };
        let (status, answer) = s.get(&p);
        assert_eq!(status, 404, "{p}: {answer}");
        assert!(reason(&answer).contains("no game with this id"), "{answer}");
    }
    for action in ["claim", "move", "undo", "resign", "stop", "hint"] {
        let (status, answer) = s.post(&format!("/api/games/ffff/{action}"), &json!({}));
        assert_eq!(status, 404, "{action}: {answer}");
    }
    // Bodies: not JSON, wrong fields, wrong types, too big.
    let claim = format!("/api/games/{g}/claim");
    for (body, code, words) in [
        ("{", 400, "not what was expected"),
        ("{\"key\": \"x\"}", 422, "unknown field `key`"),
        ("{\"invite\": 7}", 422, "invalid type"),
        ("null", 422, "invalid type"),
    ] {
        let (status, answer) = s.post_raw(&claim, body, "application/json");
        assert_eq!(status, code, "{body}: {answer}");
        assert!(reason(&answer).contains(words), "{body}: {answer}");
    }
    let (status, answer) = s.post_raw(&claim, "{\"invite\": \"x\"}", "text/plain");
    assert_eq!(status, 415, "{answer}");
    let huge = format!("{{\"move\": \"{}\"}}", "h".repeat(300 * 1024));
    let (status, answer) = s.post_headers(
        &format!("/api/games/{g}/move"),
        &huge,
        &[
            ("Content-Type", "application/json"),
            ("Authorization", &format!("Bearer {}", s.seat_key(&g, 0))),
        ],
    );
    assert_eq!(status, 413, "{answer}");
    // Wrong methods.
    for (path, words) in [
        ("/api/limits", "POST /api/limits: this path takes GET only"),
        (
            "/api/catalog",
            "POST /api/catalog: this path takes GET only",
        ),
    ] {
        let (status, answer) = s.post(path, &json!({}));
        assert_eq!(status, 405, "{path}: {answer}");
        assert!(reason(&answer).contains(words));
    }
    let (status, _) = s.get(&claim);
    assert_eq!(status, 405);
    // Nothing changed.
    let after = s.get(&format!("/api/games/{g}")).1;
    assert_eq!(after["version"], game["version"]);
    assert_eq!(after["invitation"], json!("open"));
}

/// A game on a clock: the state shows both clocks (the side to move's running, the other
/// gaining its increment after its turn), the engine answers on its own clock, the record
/// carries the time control and each turn's time, and a person who never moves loses on
/// time, which undo cannot take back. Bad clocks and levels are refused.
#[test]
fn clocks_run_and_a_flag_fall_ends_the_game() {
    let s = Served::start();
    let game = s.create(&json!({
        "game": "xiangqi", "players": ["human", "engine"], "clock": "5+1", "level": 1,
    }));
    let g = id(&game);
    assert_eq!(game["clock"]["control"], json!("5s+1s"));
    assert_eq!(game["clock"]["running"], json!(0));
    assert_eq!(game["level"], json!(1));
    let (status, _) = s.as_seat(&g, 0, "move", &json!({"move": "h2e2"}));
    assert_eq!(status, 200);
    let replied = s.wait_state(&g, |st| {
        st["moves"].as_array().unwrap().len() == 2 && st["thinking"] == json!(false)
    });
    let clock = &replied["clock"];
    assert_eq!(clock["running"], json!(0), "{clock}");
    // Black's engine answered on its own clock, with time to spare.
    let black = clock["remaining_ms"][1].as_u64().unwrap();
    assert!(black > 0, "{clock}");
    let record = s.get_text(&format!("/api/games/{g}/record"));
    assert!(record.contains("[TimeControl \"5+1\"]"), "{record}");
    assert_eq!(record.matches("[%emt ").count(), 2, "{record}");
    // Red never moves again: its flag falls (the server ends the game by itself).
    let over = s.wait_state(&g, |st| !st["ending"].is_null());
    assert_eq!(over["ending"]["result"], json!("0-1"), "{over}");
    assert!(
        over["ending"]["reason"]
            .as_str()
            .unwrap()
            .contains("Red ran out of time"),
        "{over}"
    );
    assert_eq!(over["clock"]["remaining_ms"][0], json!(0), "{over}");
    assert_eq!(over["clock"]["running"], json!(null), "{over}");
    let (status, answer) = s.as_seat(&g, 0, "undo", &json!(null));
    assert_eq!(status, 409, "{answer}");
    assert!(reason(&answer).contains("lost on time"), "{answer}");
    let (status, answer) = s.as_seat(&g, 0, "move", &json!({"move": "h0g2"}));
    assert_eq!(status, 409, "{answer}");
    // Bad clocks and levels: 400 with the reason.
    for (body, needle) in [
        (json!({"game": "gomoku", "clock": "0+1"}), "bad clock '0+1'"),
        (
            json!({"game": "gomoku", "clock": "fast"}),
            "bad clock 'fast'",
        ),
        (json!({"game": "gomoku", "level": 9}), "bad level '9'"),
        (json!({"game": "gomoku", "level": 0}), "bad level '0'"),
        (
            json!({"game": "gomoku", "level": 300}),
            "level: bad level '300'",
        ),
        (
            json!({"game": "gomoku", "level": "3"}),
            "level: bad level '\"3\"'",
        ),
        (
            json!({"game": "gomoku", "level": 3.5}),
            "level: bad level '3.5'",
        ),
        (
            json!({"game": "gomoku", "clock": "5m", "movetime_ms": 200}),
            "a clock or a time per move",
        ),
    ] {
        let (status, answer) = s.post("/api/games", &body);
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(reason(&answer).contains(needle), "{body}: {answer}");
    }
    // A hint shows the best few lines.
    let game = s.create(&json!({"game": "xiangqi", "players": ["human", "engine"], "depth": 3}));
    let (status, hint) = s.as_seat(&id(&game), 0, "hint", &json!(null));
    assert_eq!(status, 200, "{hint}");
    let lines = hint["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{hint}");
    assert_eq!(lines[0]["pv"][0], hint["bestmove"], "{hint}");
}

#[test]
fn an_opening_rule_over_the_api_seats_each_step_and_swaps_the_seats() {
    let s = Served::start();
    // Two people under the RIF rule: the first player's key places the first three stones.
    let st = s.create(&json!({"game": "renju", "opening": "rif", "players": ["human", "human"]}));
    let g = st["id"].as_str().unwrap().to_string();
    assert_eq!(st["opening"]["rule"], json!("rif"));
    assert_eq!(st["opening"]["asked"]["kind"], json!("place"));
    assert_eq!(st["opening"]["asked"]["allowed"], json!(["h8"]));
    let mv = |seat: usize, text: &str| s.as_seat(&g, seat, "move", &json!({ "move": text }));
    let (status, e) = mv(0, "a1");
    assert_eq!(status, 400, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("centre point, h8"),
        "{e}"
    );
    for p in ["h8", "i9", "j10"] {
        let (status, st) = mv(0, p);
        assert_eq!(status, 200, "{st}");
    }
    // The other player (seat 1) swaps: seat 0 now holds White and plays the 4th stone.
    let (status, e) = mv(0, "swap");
    assert_eq!(status, 403, "{e}");
    let (status, st) = mv(1, "swap");
    assert_eq!(status, 200, "{st}");
    assert_eq!(
        (st["swapped"].clone(), st["actor"].clone()),
        (json!(true), json!(0))
    );
    let (status, st) = mv(0, "g7");
    assert_eq!(status, 200, "{st}");
    // Black (seat 1) offers two 5th moves; symmetric ones are refused.
    assert_eq!(st["opening"]["asked"]["kind"], json!("offer"));
    assert_eq!(st["actor"], json!(1));
    let (status, e) = mv(1, "k8 h11");
    assert_eq!(status, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("symmetric"), "{e}");
    let (_, st) = mv(1, "k8 k9");
    assert_eq!(st["opening"]["asked"]["offered"], json!(["k8", "k9"]));
    let (status, st) = mv(0, "k9");
    assert_eq!(status, 200, "{st}");
    assert!(st["opening"]["asked"].is_null(), "{st}");
    // Normal play: White to move, held by seat 0 after the swap.
    assert_eq!(
        (st["to_move"].clone(), st["actor"].clone()),
        (json!(1), json!(0))
    );
    let record = s.get_text(&format!("/api/games/{g}/record"));
    assert!(
        record.contains("[OpeningSteps \"h8; i9; j10; swap; g7; offer k8 k9; k9\"]"),
        "{record}"
    );
    // An opening rule for a game that has none, or for a record, is refused.
    let (status, e) = s.post(
        "/api/games",
        &json!({"game": "xiangqi", "opening": "swap2"}),
    );
    assert_eq!(status, 400, "{e}");
    // A renju game without a rule starts at the centre.
    let st = s.create(&json!({"game": "renju", "players": ["human", "human"]}));
    assert_eq!(st["opening"]["rule"], json!("centre"));
}
