//! End-to-end tests of the `qi` binary: whole games on stdin, scripted commands, bad input.
//! Timings and nps are masked in snapshots; searches use fixed depths and one thread, so node
//! counts and moves are deterministic.

use std::path::PathBuf;
use std::process::Output;

use assert_cmd::Command;

fn qi() -> Command {
    let mut cmd = Command::cargo_bin("qi").expect("the qi binary");
    cmd.env("NO_COLOR", "1");
    cmd
}

fn run(args: &[&str], stdin: &str) -> Output {
    qi().args(args)
        .write_stdin(stdin)
        .output()
        .expect("qi runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// Masks what depends on the clock.
fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"\d+\.\d\d s\]", "[TIME] s]");
    s.add_filter(r#""time_ms":\d+"#, r#""time_ms":[MS]"#);
    s.add_filter(r"time \d+ ms", "time [MS] ms");
    s.add_filter(r#"\[Date "[^"]*"\]"#, r#"[Date "[DATE]"]"#);
    s.add_filter(r"\d+ nps", "[NPS] nps");
    s.add_filter(r"\S*qi-cli-test-\d+", "[TMP]");
    // Node counts in play transcripts move with every engine tuning; the moves are what the
    // transcript is about (`analyze --json` keeps its node counts).
    s.add_filter(r"\d+ nodes, ", "[N] nodes, ");
    // The registered games, as the messages list them, come from the registry: a game added
    // to it changes no snapshot.
    let escape = |text: &str| -> String {
        text.chars()
            .flat_map(|c| {
                let special = "\\.+*?()|[]{}^$#&-~".contains(c);
                special.then_some('\\').into_iter().chain([c])
            })
            .collect()
    };
    s.add_filter(&escape(&games::names()), "[GAMES]");
    let listed: Vec<&str> = games::GAMES.iter().map(|g| g.name()).collect();
    s.add_filter(&escape(&listed.join(", ")), "[GAMES]");
    s
}

fn temp_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    // `save` keeps an existing file: a file left by an earlier run must not be there.
    let _ = std::fs::remove_file(&path);
    path
}

// ----- whole games -----

#[test]
fn gomoku_human_vs_engine_to_the_end() {
    // The human fills the board row by row from a1; occupied points are refused and the
    // next line is tried; the engine wins with five.
    let script: String = (1..=9)
        .flat_map(|r| ('a'..='i').map(move |c| format!("{c}{r}\n")))
        .collect();
    let o = run(
        &[
            "play", "gomoku", "--size", "9", "--depth", "3", "--ascii", "--info",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Game over: White wins (five in a row), 0-1."),
        "{out}"
    );
    assert!(out.contains("is occupied"), "{out}");
    // Asked for with --info, the live search lines go to a redirected stderr; not without.
    assert!(stderr(&o).contains("info depth "), "{}", stderr(&o));
    let o = run(&["play", "gomoku", "--depth", "2"], "h8\nquit\n");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    settings().bind(|| insta::assert_snapshot!("gomoku_game", out));
}

#[test]
fn connect6_game_with_two_stone_turns() {
    let points: Vec<String> = (1..=11)
        .flat_map(|r| ('a'..='k').map(move |c| format!("{c}{r}")))
        .collect();
    let mut script = String::from("a1 b1\na1\n"); // two stones on Black's first turn: refused
    for pair in points[1..].chunks(2) {
        script.push_str(&pair.join(" "));
        script.push('\n');
    }
    let o = run(
        &[
            "play", "connect6", "--size", "11", "--depth", "2", "--ascii",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Black must place 1 stone(s) this turn, got 2"),
        "{out}"
    );
    assert!(
        out.contains("Game over: White wins (six in a row), 0-1."),
        "{out}"
    );
    settings().bind(|| insta::assert_snapshot!("connect6_game", out));
}

#[test]
fn xiangqi_game_ending_in_checkmate_with_record_and_load() {
    // Two red rooks against the bare black king: ICCS, WXF and Chinese input, a bad move.
    let record = temp_file("mate.pgn");
    let script = format!(
        "e0e1\nR9+8\nundo\na0a8\n车一进九\nsave {}\nquit\n",
        record.display()
    );
    let o = run(
        &[
            "play",
            "xiangqi",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/R2K4R w",
            "--depth",
            "4",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Game over: Red wins (checkmate), 1-0."),
        "{out}"
    );
    assert!(
        out.contains("Took back your last move and the engine's reply."),
        "{out}"
    );
    settings().bind(|| insta::assert_snapshot!("xiangqi_game", out));

    let text = std::fs::read_to_string(&record).expect("the saved record");
    assert!(text.contains("[Game \"Chinese Chess\"]"));
    assert!(text.contains("[FEN \"4k4/9/9/9/9/9/9/9/9/R2K4R w - - 0 1\"]"));
    settings().bind(|| insta::assert_snapshot!("xiangqi_record", text));

    // The record loads back to the same finished game.
    let o = run(&["play", "--load", record.to_str().unwrap(), "--ascii"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Game over: Red wins (checkmate), 1-0."));
}

#[test]
fn gomoku_save_and_continue() {
    let record = temp_file("gomoku.txt");
    let script = format!("h8\nsave {}\nquit\n", record.display());
    let o = run(&["play", "gomoku", "--depth", "2", "--ascii"], &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).expect("the saved record");
    assert!(text.contains("[Game \"Gomoku\"]"), "{text}");
    assert!(text.contains("1. h8 "), "{text}");
    // Continue: Black to move again after h8 and the engine's reply.
    let o = run(
        &[
            "play",
            "--load",
            record.to_str().unwrap(),
            "--depth",
            "2",
            "--ascii",
        ],
        "moves\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Black to move> moves\n223 legal moves:"),
        "{out}"
    );
}

#[test]
fn a_loaded_game_keeps_its_players_and_save_keeps_existing_files() {
    let record = temp_file("gomoku-white.txt");
    // The human plays White: the engine opens, the human answers, the game is saved.
    let script = format!("h9\nsave {}\nquit\n", record.display());
    let o = run(
        &[
            "play", "gomoku", "--white", "human", "--depth", "1", "--ascii",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).expect("the saved record");
    assert!(
        text.contains("[Black \"qi\"]") && text.contains("[White \"human\"]"),
        "{text}"
    );
    // Loaded back (White to move after the engine's reply), the human is White again and
    // the engine answers White's move as Black.
    let again = format!(
        "j10\nsave {}\nsave! {}\nquit\n",
        record.display(),
        record.display()
    );
    let o = run(
        &[
            "play",
            "--load",
            record.to_str().unwrap(),
            "--depth",
            "1",
            "--ascii",
        ],
        &again,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Black is qi, White is human"), "{out}");
    assert!(out.contains("White to move> j10\nWhite plays j10"), "{out}");
    assert!(out.contains("Black (qi) plays "), "{out}");
    // `save` keeps the existing file; `save!` overwrites it.
    assert!(out.contains("exists and was kept: save! "), "{out}");
    assert!(out.contains("Saved the game record to "), "{out}");
    let text = std::fs::read_to_string(&record).expect("the saved record");
    assert!(
        text.contains(" j10 "),
        "the overwritten record has the new moves: {text}"
    );
}

#[test]
fn connect6_setup_record_round_trip() {
    let record = temp_file("c6.txt");
    let script = format!("k10 l10\nsave {}\nquit\n", record.display());
    let o = run(
        &[
            "play",
            "connect6",
            "--black",
            "j10 j11",
            "--white",
            "i9 k9 l11",
            // 2 black and 3 white stones: no game reaches these counts, so the side to move
            // must be given.
            "--to-move",
            "black",
            "--depth",
            "1",
            "--ascii",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&record).expect("the saved record");
    assert!(text.contains("[SetupBlack \"j10 j11\"]"), "{text}");
    assert!(text.contains("[SetupWhite \"i9 k9 l11\"]"), "{text}");
    assert!(text.contains("[ToMove \"black\"]"), "{text}");
    assert!(text.contains("1. k10l10 "), "{text}");
    let o = run(
        &["play", "--load", record.to_str().unwrap(), "--ascii"],
        "undo\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Took back your last move and the engine's reply."),
        "{out}"
    );
    assert!(out.contains("Black places 2 stones this turn."), "{out}");
}

#[test]
fn renju_forbidden_move_is_refused_with_its_rule() {
    let o = run(
        &[
            "play",
            "renju",
            "--black",
            "h8 i8 j9 j10",
            "--white",
            "a1 a2 a15 o1",
            "--depth",
            "2",
            "--ascii",
        ],
        "j8\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(x forbidden for Black under renju)"), "{out}");
    // The page refuses the same point the same way: people are told the rule, not beaten by
    // a slip (engines and protocols still lose on it).
    assert!(
        out.contains(
            "'j8': j8 is forbidden for Black under renju (double three): it would lose the game \
             at once; play another point"
        ),
        "{out}"
    );
    assert!(!out.contains("Game over"), "{out}");
}

#[test]
fn renju_rif_opening_between_two_people() {
    // The RIF rule: the first player places an opening (the 1st stone on the centre), the
    // other may swap, White plays the 4th stone, Black offers two 5th moves (symmetric ones
    // refused) and White picks one.
    let o = run(
        &[
            "play",
            "renju",
            "--opening",
            "rif",
            "--first",
            "human",
            "--second",
            "human",
            "--ascii",
        ],
        "i9\nh8\ni9\nj10\nmaybe\nstay\ng7\nk8 h11\nk8 k9\nl2\nk9\nmoves\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for said in [
        "rif opening: Black (you), place the 1st stone (Black) on the centre point, h8.",
        "'i9': this stone goes on the centre point, h8",
        "'maybe': expected 'stay' or 'swap'",
        "rif opening: Black (you), offer 2 5th moves for Black",
        "'k8 h11': h11 is symmetric to k8 on this board: offer moves that differ",
        "'l2': l2 was not offered: pick one of k8 k9",
        "White (you): k9",
        "White to move>",
    ] {
        assert!(out.contains(said), "no {said:?} in:\n{out}");
    }
    // Without --opening, renju's first stone goes on the centre point.
    let o = run(&["play", "renju", "--depth", "1", "--ascii"], "a1\nquit\n");
    assert!(
        stdout(&o).contains("'a1': this stone goes on the centre point, h8"),
        "{}",
        stdout(&o)
    );
    // A game without opening rules says so.
    let o = run(&["play", "xiangqi", "--opening", "swap2"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("xiangqi has no opening rules"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn renju_human_vs_engine_to_the_end() {
    let script: String = (1..=15)
        .flat_map(|r| ('a'..='o').map(move |c| format!("{c}{r}\n")))
        .collect();
    let o = run(&["play", "renju", "--depth", "3", "--ascii"], &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Game over: "), "{out}");
}

#[test]
fn engine_against_engine_in_every_game() {
    let cases: &[&[&str]] = &[
        &[
            "play", "xiangqi", "--red", "engine", "--black", "engine", "--depth", "2",
        ],
        &[
            "play", "connect6", "--size", "9", "--black", "engine", "--white", "engine", "--depth",
            "1", "--ascii",
        ],
        &[
            "play", "renju", "--black", "engine", "--white", "engine", "--depth", "2", "--ascii",
        ],
    ];
    for args in cases {
        let o = run(args, "");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains("Game over: "), "{args:?}: {out}");
        assert!(out.contains("[Result \""), "{args:?}: {out}");
    }
}

#[test]
fn engine_against_engine_plays_to_the_end() {
    let o = run(
        &[
            "play", "gomoku", "--size", "7", "--black", "engine", "--white", "engine", "--depth",
            "2", "--ascii",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Game over: "), "{out}");
    assert!(out.contains("[Game \"Gomoku\"]"), "{out}");
}

// ----- game clocks -----

/// A game on a clock: the clock line before every turn (the running side marked), the engine
/// playing to its own clock (here also held to depth 2, so the moves are the same on every
/// machine), the record with the time control and each turn's time; the saved record loads
/// back. Clock readings and turn times are masked.
#[test]
fn clocked_game_transcript_and_record() {
    let file = temp_file("clocked.pgn");
    let path = file.to_str().unwrap();
    let o = run(
        &[
            "play", "xiangqi", "--clock", "5m+3s", "--depth", "2", "--ascii",
        ],
        &format!("h2e2\nh0g2\nsave {path}\nquit\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("on a 5m+3s clock"), "{out}");
    assert!(out.contains("Clock (5m+3s): Red 4:5"), "{out}");
    let record = std::fs::read_to_string(&file).unwrap();
    assert!(record.contains("[TimeControl \"300+3\"]"), "{record}");
    assert_eq!(record.matches("{[%emt 0:0").count(), 4, "{record}");
    let mut s = settings();
    s.add_filter(r"\[%emt [0-9:.]+\]", "[%emt [TIME]]");
    s.add_filter(r"\d+:\d\d(\.\d)?", "[CLOCK]");
    s.bind(|| {
        insta::assert_snapshot!("clocked_game", out);
        insta::assert_snapshot!("clocked_record", record);
    });
    // The record loads back with its four turns.
    let o = run(
        &["play", "--load", path, "--clock", "1m", "--depth", "1"],
        "quit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Clock (1m): Red"), "{}", stdout(&o));
}

/// A person's clock runs out while the program waits for a line: the game ends at once as a
/// loss on time (the input stays open; nothing is typed), and undo cannot take it back.
#[test]
fn a_persons_flag_falls_while_waiting_for_a_move() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args([
            "play", "connect6", "--clock", "0.3", "--ascii", "--depth", "1",
        ])
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("qi runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let done = line.contains("Game over");
        seen.push(line);
        if done {
            break;
        }
    }
    let text = seen.join("\n");
    assert!(
        text.contains("Game over: White wins (Black ran out of time), 0-1."),
        "{text}"
    );
    writeln!(stdin, "undo").unwrap();
    drop(stdin);
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    let rest = rest.join("\n");
    assert!(
        rest.contains("The game was lost on time: it cannot be taken back."),
        "{rest}"
    );
    assert!(child.wait().unwrap().success());
}

#[test]
fn bad_clocks_are_usage_errors() {
    for (clock, needle) in [
        ("0+3", "bad clock '0+3': the base time: bad time '0'"),
        ("5m+x", "bad clock '5m+x': the increment: bad time 'x'"),
        ("fast", "bad clock 'fast': the base time"),
        ("5m+-1s", "the increment: bad time '-1s'"),
    ] {
        let o = run(&["play", "gomoku", "--clock", clock], "");
        assert_eq!(o.status.code(), Some(2), "{clock}");
        assert!(stderr(&o).contains(needle), "{clock}: {}", stderr(&o));
    }
}

// ----- scripted commands -----

#[test]
fn moves_lists() {
    // Xiangqi start: 44 moves (perft 1 of the start position).
    let o = run(&["moves", "xiangqi"], "");
    assert!(o.status.success());
    let xq = stdout(&o);
    assert_eq!(xq.lines().count(), 44);
    insta::assert_snapshot!("moves_xiangqi_start", xq);

    // Gomoku 5x5 after c3: 24 points, naturally sorted.
    let o = run(&["moves", "gomoku", "--size", "5", "--moves", "c3"], "");
    let g = stdout(&o);
    assert_eq!(g.lines().count(), 24);
    assert!(g.starts_with("a1\na2\na3\na4\na5\nb1\n"), "{g}");

    // Renju: the double-three point j8 is not listed for Black.
    let o = run(
        &[
            "moves",
            "renju",
            "--black",
            "h8 i8 j9 j10",
            "--white",
            "a1 a2 a15 o1",
        ],
        "",
    );
    let r = stdout(&o);
    assert_eq!(r.lines().count(), 225 - 8 - 1);
    assert!(!r.lines().any(|l| l == "j8"));

    // Connect6 7x7 after the first stone: White's next single stones.
    let o = run(&["moves", "connect6", "--size", "7", "--moves", "d4"], "");
    assert_eq!(stdout(&o).lines().count(), 48);

    // A finished game lists nothing and says so.
    let o = run(&["moves", "gomoku", "--moves", "h8a1h9a2h10a3h11a4h12"], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "qi: the game is over: 1-0 Black wins (five in a row)\n"
    );
}

#[test]
fn analyze_json() {
    let cases: &[&[&str]] = &[
        // Xiangqi mate in one: b0b9.
        &[
            "analyze",
            "xiangqi",
            "--fen",
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            "--depth",
            "3",
            "--json",
        ],
        // The side to move is mated in two.
        &[
            "analyze",
            "xiangqi",
            "--fen",
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            "--moves",
            "a8a7",
            "--depth",
            "4",
            "--json",
        ],
        // Gomoku: Black completes five.
        &[
            "analyze",
            "gomoku",
            "--moves",
            "h8a1h9a2h10a3h11a4",
            "--depth",
            "3",
            "--json",
        ],
        &[
            "analyze", "gomoku", "--moves", "h8i9", "--depth", "3", "--json",
        ],
        // Connect6: a whole two-stone turn.
        &[
            "analyze",
            "connect6",
            "--moves",
            "j10 i9k11",
            "--depth",
            "2",
            "--json",
        ],
        &["analyze", "xiangqi", "--depth", "4", "--json"],
        // Finished games print the result.
        &[
            "analyze",
            "gomoku",
            "--moves",
            "h8a1h9a2h10a3h11a4h12",
            "--json",
        ],
        &[
            "analyze",
            "xiangqi",
            "--fen",
            "1R2k4/R8/9/9/9/9/9/9/9/3K5 b",
            "--json",
        ],
    ];
    let mut text = String::new();
    for args in cases {
        let o = run(args, "");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let out = stdout(&o);
        let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        let score = if args[1] == "xiangqi" {
            "score_cp"
        } else {
            "score"
        };
        for key in ["bestmove", score, "mate", "depth", "nodes", "time_ms", "pv"] {
            assert!(v.get(key).is_some(), "{key} missing in {out}");
        }
        let other = if score == "score" {
            "score_cp"
        } else {
            "score"
        };
        assert!(v.get(other).is_none(), "{other} in {out}");
        text.push_str(&format!("{}\n{out}\n", args[1..].join(" ")));
    }
    assert!(
        text.contains(r#""bestmove":"b0b9","score_cp":null,"mate":1"#),
        "{text}"
    );
    assert!(text.contains(r#""mate":-2"#), "{text}");
    assert!(
        text.contains(r#""bestmove":"h12","score":null,"mate":1"#),
        "{text}"
    );
    assert!(text.contains(r#""result":"1-0""#), "{text}");
    // Node counts change with every engine tuning (`qi bench` is the node fingerprint).
    let mut s = settings();
    s.add_filter(r#""nodes":\d+"#, r#""nodes":[N]"#);
    s.bind(|| insta::assert_snapshot!("analyze_json", text));
}

#[test]
fn analyze_text() {
    let o = run(
        &[
            "analyze",
            "xiangqi",
            "--fen",
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
            "--depth",
            "3",
        ],
        "",
    );
    assert!(o.status.success());
    let mut s = settings();
    s.add_filter(r"nodes \d+", "nodes [N]");
    s.bind(|| insta::assert_snapshot!("analyze_text", stdout(&o)));
}

#[test]
fn perft_counts() {
    // Reference counts: xiangqi start 44 / 1920 / 79666.
    let o = run(&["perft", "xiangqi", "--depth", "3"], "");
    assert_eq!(stdout(&o), "79666\n");
    let o = run(&["perft", "xiangqi", "--depth", "2", "--divide"], "");
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 45);
    assert!(out.ends_with("total 1920\n"), "{out}");
    // Stone games: every empty point, 15x15: 225 * 224.
    let o = run(&["perft", "gomoku", "--depth", "2"], "");
    assert_eq!(stdout(&o), "50400\n");
    let o = run(&["perft", "connect6", "--size", "7", "--depth", "3"], "");
    assert_eq!(stdout(&o), format!("{}\n", 49 * 48 * 47));
}

#[test]
fn bench_prints_nodes_and_nps() {
    let o = run(&["bench", "connect6", "--depth", "2"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let words: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{out}");
    assert!(words[0].parse::<u64>().unwrap() > 0);
    assert_eq!(words[1], "nodes");
    assert!(words[2].parse::<u64>().is_ok());
    assert_eq!(words[3], "nps");
}

#[test]
fn connect6_engine_protocol() {
    let o = run(&["connect6-engine"], "name\nbogus\nquit\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("name qi-connect6\n"), "{out}");
    assert!(out.contains("error"), "{out}");
}

#[test]
fn gomocup_protocol_by_command_by_first_line_and_by_name() {
    let o = run(&["gomocup"], "START 15\nABOUT\nEND\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("OK\n"), "{out}");
    assert!(out.contains("name=\"qi\""), "{out}");
    // No arguments: the first line picks the protocol.
    let o = run(&[], "START 15\nEND\n");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "OK\n");
    // Named pbrain-*: Gomocup.
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_qi"));
    let link = temp_file("pbrain-qi");
    let _ = std::fs::remove_file(&link);
    std::fs::copy(&bin, &link).expect("copy the binary");
    let o = Command::new(&link)
        .write_stdin("START 15\nEND\n")
        .output()
        .expect("pbrain-qi runs");
    assert!(o.status.success());
    assert_eq!(stdout(&o), "OK\n");
}

#[test]
fn xiangqi_protocols_by_command_and_by_first_line() {
    for (args, first) in [
        (&["ucci"][..], "ucci"),
        (&["uci"][..], "uci"),
        (&[][..], "ucci"),
        (&[][..], "uci"),
    ] {
        let o = run(
            args,
            &format!("{first}\nposition startpos moves h2e2\ngo depth 3\nquit\n"),
        );
        assert!(o.status.success(), "{args:?} {first}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains(&format!("{first}ok")),
            "{args:?} {first}: {out}"
        );
        assert!(out.contains("bestmove "), "{args:?} {first}: {out}");
    }
}

// ----- bad input -----

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let bad_fen = temp_file("bad-fen.pgn");
    std::fs::write(&bad_fen, "[Game \"Chinese Chess\"]\n[FEN \"bad\"]\n").unwrap();
    let bad_move = temp_file("bad-move.txt");
    std::fs::write(&bad_move, "[Game \"Gomoku\"]\n\n1. h8 h8 *\n").unwrap();
    let open_comment = temp_file("open-comment.txt");
    std::fs::write(
        &open_comment,
        "[Game \"Gomoku\"]\n\n1. h8 {a note that never ends i9 2. h9 *\n",
    )
    .unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["play", "chess"], ""),
        (&["moves"], ""),
        (&["frobnicate"], ""),
        (&["analyze", "gomoku", "--time", "5x"], ""),
        (&["analyze", "gomoku", "--time", "-1s"], ""),
        (&["analyze", "gomoku", "--depth", "0"], ""),
        (&["analyze", "xiangqi", "--fen", "rnbakabnr/9/1c5c1 w"], ""),
        (
            &[
                "analyze",
                "xiangqi",
                "--fen",
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
            ],
            "",
        ),
        (&["moves", "gomoku", "--moves", "h8z20"], ""),
        (&["moves", "gomoku", "--moves", "h8h8"], ""),
        (&["moves", "gomoku", "--moves", "h8 8h"], ""),
        (&["moves", "connect6", "--moves", "j10 j10k11"], ""),
        (
            &["moves", "connect6", "--black", "j10", "--white", "a1 a2 a3"],
            "",
        ),
        (&["moves", "connect6", "--moves", "j10 j9 l11"], ""),
        (
            &[
                "moves",
                "connect6",
                "--black",
                "j10 k11",
                "--white",
                "i9 k9 l10",
            ],
            "",
        ),
        (&["moves", "xiangqi", "--moves", "h2e3"], ""),
        (&["moves", "xiangqi", "--moves", "C2.5 C2.5 C2.5"], ""),
        (&["moves", "gomoku", "--size", "30"], ""),
        (&["moves", "gomoku", "--fen", "x"], ""),
        (&["moves", "renju", "--rule", "freestyle"], ""),
        (&["moves", "xiangqi", "--size", "9"], ""),
        (&["play", "gomoku", "--white", "robot"], ""),
        (&["play", "xiangqi", "--white", "human"], ""),
        (&["play", "gomoku", "--red", "human"], ""),
        (&["play"], ""),
        (&["play", "--load", "/nonexistent/qi-record.txt"], ""),
        (&["perft", "xiangqi"], ""),
        (&["play", "--load", bad_fen.to_str().unwrap()], ""),
        (&["play", "--load", bad_move.to_str().unwrap()], ""),
        (
            &["play", "xiangqi", "--load", bad_move.to_str().unwrap()],
            "",
        ),
        (
            &["selfplay", "gomoku", "--out", bad_fen.to_str().unwrap()],
            "",
        ),
        (
            &[
                "selfplay",
                "gomoku",
                "--openings",
                bad_fen.to_str().unwrap(),
                "--size",
                "9",
            ],
            "",
        ),
        (
            &[
                "tune",
                "gomoku",
                "--data",
                bad_fen.to_str().unwrap(),
                "--lr",
                "-1",
            ],
            "",
        ),
        (
            &["moves", "gomoku", "--moves", "h8", "--to-move", "black"],
            "",
        ),
        (&["moves", "connect6", "--to-move", "white"], ""),
        (&["play", "--load", open_comment.to_str().unwrap()], ""),
        (&[], "hello\n"),
    ];
    let mut text = String::new();
    for (args, stdin) in cases {
        let o = run(args, stdin);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qi: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(stdout(&o), "", "{args:?}");
        text.push_str(&format!("qi {}\n{err}\n", args.join(" ")));
    }
    settings().bind(|| insta::assert_snapshot!("bad_input", text));
}

#[test]
fn bad_moves_in_play_reprompt_with_state_unchanged() {
    let o = run(
        &[
            "play", "gomoku", "--black", "human", "--white", "human", "--ascii", "--size", "7",
        ],
        "h8\nz1\nd4\nd4\nd44\n\nsave\nmoves\nfoo bar\nundo\nhelp\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    settings().bind(|| insta::assert_snapshot!("play_bad_moves", stdout(&o)));
}

#[test]
fn a_gbk_move_is_read_and_other_bytes_are_refused_without_ending_the_game() {
    // 炮二平五 in GBK (a Chinese terminal) is read as GB18030 and played as h2e2; a line of
    // bytes that no encoding reads (0xff) is refused with its first bad byte, and the game
    // goes on: h9g7 is played after it.
    let mut stdin = b"\xc5\xda\xb6\xfe\xc6\xbd\xce\xe5\n".to_vec();
    stdin.extend_from_slice(b"\xff\xfe\n");
    stdin.extend_from_slice(b"h9g7\nquit\n");
    let o = qi()
        .args([
            "play", "xiangqi", "--red", "human", "--black", "human", "--ascii",
        ])
        .write_stdin(stdin)
        .output()
        .expect("qi runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("the line is neither UTF-8 nor GB18030 text (byte 0xff at byte 1)"),
        "{out}"
    );
    assert!(
        out.contains("Red plays h2e2"),
        "the GBK move was not played:\n{out}"
    );
    assert!(
        out.contains("Black plays h9g7"),
        "the game did not go on:\n{out}"
    );
}

#[test]
fn save_to_an_unwritable_file_says_so_and_goes_on() {
    let o = run(
        &["play", "gomoku", "--depth", "1", "--ascii", "--size", "7"],
        "save /nonexistent-dir/x.txt\nquit\n",
    );
    assert!(o.status.success());
    assert!(stdout(&o).contains("cannot write /nonexistent-dir/x.txt"));
}

#[test]
fn help_and_version() {
    let o = run(&["--help"], "");
    assert!(o.status.success());
    let out = stdout(&o);
    for cmd in [
        "play",
        "moves",
        "analyze",
        "perft",
        "bench",
        "gomocup",
        "ucci",
        "uci",
        "connect6-engine",
    ] {
        assert!(out.contains(cmd), "{cmd} missing from --help");
    }
    let o = run(&["play", "--help"], "");
    assert!(o.status.success());
    assert!(stdout(&o).contains("--time <TIME>"));
}

// ----- polish: problems a new-user trial found -----

/// `qi moves connect6 | head -1`: the reader goes away; qi ends quietly (exit 0 or SIGPIPE,
/// as `cat` does), never "I/O error: Broken pipe" or a panic, also when stderr is gone too.
#[test]
fn broken_pipe_exits_quietly() {
    use std::process::Stdio;
    let bin = assert_cmd::cargo::cargo_bin("qi");
    for stderr_gone in [false, true] {
        let mut child = std::process::Command::new(&bin)
            .args(["moves", "gomoku", "--size", "26"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("qi starts");
        // Close the read ends before qi writes a line.
        drop(child.stdout.take());
        if stderr_gone {
            drop(child.stderr.take());
        }
        let o = child.wait_with_output().expect("qi ends");
        let quiet = o.status.success() || {
            use std::os::unix::process::ExitStatusExt;
            o.status.signal() == Some(13)
        };
        assert!(quiet, "stderr gone {stderr_gone}: {:?}", o.status);
        assert_eq!(stderr(&o), "", "stderr gone {stderr_gone}");
    }
}

/// Runs each case, checks it is a one-line usage error (exit 2, nothing on stdout) and
/// returns the transcript for a snapshot.
fn usage_errors(cases: &[(&[&str], &str)]) -> String {
    let mut text = String::new();
    for (args, stdin) in cases {
        let o = run(args, stdin);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("qi: "), "{args:?}: {err}");
        assert_eq!(stdout(&o), "", "{args:?}");
        text.push_str(&format!("qi {}\n{err}\n", args.join(" ")));
    }
    text
}

/// `renju` is gomoku 15x15 under renju rules: another size or rule is a usage error that
/// names the gomoku spelling; `--size 15 --rule renju` agree and are fine.
#[test]
fn renju_with_another_size_or_rule_is_a_usage_error() {
    let text = usage_errors(&[
        (&["play", "renju", "--size", "19"], ""),
        (&["moves", "renju", "--size", "9"], ""),
        (&["analyze", "renju", "--size", "19", "--depth", "1"], ""),
        (&["moves", "renju", "--rule", "standard"], ""),
    ]);
    assert!(text.contains("gomoku --rule renju --size 19"), "{text}");
    let o = run(&["moves", "renju", "--size", "15", "--rule", "renju"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 225);
    settings().bind(|| insta::assert_snapshot!("renju_size_rule", text));
}

/// `--load FILE` with position options: options that contradict the record are usage errors
/// naming the record's value; options that agree are fine; a file of several games loads the
/// first.
#[test]
fn load_with_contradicting_options_is_a_usage_error() {
    let gomoku = temp_file("load-gomoku.txt");
    std::fs::write(
        &gomoku,
        "[Game \"Gomoku\"]\n[Rule \"standard\"]\n[Size \"13\"]\n\n1. g7 h8 *\n",
    )
    .unwrap();
    let xiangqi = temp_file("load-xiangqi.pgn");
    std::fs::write(&xiangqi, "[Game \"Chinese Chess\"]\n\n1. h2e2 *\n").unwrap();
    let two = temp_file("load-two-games.txt");
    std::fs::write(
        &two,
        "[Game \"Gomoku\"]\n[Size \"9\"]\n\n1. e5 d4 1-0\n\n[Game \"Connect6\"]\n\n1. j10 *\n",
    )
    .unwrap();
    let g = gomoku.to_str().unwrap();
    let x = xiangqi.to_str().unwrap();
    let text = usage_errors(&[
        (&["play", "--load", g, "--size", "15"], ""),
        (&["play", "--load", g, "--rule", "renju"], ""),
        (&["play", "--load", g, "--moves", "h8"], ""),
        (&["play", "--load", g, "--black", "a1"], ""),
        (&["play", "--load", g, "--fen", "9/9/9/9/9/9/9/9/9/9 w"], ""),
        (&["play", "--load", x, "--fen", "9/9/9/9/9/9/9/9/9/9 w"], ""),
        (&["play", "--load", x, "--size", "9"], ""),
    ]);
    settings().bind(|| insta::assert_snapshot!("load_contradictions", text));
    // Options that agree with the record are fine.
    for args in [
        &[
            "play", "--load", g, "--size", "13", "--rule", "standard", "--moves", "g7h8",
        ][..],
        &[
            "play", "--load", x, "--moves", "h2e2", "--red", "human", "--black", "human",
        ][..],
    ] {
        let o = run(args, "quit\n");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
    // A file of several games: the first one (a 9x9 gomoku game, Black to move).
    let o = run(
        &[
            "play",
            "--load",
            two.to_str().unwrap(),
            "--ascii",
            "--black",
            "human",
            "--white",
            "human",
        ],
        "moves\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("qi plays gomoku"), "{}", stdout(&o));
    assert!(stdout(&o).contains("79 legal moves"), "{}", stdout(&o));
}

/// The renju end message has no nested parentheses, and both the play `help` and
/// `qi play --help` explain the forbidden-point marker.
#[test]
fn renju_end_message_and_forbidden_marker_help() {
    let setup = [
        "renju",
        "--black",
        "h8 i8 j9 j10",
        "--white",
        "a1 a2 a15 o1",
        "--moves",
        "j8",
    ];
    let o = run(&[&["moves"][..], &setup[..]].concat(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let end = stderr(&o);
    let o = run(
        &[
            "play", "renju", "--black", "human", "--white", "human", "--ascii",
        ],
        "help\nh8\nundo\nquit\n",
    );
    let play_help = stdout(&o);
    assert!(
        play_help.contains("marks Black's forbidden points"),
        "{play_help}"
    );
    let o = run(&["play", "--help"], "");
    let help = stdout(&o);
    assert!(help.contains("marks Black's forbidden points"), "{help}");
    settings().bind(|| insta::assert_snapshot!("renju_end_message", end));
}

/// Error messages quote the whole bad input, say what range is accepted and count FEN ranks
/// as they say they do.
#[test]
fn error_messages_say_what_is_wrong() {
    let text = usage_errors(&[
        (&["moves", "gomoku", "--moves", "hello"], ""),
        (&["moves", "gomoku", "--moves", "xyz"], ""),
        (&["moves", "gomoku", "--black", "h8 hello"], ""),
        (&["moves", "gomoku", "--moves", "€€€"], ""),
        (&["moves", "connect6", "--moves", "€€€"], ""),
        (&["analyze", "gomoku", "--time", "0"], ""),
        (&["analyze", "gomoku", "--time", "0ms"], ""),
        (&["analyze", "gomoku", "--time", "99999999999s"], ""),
        (&["analyze", "gomoku", "--nodes", "0"], ""),
        (&["moves", "xiangqi", "--fen", "rnbakabnr/9/1c5c1 w"], ""),
        (&["moves", "xiangqi", "--fen", "rnbakabnr/9/1c5c1/X w"], ""),
        (&["play", "xiangqi", "--red", "robot"], ""),
        (&["play", "xiangqi", "--black", "robot"], ""),
    ]);
    assert!(text.contains(r#"bad coordinate "hello""#), "{text}");
    assert!(
        !text.contains("--red: expected human or engine (or"),
        "{text}"
    );
    settings().bind(|| insta::assert_snapshot!("error_messages", text));
    // In play, every bad input is named first, 'like this':.
    let o = run(
        &[
            "play", "gomoku", "--black", "human", "--white", "human", "--ascii",
        ],
        "€€€\nquit\n",
    );
    assert!(
        stdout(&o).contains("'€€€': bad coordinate \"€€€\""),
        "{}",
        stdout(&o)
    );
}

/// Stone counts no game reaches (gomoku: Black level or one ahead; connect6: one ahead or
/// behind) need --to-move; with it they are accepted.
#[test]
fn unreachable_stone_counts_need_to_move() {
    let text = usage_errors(&[
        (&["moves", "gomoku", "--black", "h8 h9 h10"], ""),
        (
            &["moves", "gomoku", "--black", "h8", "--white", "a1 a2"],
            "",
        ),
        (&["moves", "connect6", "--black", "h8 h9 h10"], ""),
    ]);
    assert_eq!(
        text.matches("give --to-move black|white").count(),
        3,
        "{text}"
    );
    settings().bind(|| insta::assert_snapshot!("unreachable_counts", text));
    for args in [
        &[
            "moves",
            "gomoku",
            "--black",
            "h8 h9 h10",
            "--to-move",
            "white",
        ][..],
        &["moves", "gomoku", "--black", "h8 h9", "--white", "a1"][..],
        &[
            "moves",
            "connect6",
            "--black",
            "h8 h9 h10",
            "--to-move",
            "black",
        ][..],
    ] {
        let o = run(args, "");
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    }
}

/// README's "Using qi" lists the player names `play` accepts: each one works, and naming
/// one side gives the engine the other.
#[test]
fn readme_player_aliases_are_accepted() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    for (alias, banner) in [
        ("human", "Black is qi, White is human"),
        ("h", "Black is qi, White is human"),
        ("me", "Black is qi, White is human"),
        ("engine", "Black is human, White is qi"),
        ("e", "Black is human, White is qi"),
        ("qi", "Black is human, White is qi"),
        ("computer", "Black is human, White is qi"),
        ("cpu", "Black is human, White is qi"),
    ] {
        assert!(
            readme.contains(&format!("`{alias}`")),
            "README lacks `{alias}`"
        );
        let o = run(
            &[
                "play", "gomoku", "--white", alias, "--depth", "1", "--ascii",
            ],
            "quit\n",
        );
        assert!(o.status.success(), "{alias}: {}", stderr(&o));
        assert!(stdout(&o).contains(banner), "{alias}: {}", stdout(&o));
    }
}

/// One legal move is "1 legal move", not "1 legal moves".
#[test]
fn one_legal_move_is_singular() {
    let o = run(
        &[
            "play",
            "xiangqi",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/3K5 w",
            "--red",
            "human",
            "--black",
            "human",
            "--ascii",
        ],
        "moves\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("1 legal move:\nd0d1"), "{}", stdout(&o));
}

#[test]
fn no_command_and_nothing_on_stdin_prints_the_usage() {
    let o = run(&[], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("no command given and nothing on stdin"),
        "{err}"
    );
    // Every subcommand is named, and the usage follows.
    for name in [
        "play", "moves", "analyze", "perft", "bench", "match", "gomocup", "uci",
    ] {
        assert!(err.contains(name), "{name}: {err}");
    }
    assert!(err.contains("Usage:"), "{err}");
    // The usage keeps its lines (control characters are escaped line by line).
    assert!(err.contains("\n\nUsage: qi"), "{err}");
    assert!(!err.contains("\\n"), "{err}");
}

#[test]
fn connect6_analyze_of_a_one_stone_win_names_a_legal_turn() {
    // Black's five b2..f6 is blocked at g7 and open at the corner a1 only.
    let o = run(
        &[
            "analyze",
            "connect6",
            "--black",
            "b2 c3 d4 e5 f6",
            "--white",
            "g7 k12 m14 q3",
            "--to-move",
            "black",
            "--time",
            "1s",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("score Black wins in 1"), "{out}");
    let turn = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .expect("a best move");
    assert!(
        turn.starts_with("a1") && turn.len() >= 4 && &turn[2..] != "a1",
        "{out}"
    );
}

#[test]
fn xiangqi_board_from_the_humans_side_and_ascii_without_chinese() {
    // The human plays Black alone: Black's home rank 9 is at the bottom, files read i..a.
    let o = run(
        &[
            "play", "xiangqi", "--black", "human", "--depth", "1", "--ascii",
        ],
        "help\nh9g7\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let board: Vec<&str> = out.lines().skip(2).take(13).collect();
    assert_eq!(board[0].trim(), "i h g f e d c b a", "{out}");
    assert!(board[1].starts_with(" 0 "), "{out}");
    assert!(board[11].starts_with(" 9 "), "{out}");
    // --ascii: no Chinese anywhere (the WXF note alone after a move).
    assert!(out.is_ascii(), "{out}");
    assert!(out.contains("Black plays h9g7 (H8+7)\n"), "{out}");
    // --view red puts Red at the bottom again.
    let o = run(
        &[
            "play", "xiangqi", "--black", "human", "--depth", "1", "--ascii", "--view", "red",
        ],
        "quit\n",
    );
    let out = stdout(&o);
    assert!(out.lines().nth(3).unwrap().starts_with(" 9 "), "{out}");
}

// ----- tuning -----

/// `qi tune --validate` scores held-out data without fitting it: given the training data
/// itself, it must report exactly the training errors of the build's and the tuned weights
/// (same positions, same K); a held-out file of another game is refused.
#[test]
fn tune_scores_held_out_data() {
    let records = temp_file("c6-held.pgn");
    std::fs::write(
        &records,
        "[Game \"Connect6\"]\n[Result \"1-0\"]\n[Size \"19\"]\n\n\
         1. j10 a1a2 2. j11j12 a3a4 3. j13j14 b1b2 4. j9j15 1-0\n\n\
         [Game \"Connect6\"]\n[Result \"0-1\"]\n[Size \"19\"]\n\n\
         1. j10 k10k11 2. a1a2 k12k13 3. s1s2 k14k9 0-1\n",
    )
    .unwrap();
    let path = records.to_str().unwrap();
    let args = [
        "tune",
        "connect6",
        "--data",
        path,
        "--validate",
        path,
        "--epochs",
        "20",
        "--threads",
        "1",
        "--out",
    ];
    let out = temp_file("c6-held-weights.rs");
    let o = run(&[&args[..], &[out.to_str().unwrap()]].concat(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let number_after = |text: &str, key: &str| -> String {
        let rest = &text[text.find(key).unwrap_or_else(|| panic!("{key}: {text}")) + key.len()..];
        rest.split(|c: char| c.is_whitespace() || c == ',' || c == ')' || c == ';')
            .find(|w| !w.is_empty())
            .unwrap()
            .to_string()
    };
    let before = number_after(&err, "mean squared error of the build's weights ");
    let after = number_after(&err, "mean squared error of the tuned weights ");
    let held = err
        .lines()
        .find(|l| l.starts_with("held out: "))
        .expect(&err);
    assert!(held.contains("from 1 file(s)"), "{held}");
    assert_eq!(
        number_after(held, "of the build's weights "),
        before,
        "{err}"
    );
    assert_eq!(number_after(held, "of the tuned weights "), after, "{err}");
    let gomoku = temp_file("gomoku-held.pgn");
    std::fs::write(
        &gomoku,
        "[Game \"Gomoku\"]\n[Result \"1-0\"]\n[Rule \"freestyle\"]\n[Size \"15\"]\n\n1. h8 i9 1-0\n",
    )
    .unwrap();
    let o = run(
        &[
            "tune",
            "connect6",
            "--data",
            path,
            "--validate",
            gomoku.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("gomoku-held.pgn"), "{}", stderr(&o));
}

/// `qi tune --data` reads game records (`qi match --records`): one data line per ply of each
/// game that ended by the rules (connect6's mid-turn positions too: 12 stones, 12 positions),
/// none of a game cut short; a record of another game, or a file that is not UTF-8, is
/// refused with the file (and game or line) named.
#[test]
fn tune_reads_game_records() {
    let records = temp_file("c6-records.pgn");
    std::fs::write(
        &records,
        "[Game \"Connect6\"]\n[Black \"qi\"]\n[White \"cloudict\"]\n[Result \"1-0\"]\n\
         [Size \"19\"]\n\n1. j10 a1a2 2. j11j12 a3a4 3. j13j14 b1b2 4. j9j15 1-0\n\n\
         [Game \"Connect6\"]\n[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\
         [Size \"19\"]\n\n1. j10 k10k11 0-1\n",
    )
    .unwrap();
    let out = temp_file("c6-weights.rs");
    let o = run(
        &[
            "tune",
            "connect6",
            "--data",
            records.to_str().unwrap(),
            "--epochs",
            "1",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let first = err.lines().next().unwrap();
    let (used, rest) = first.split_once(" positions (").unwrap();
    let skipped = rest.split_once(' ').unwrap().0;
    assert_eq!(
        used.parse::<usize>().unwrap() + skipped.parse::<usize>().unwrap(),
        12,
        "{err}"
    );
    // The header names the records (its lines wrapped at a width the temp path moves).
    let weights = std::fs::read_to_string(&out)
        .unwrap()
        .replace("\n//! ", " ");
    let weights = weights.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        weights.contains("c6-records.pgn: 1 game(s) ended by the rules, 1 cut short (skipped)"),
        "{weights}"
    );

    let gomoku = temp_file("gomoku-records.pgn");
    std::fs::write(
        &gomoku,
        "[Game \"Gomoku\"]\n[Result \"*\"]\n[Rule \"freestyle\"]\n[Size \"15\"]\n\n1. h8 i9 *\n",
    )
    .unwrap();
    let o = run(
        &["tune", "connect6", "--data", gomoku.to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "gomoku-records.pgn (game 1): the record is a gomoku game: expected connect6 records"
        ),
        "{}",
        stderr(&o)
    );

    let binary = temp_file("c6-binary.txt");
    std::fs::write(&binary, b"1-0\t19 j10\n\xff\xfe\n").unwrap();
    let o = run(
        &["tune", "connect6", "--data", binary.to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("c6-binary.txt:2: not UTF-8 text"),
        "{}",
        stderr(&o)
    );
}

/// `qi tune --policy` fits the move ordering to the moves of the data and writes the table; a
/// bad result is refused with its line, as the evaluation's fit refuses it, and an output path
/// in a folder that does not exist is refused before any fitting.
#[test]
fn tune_policy_fits_and_refuses_bad_input() {
    let data = temp_file("policy.txt");
    std::fs::write(
        &data,
        "# two positions of one game\n1-0\tfreestyle 15 h8i9h9h10i8\n1-0\tfreestyle 15 h8i9h9h10i8g8\n",
    )
    .unwrap();
    let out = temp_file("policy_weights.rs");
    let d = data.to_str().unwrap();
    let o = run(
        &[
            "tune",
            "gomoku",
            "--policy",
            "--data",
            d,
            "--epochs",
            "5",
            "--threads",
            "1",
            "--out",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("2 moves (0 lines skipped)"),
        "{}",
        stderr(&o)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("//! The weights of the gomoku move ordering"));
    assert!(text.contains("pub const WEIGHTS: [Weight; 8190] = [\n"));

    let bad = temp_file("policy-bad.txt");
    std::fs::write(
        &bad,
        "1-0\tfreestyle 15 h8i9h9\n2-0\tfreestyle 15 h8i9h9h10\n",
    )
    .unwrap();
    let o = run(
        &[
            "tune",
            "gomoku",
            "--policy",
            "--data",
            bad.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("policy-bad.txt:2: bad result '2-0': expected 1-0, 0-1 or 1/2-1/2"),
        "{}",
        stderr(&o)
    );

    let missing = data.with_file_name("no-such-folder").join("w.rs");
    let o = run(
        &[
            "tune",
            "gomoku",
            "--policy",
            "--data",
            d,
            "--out",
            missing.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not exist"), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("moves"),
        "refused before reading: {}",
        stderr(&o)
    );
}

// ----- strength levels and MultiPV -----

/// `analyze --multipv 3`: three lines with distinct first moves, best first, the first the
/// best move; without it no list.
#[test]
fn analyze_multipv_lines() {
    for (game, args) in [
        ("xiangqi", vec!["--depth", "5"]),
        ("gomoku", vec!["--moves", "h8i9h9", "--depth", "5"]),
        ("connect4", vec!["--depth", "7"]),
    ] {
        let mut multi = vec!["analyze", game, "--json", "--multipv", "3"];
        multi.extend(&args);
        let o = run(&multi, "");
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let lines = v["multipv"].as_array().expect("multipv lines");
        assert_eq!(lines.len(), 3, "{game}: {v}");
        let firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
        assert!(
            firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
            "{game}: {firsts:?}"
        );
        assert_eq!(v["bestmove"], lines[0]["pv"][0], "{game}");
        let field = if game == "xiangqi" {
            "score_cp"
        } else {
            "score"
        };
        let scores: Vec<i64> = lines.iter().map(|l| l[field].as_i64().unwrap()).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{game}: {scores:?}"
        );
        // Without --multipv: one line, no list (that the first line is the single-PV search's
        // is proven exactly in game-core's search tests, without the games' pruning).
        let mut single = vec!["analyze", game, "--json"];
        single.extend(&args);
        let s: serde_json::Value = serde_json::from_str(&stdout(&run(&single, ""))).unwrap();
        assert!(s.get("multipv").is_none(), "{s}");
    }
    let o = run(&["analyze", "xiangqi", "--multipv", "0"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// A level's choices repeat for a fixed seed, differ between seeds, and a low level searches
/// no deeper than its cap; level 8 is the full engine; bad levels are usage errors.
#[test]
fn levels_are_seeded_capped_and_checked() {
    let best = |level: &str, seed: &str| {
        let o = run(
            &[
                "analyze",
                "xiangqi",
                "--json",
                "--level",
                level,
                "--seed",
                seed,
                "--moves",
                "h2e2 h9g7",
            ],
            "",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        (
            v["bestmove"].as_str().unwrap().to_string(),
            v["depth"].as_u64().unwrap(),
        )
    };
    let (first, depth) = best("1", "7");
    assert_eq!(best("1", "7").0, first);
    assert!(depth <= 1, "level 1 searched to depth {depth}");
    let moves: std::collections::HashSet<String> =
        (1..=12).map(|s| best("1", &s.to_string()).0).collect();
    assert!(moves.len() > 1, "one move for every seed: {moves:?}");
    let (_, depth) = best("3", "7");
    assert!(depth <= 2, "level 3 searched to depth {depth}");
    for bad in ["0", "9", "x"] {
        let o = run(&["play", "gomoku", "--level", bad], "");
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            stderr(&o).contains(&format!("bad level '{bad}'")),
            "{}",
            stderr(&o)
        );
    }
}

/// The engine protocols take a level: UCI MultiPV and strength options, UCCI's, Gomocup's
/// `INFO level`, ConnectMore's `level`, and the engine commands' `--level`; bad values are
/// refused with a reason and change nothing.
#[test]
fn protocols_take_multipv_and_levels() {
    let o = run(
        &["uci"],
        "uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 3\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("option name UCI_LimitStrength type check default false"),
        "{out}"
    );
    assert!(out.contains("option name UCI_Elo type spin"), "{out}");
    for k in 1..=3 {
        assert!(
            out.lines()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "{out}"
        );
    }
    let o = run(
        &["uci"],
        "setoption name MultiPV value 0\nsetoption name UCI_Elo value 5\nsetoption name Level value 9\n\
         setoption name UCI_LimitStrength value maybe\nposition startpos\ngo depth 2\n",
    );
    let out = stdout(&o);
    assert_eq!(out.matches("info string error:").count(), 4, "{out}");
    assert!(
        out.contains(" multipv 1 ") && !out.contains(" multipv 2 "),
        "{out}"
    );
    let o = run(
        &["ucci"],
        "setoption UCI_LimitStrength true\nsetoption UCI_Elo 800\nposition startpos\ngo depth 9\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("info depth 1 ") && !out.contains("info depth 2 "),
        "{out}"
    );
    let o = run(&["ucci"], "setoption level 0\nquit\n");
    assert!(
        stdout(&o).contains("info string error: bad level '0'"),
        "{}",
        stdout(&o)
    );
    let o = run(&["gomocup"], "START 15\nINFO level 0\nINFO level 3\nEND\n");
    assert!(
        stdout(&o).contains("ERROR INFO level: bad level '0'"),
        "{}",
        stdout(&o)
    );
    assert_eq!(stdout(&o).matches("ERROR").count(), 1, "{}", stdout(&o));
    let o = run(&["connect6-engine"], "level 9\nlevel\nlevel 2\nquit\n");
    let out = stdout(&o);
    assert!(out.contains("error bad level '9'"), "{out}");
    assert!(out.contains("`level` needs an argument"), "{out}");
    let o = run(&["ucci", "--level", "1"], "position startpos\ngo depth 9\n");
    let out = stdout(&o);
    assert!(
        out.contains("info depth 1 ") && !out.contains("info depth 2 "),
        "{out}"
    );
    let o = run(&["gomocup", "--level", "12"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// Reads `child`'s standard output on a thread; `wait_for` returns the output once it holds
/// a text (at most 60 s).
struct LiveOutput {
    lines: std::sync::mpsc::Receiver<String>,
    seen: String,
}

impl LiveOutput {
    fn of(child: &mut std::process::Child) -> LiveOutput {
        use std::io::BufRead;
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if send.send(line).is_err() {
                    return;
                }
            }
        });
        LiveOutput {
            lines,
            seen: String::new(),
        }
    }

    fn wait_for(&mut self, text: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while !self.seen.contains(text) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push_str(&line);
                    self.seen.push('\n');
                }
                Err(_) => panic!("never saw {text:?}; output:\n{}", self.seen),
            }
        }
    }
}

#[test]
fn ctrl_c_makes_the_engine_move_now_then_offers_to_save() {
    use std::io::Write as _;
    // Ten minutes a move: only Ctrl-C ends the engine's reply within the test's wait.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(["play", "gomoku", "--time", "10m", "--ascii"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("qi starts");
    let mut out = LiveOutput::of(&mut child);
    let mut stdin = child.stdin.take().unwrap();
    let interrupt = |child: &std::process::Child| {
        // SAFETY: kill(2) with a process id this test started and SIGINT; no memory involved.
        let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
        assert_eq!(sent, 0, "SIGINT sent");
    };
    writeln!(stdin, "h8").unwrap();
    out.wait_for("Black plays h8");
    interrupt(&child);
    out.wait_for("White (qi) plays");
    // At the prompt, Ctrl-C asks whether to save before leaving; "no" leaves.
    interrupt(&child);
    out.wait_for("Ctrl-C: leave the game?");
    writeln!(stdin, "no").unwrap();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[test]
fn history_flip_and_new_at_the_prompt() {
    let o = run(
        &[
            "play", "xiangqi", "--first", "human", "--second", "human", "--ascii",
        ],
        "h2e2\nh9g7\nhistory\nflip\nnew\nhistory\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    settings().bind(|| insta::assert_snapshot!("play_history_flip_new", &out));
    assert!(out.contains("1. h2e2 h9g7"), "{out}");
    // Flipped: Black's side at the bottom, the files read i..a.
    assert!(out.contains("    i h g f e d c b a"), "{out}");
    assert!(out.contains("No moves yet."), "{out}");
    let o = run(&["play", "gomoku", "--ascii"], "flip\nquit\n");
    assert!(
        stdout(&o).contains("gomoku's board looks the same from both sides"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn review_marks_the_turns_that_lost_most_with_the_better_move() {
    // Black throws two stones into the corner while the engine (depth 3) builds in the
    // centre: the review names those turns with a better move and draws the graph.
    let o = run(
        &["play", "gomoku", "--depth", "3", "--ascii"],
        "review\nh8\na1\nb1\nreview\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("No moves yet: nothing to review."), "{out}");
    assert!(out.contains("Reviewing 6 turns..."), "{out}");
    let marked: Vec<&str> = out.lines().filter(|l| l.starts_with("?? ")).collect();
    for corner in ["a1", "b1"] {
        assert!(
            marked
                .iter()
                .any(|l| l.contains(&format!(" {corner} ")) && l.contains("better ")),
            "{corner} not marked in:\n{out}"
        );
    }
    let graph = out
        .lines()
        .find_map(|l| l.strip_prefix("Graph (high: Black ahead, low: White ahead): "))
        .unwrap_or_else(|| panic!("no graph in:\n{out}"));
    assert_eq!(graph.len(), 6, "one bar a turn: {graph:?}");
    // After the corner stones White is ahead: the graph ends low.
    assert!(graph.ends_with('_') || graph.ends_with('.'), "{graph:?}");
    assert!(out.contains("Turns that lost most: "), "{out}");
}

#[test]
fn during_an_opening_rule_the_prompt_says_what_waits() {
    // RIF between two people: commands that wait for free play say so, history and save
    // work; once the opening is over, undo cannot take its stones back.
    let o = run(
        &[
            "play",
            "renju",
            "--opening",
            "rif",
            "--first",
            "human",
            "--second",
            "human",
            "--ascii",
        ],
        "hint\nundo undo\nh8\nhistory\ni9\nj10\nundo\nstay\ng7\nk8 k9\nk9\nundo\nquit\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for said in [
        "'hint' waits until the rif opening is over; now: place the 1st stone",
        "'undo' takes nothing after it: one command or move a line",
        "1. h8",
        "'undo' waits until the rif opening is over; now: ",
        "Nothing to undo: the opening rule's stones (rif) cannot be taken back.",
    ] {
        assert!(out.contains(said), "no {said:?} in:\n{out}");
    }
    assert!(!out.contains("Took back ."), "{out}");
}

#[test]
fn a_resigned_game_loads_as_over_and_a_folder_is_no_save_file() {
    let file = temp_file("resigned.txt");
    let folder = file.parent().unwrap().display().to_string();
    let o = run(
        &[
            "play", "gomoku", "--first", "human", "--second", "human", "--ascii",
        ],
        &format!(
            "h8\ni9\nresign\nsave {folder}\nsave {}\nquit\n",
            file.display()
        ),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(&format!("{folder} is a folder")), "{out}");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[Termination \"Black resigned\"]"), "{text}");
    // Loaded, the game is over as the record says; undo takes the resignation back.
    let o = run(
        &[
            "play",
            "--load",
            &file.display().to_string(),
            "--depth",
            "1",
            "--ascii",
        ],
        "h10\nundo\nh10\nhistory\nquit\n",
    );
    let out = stdout(&o);
    assert!(
        out.contains("The game is over (Black resigned): save FILE, undo, new or quit."),
        "{out}"
    );
    assert!(out.contains("1. h8 i9 2. h10"), "{out}");
}
