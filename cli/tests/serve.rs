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
    assert_eq!(
        names,
        ["gomoku", "renju", "connect6", "xiangqi", "connect4"]
    );
    assert_eq!(c["games"][3]["sides"], json!(["Red", "Black"]));
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
            json!({"game": "gomoku", "depth": 99}),
            400,
            "depth 99 is out of range",
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
    assert!(
        answer["error"].as_str().unwrap().contains("wrong method"),
        "{answer}"
    );

    let game = s.create(&json!({"game": "gomoku", "players": ["human", "human"], "moves": "h8"}));
    let g = id(&game);
    for (body, code, words) in [
        (json!({"move": "h8"}), 400, "occupied"),
        (json!({"move": "z99"}), 400, "z99"),
        (json!({"move": ""}), 400, ""),
        (json!({"mv": "h9"}), 422, "unknown field `mv`"),
    ] {
        let (status, answer) = s.post(&format!("/api/games/{g}/move"), &body);
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
    let (status, answer) = s.post(
        &format!("/api/games/{}/move", id(&game)),
        &json!({"move": "i8"}),
    );
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("forbidden"),
        "{answer}"
    );
    // White may play there.
    let (status, _) = s.post(
        &format!("/api/games/{}/move", id(&game)),
        &json!({"move": "o1"}),
    );
    assert_eq!(status, 200);
    let (status, after) = s.post(
        &format!("/api/games/{}/move", id(&game)),
        &json!({"move": "i8"}),
    );
    assert_eq!(status, 200, "{after}");
    assert_eq!(piece_at(&after, "i8")["side"], json!(1));
}

#[test]
fn connect6_turn_is_two_stones_played_one_by_one() {
    let s = Served::start();
    let game = s.create(&json!({"game": "connect6", "players": ["human", "human"]}));
    let g = id(&game);
    let mv = |text: &str| s.post(&format!("/api/games/{g}/move"), &json!({"move": text}));
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
    // Undo takes back the whole turn of two stones.
    let (_, undone) = s.post(&format!("/api/games/{g}/undo"), &json!(null));
    assert_eq!(pieces(&undone), 1);
    assert_eq!(undone["to_move"], json!(1));
}

#[test]
fn xiangqi_blocked_rook_is_refused_and_a_cannon_captures() {
    let s = Served::start();
    let game = s.create(&json!({"game": "xiangqi", "players": ["human", "human"]}));
    let g = id(&game);
    let mv = |text: &str| s.post(&format!("/api/games/{g}/move"), &json!({"move": text}));
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
    let (status, _) = s.post(&format!("/api/games/{g}/move"), &json!({"move": "h8"}));
    assert_eq!(status, 200);
    let replied = s.wait_state(&g, |st| {
        st["moves"].as_array().unwrap().len() == 2 && st["thinking"] == json!(false)
    });
    assert_eq!(replied["to_move"], json!(0));
    // It is not the engine's turn to be played by a person.
    let (_, undone) = s.post(&format!("/api/games/{g}/undo"), &json!(null));
    assert_eq!(undone["moves"], json!([]));
    assert_eq!(undone["to_move"], json!(0));
    let (status, answer) = s.post(&format!("/api/games/{g}/undo"), &json!(null));
    assert_eq!(status, 409, "{answer}");
    // An engine moving first plays at once.
    let first = s.create(&json!({"game": "connect4", "players": ["engine", "human"], "depth": 3}));
    let moved = s.wait_state(&id(&first), |st| {
        st["to_move"] == json!(1) && st["thinking"] == json!(false)
    });
    assert_eq!(pieces(&moved), 1);
    let (status, hint) = s.post(&format!("/api/games/{}/hint", id(&first)), &json!(null));
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
    let (_, resigned) = s.post(&format!("/api/games/{g}/resign"), &json!(null));
    assert_eq!(
        resigned["ending"]["text"],
        json!("Red wins: Black resigned")
    );
    assert_eq!(resigned["ending"]["result"], json!("1-0"));
    let (status, _) = s.post(&format!("/api/games/{g}/move"), &json!({"move": "a9a8"}));
    assert_eq!(status, 409);
    let record = s.get_text(&format!("/api/games/{g}/record"));
    assert!(record.contains("[Result \"1-0\"]"), "{record}");
    // Undo takes back the resignation, not a move.
    let (_, reopened) = s.post(&format!("/api/games/{g}/undo"), &json!(null));
    assert_eq!(reopened["ending"], Value::Null);
    assert_eq!(reopened["moves"].as_array().unwrap().len(), 3);
    let record = s.get_text(&format!("/api/games/{g}/record"));
    let loaded = s.create(&json!({"record": record, "players": ["human", "human"]}));
    assert_eq!(loaded["game"], json!("xiangqi"));
    assert_eq!(loaded["moves"], reopened["moves"]);
    assert_eq!(loaded["board"], reopened["board"]);
}
