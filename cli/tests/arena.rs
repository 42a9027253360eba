//! `qi match`: short qi-against-qi matches through each protocol, fake engines (shell scripts
//! under `tests/fixtures/arena/`) that play an illegal move, never answer or exit mid-game,
//! and the Elo / SPRT lines checked against hand-computed values.
//!
//! Every record a match writes is replayed with the game crates to check that the games
//! are legal and that the result and reason agree with the rules.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use game_core::{Outcome, Side};

fn fixture(name: &str) -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/arena/").to_string() + name
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-arena-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Runs `qi match ARGS`, asserts success, returns stdout.
fn qi_match(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qi"))
        .arg("match")
        .args(args)
        .output()
        .expect("qi runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "qi match {args:?} failed: {stderr}\n{stdout}"
    );
    stdout
}

/// One game record: its tags and its moves (without the trailing comment and result).
#[derive(Debug)]
struct Record {
    tags: HashMap<String, String>,
    moves: String,
}

/// The records of a file: each record's tags, and its movetext as the moves alone (move
/// numbers, `{comments}` and the result dropped) joined by spaces.
fn records(path: &PathBuf) -> Vec<Record> {
    let text = std::fs::read_to_string(path).expect("record file");
    let mut out = Vec::new();
    let mut current: Option<(Record, String)> = None;
    let finish = |(mut r, body): (Record, String)| {
        let mut words = Vec::new();
        let mut depth = 0;
        for w in body.split_whitespace() {
            if w.starts_with('{') {
                depth += 1;
            }
            let in_comment = depth > 0;
            if w.ends_with('}') {
                depth -= 1;
            }
            let number =
                w.ends_with('.') && w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit());
            let result = ["1-0", "0-1", "1/2-1/2", "*"].contains(&w);
            if !in_comment && !number && !result {
                words.push(w);
            }
        }
        r.moves = words.join(" ");
        r
    };
    for line in text.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            let (k, v) = tag.split_once(' ').unwrap();
            let v = v.trim_end_matches(']').trim_matches('"').to_string();
            if k == "Game" {
                out.extend(current.take().map(finish));
                current = Some((
                    Record {
                        tags: HashMap::new(),
                        moves: String::new(),
                    },
                    String::new(),
                ));
            }
            current.as_mut().unwrap().0.tags.insert(k.to_string(), v);
        } else if !line.trim().is_empty() {
            let body = &mut current.as_mut().unwrap().1;
            body.push_str(line);
            body.push(' ');
        }
    }
    out.extend(current.map(finish));
    out
}

fn result_of(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Side::First) => "1-0",
        Outcome::Win(Side::Second) => "0-1",
        Outcome::Draw => "1/2-1/2",
    }
}

/// The per-game lines of a match's output.
fn finished_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect()
}

fn assert_clean(out: &str) {
    for bad in ["time forfeit", "illegal move", "crash", "protocol error"] {
        assert!(!out.contains(bad), "unexpected '{bad}' in:\n{out}");
    }
}

#[test]
fn gomoku_qi_vs_qi_over_gomocup() {
    for (rule, size) in [("freestyle", "9"), ("renju", "9")] {
        let rec = temp(&format!("gomoku-{rule}.txt"));
        let log = temp(&format!("gomoku-{rule}.log"));
        let out = qi_match(&[
            "--log",
            log.to_str().unwrap(),
            "gomoku",
            "--size",
            size,
            "--rule",
            rule,
            "--engine",
            "qi,name=a",
            "--option",
            "hash=8",
            "--engine",
            "qi,name=b",
            "--option",
            "hash=4",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--movetime",
            "20ms",
            "--margin",
            "30s",
            "--seed",
            "11",
            "--records",
            rec.to_str().unwrap(),
        ]);
        assert!(out.contains("Match finished: 2 games"), "{out}");
        assert_eq!(finished_lines(&out).len(), 2, "{out}");
        assert_clean(&out);
        let recs = records(&rec);
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert_eq!(r.tags["Size"], "9");
            assert_eq!(r.tags["Rule"], rule);
            let rule: gomoku::Rule = rule.parse().unwrap();
            // Replaying the moves ends the game by rule, with the recorded result and reason.
            let board = gomoku::Board::from_moves(9, rule, &r.moves).expect("legal moves");
            let (outcome, reason) = board.game_end().expect("the game ended by rule");
            assert_eq!(r.tags["Result"], result_of(outcome), "{r:?}");
            assert_eq!(r.tags["Termination"], reason.to_string());
        }
        // The same opening twice, colours swapped.
        assert_eq!(recs[0].tags["Opening"], recs[1].tags["Opening"]);
        let mut blacks: Vec<&str> = recs.iter().map(|r| r.tags["Black"].as_str()).collect();
        blacks.sort_unstable();
        assert_eq!(blacks, ["a", "b"]);
        // Each --option went to the engine named before it (hash_size is in KiB).
        let log = std::fs::read_to_string(&log).unwrap();
        let code = if rule == "renju" { 4 } else { 0 };
        for (name, kib) in [("a", 8192), ("b", 4096)] {
            for line in [
                "START 9".to_string(),
                "INFO timeout_turn 20".to_string(),
                format!("INFO rule {code}"),
                format!("INFO hash_size {kib}"),
            ] {
                assert!(
                    log.lines()
                        .any(|l| l.starts_with(name) && l.ends_with(&format!("> {line}"))),
                    "{name} {line}\n{log}"
                );
            }
        }
    }
}

#[test]
fn gomoku_openings_file_and_game_clock() {
    let rec = temp("gomoku-openings.txt");
    let out = qi_match(&[
        "gomoku",
        "--size",
        "9",
        "--rule",
        "standard",
        "--engine",
        "qi",
        "--engine",
        "qi",
        "--openings",
        &fixture("gomoku_openings.txt"),
        "--games",
        "4",
        "--concurrency",
        "2",
        "--tc",
        "2+0.02",
        "--margin",
        "30s",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert!(out.contains("Match finished: 4 games"), "{out}");
    assert!(out.contains("2 openings from"), "{out}");
    assert_clean(&out);
    let recs = records(&rec);
    assert_eq!(recs.len(), 4);
    let mut openings: Vec<&str> = recs.iter().map(|r| r.tags["Opening"].as_str()).collect();
    openings.sort_unstable();
    // 0,0 1,1 -1,1 from the centre e5 (y down): e5 f4 d4.
    assert_eq!(openings, ["e5d4f6", "e5d4f6", "e5f4d4", "e5f4d4"]);
    for r in &recs {
        assert_eq!(r.tags["TimeControl"], "2+0.02");
        assert!(
            r.moves
                .starts_with(&format!("{} ", &r.tags["Opening"][..2]))
        );
        let board = gomoku::Board::from_moves(9, gomoku::Rule::Standard, &r.moves).unwrap();
        let (outcome, _) = board.game_end().expect("ended by rule");
        assert_eq!(r.tags["Result"], result_of(outcome));
    }
}

#[test]
fn connect6_qi_vs_qi_over_connectmore() {
    let rec = temp("connect6.txt");
    let out = qi_match(&[
        "connect6",
        "--engine",
        "qi",
        "--engine",
        "qi,option.depth=2",
        "--games",
        "2",
        "--movetime",
        "50ms",
        "--margin",
        "30s",
        "--seed",
        "5",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert!(out.contains("Match finished: 2 games"), "{out}");
    assert_clean(&out);
    // Same names get told apart.
    assert!(
        out.contains("qi-1 (connectmore) vs qi-2 (connectmore)"),
        "{out}"
    );
    for r in records(&rec) {
        assert_eq!(r.tags["Game"], "Connect6");
        let pos = connect6::Connect6::from_moves(19, &r.moves).expect("legal moves");
        let (outcome, reason) = pos.game_end().expect("the game ended by rule");
        assert_eq!(r.tags["Result"], result_of(outcome), "{r:?}");
        assert_eq!(r.tags["Termination"], reason.to_string());
        assert_eq!(r.tags["OpeningMoves"], "2");
    }
    // An openings file and a game clock.
    let rec = temp("connect6-openings.txt");
    let out = qi_match(&[
        "connect6",
        "--engine",
        "qi",
        "--engine",
        "qi",
        "--openings",
        &fixture("connect6_openings.txt"),
        "--games",
        "2",
        "--tc",
        "3+0.05",
        "--margin",
        "30s",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert_clean(&out);
    for r in records(&rec) {
        assert_eq!(r.tags["Opening"], "j10 j9l11");
        assert!(r.moves.starts_with("j10 j9l11 "), "{r:?}");
        let pos = connect6::Connect6::from_moves(19, &r.moves).expect("legal moves");
        let (outcome, _) = pos.game_end().expect("the game ended by rule");
        assert_eq!(r.tags["Result"], result_of(outcome), "{r:?}");
    }
}

/// Replays a xiangqi record's ICCS moves (move numbers skipped) from its FEN.
fn replay_xiangqi(r: &Record) -> xiangqi::Position {
    let mut pos = xiangqi::Position::from_fen(&r.tags["FEN"]).unwrap();
    for m in r.moves.split_whitespace() {
        // The record writes ICCS with a dash, `H2-E2`.
        let mv = pos
            .parse_iccs(&m.replace('-', "").to_ascii_lowercase())
            .expect("legal move");
        pos.play(mv);
    }
    pos
}

#[test]
fn xiangqi_fakes_draw_by_repetition_over_ucci_and_uci() {
    let rec = temp("xiangqi.pgn");
    let fake = fixture("xiangqi_fake.sh");
    let out = qi_match(&[
        "xiangqi",
        "--engine",
        &format!("cmd={fake},proto=ucci,name=u1,arg=ucci,arg=repeat"),
        "--engine",
        &format!("cmd={fake},proto=uci,name=u2,arg=uci,arg=repeat"),
        "--openings",
        &fixture("xiangqi_startpos.txt"),
        "--games",
        "2",
        "--movetime",
        "100ms",
        "--margin",
        "30s",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert_clean(&out);
    assert_eq!(
        finished_lines(&out),
        [
            "Finished game 1 (u1 vs u2): 1/2-1/2 {draw: repetition} [8 moves]; score 0 - 0 - 1 \
             [0.500] after 1",
            "Finished game 2 (u2 vs u1): 1/2-1/2 {draw: repetition} [8 moves]; score 0 - 0 - 2 \
             [0.500] after 2",
        ]
    );
    let recs = records(&rec);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.tags["Game"], "Chinese Chess");
        assert_eq!(r.tags["Result"], "1/2-1/2");
        assert_eq!(r.moves, "A0-A1 A9-A8 A1-A0 A8-A9 A0-A1 A9-A8 A1-A0 A8-A9");
        let pos = replay_xiangqi(r);
        assert_eq!(
            pos.game_end(),
            Some((Outcome::Draw, xiangqi::EndReason::Repetition))
        );
    }
    assert_eq!(recs[0].tags["Red"], "u1");
    assert_eq!(recs[1].tags["Red"], "u2");
    // Each engine made 4 moves a game.
    for name in ["u1", "u2"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("Time per move, {name}: mean ")))
            .unwrap_or_else(|| panic!("no time line for {name}: {out}"));
        assert!(line.ends_with(" over 8 moves"), "{line}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn engines_that_ignore_quit_are_killed_with_what_they_started() {
    use std::time::{Duration, Instant};
    let pid_file = temp("stubborn.pids");
    let fake = fixture("xiangqi_fake.sh");
    let spec = |name: &str| {
        format!(
            "cmd={fake},proto=ucci,name={name},arg=ucci,arg=stubborn,arg={}",
            pid_file.display()
        )
    };
    let out = qi_match(&[
        "xiangqi",
        "--engine",
        &spec("s1"),
        "--engine",
        &spec("s2"),
        "--openings",
        &fixture("xiangqi_startpos.txt"),
        "--games",
        "2",
        "--movetime",
        "100ms",
        "--margin",
        "30s",
    ]);
    assert_eq!(finished_lines(&out).len(), 2, "{out}");
    let text = std::fs::read_to_string(&pid_file).expect("the fakes wrote their PIDs");
    let pids: Vec<u32> = text
        .split_whitespace()
        .map(|p| p.parse().expect("a PID"))
        .collect();
    assert!(pids.len() >= 4, "two engines and their sleeps: {text}");
    // A killed process may stay a zombie until it is reaped: that counts as gone.
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    let deadline = Instant::now() + Duration::from_secs(5);
    while pids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|&p| alive(p)).collect();
    assert!(left.is_empty(), "still running after the match: {left:?}");
}

#[test]
fn xiangqi_fake_faults_lose_with_their_reason() {
    let fake = fixture("xiangqi_fake.sh");
    for (proto, mode, reason) in [
        ("ucci", "illegal", "illegal move: 'e"),
        ("uci", "illegal", "illegal move: 'e"),
        ("ucci", "silent", "time forfeit: no move within 3200 ms"),
        ("uci", "crash", "crash: engine exited with status 3"),
    ] {
        let out = qi_match(&[
            "xiangqi",
            "--engine",
            &format!("cmd={fake},proto={proto},name=bad,arg={proto},arg={mode}"),
            "--engine",
            &format!("cmd={fake},proto=ucci,name=good,arg=ucci,arg=repeat"),
            "--openings",
            &fixture("xiangqi_startpos.txt"),
            "--games",
            "2",
            "--movetime",
            "200ms",
            "--margin",
            "3s",
        ]);
        let lines = finished_lines(&out);
        assert_eq!(lines.len(), 2, "{out}");
        // Game 1: bad is Red and loses at once; game 2: bad is Black and loses after a0a1.
        assert!(
            lines[0].starts_with("Finished game 1 (bad vs good): 0-1 {Black wins: ")
                && lines[0].contains(reason)
                && lines[0].contains("[0 moves]"),
            "{proto} {mode}: {}",
            lines[0]
        );
        assert!(
            lines[1].starts_with("Finished game 2 (good vs bad): 1-0 {Red wins: ")
                && lines[1].contains(reason)
                && lines[1].contains("[1 moves]"),
            "{proto} {mode}: {}",
            lines[1]
        );
        assert!(
            out.contains("bad: 0 wins, 0 draws, 2 losses, 0.0/2 points"),
            "{out}"
        );
    }
}

#[test]
fn gomocup_fake_faults_lose_and_the_match_goes_on() {
    let fake = fixture("gomocup_fake.sh");
    for (mode, reason) in [
        ("illegal", "is occupied"),
        (
            "silent",
            "time forfeit: no move within 3200 ms (200 ms allowed + 3000 ms margin)",
        ),
        (
            "crash",
            "crash: engine exited with status 3 (while thinking)",
        ),
        (
            "refuse",
            "protocol error: engine said 'ERROR unsupported size' to 'START 9'",
        ),
    ] {
        let rec = temp(&format!("gomocup-{mode}.txt"));
        let out = qi_match(&[
            "gomoku",
            "--size",
            "9",
            "--engine",
            "qi",
            "--engine",
            &format!("cmd={fake},proto=gomocup,name=fake,arg={mode}"),
            "--games",
            "4",
            "--movetime",
            "200ms",
            "--margin",
            "3s",
            "--seed",
            "2",
            "--records",
            rec.to_str().unwrap(),
        ]);
        let lines = finished_lines(&out);
        assert_eq!(lines.len(), 4, "{mode}: {out}");
        for l in &lines {
            assert!(l.contains(reason), "{mode}: {l}");
        }
        assert!(
            out.contains("qi: 4 wins, 0 draws, 0 losses, 4.0/4 points"),
            "{mode}: {out}"
        );
        assert!(out.contains("Elo difference: +inf"), "{out}");
        let recs = records(&rec);
        assert_eq!(recs.len(), 4);
        for r in &recs {
            // qi wins every game, whichever colour it has.
            let qi_black = r.tags["Black"] == "qi";
            assert_eq!(
                r.tags["Result"],
                if qi_black { "1-0" } else { "0-1" },
                "{r:?}"
            );
            assert!(r.tags["Termination"].contains(reason));
            if mode == "refuse" {
                // No stone after the opening: the game was lost before it began.
                let opening: usize = r.tags["OpeningMoves"].parse().unwrap();
                assert_eq!(r.moves.split_whitespace().count(), opening, "{r:?}");
            }
            // The moves before the fault are legal and did not end the game.
            let board = gomoku::Board::from_moves(9, gomoku::Rule::Freestyle, &r.moves).unwrap();
            assert_eq!(board.game_end(), None);
        }
        if mode == "crash" {
            // Restarted after every crash: the fake played one stone in each game.
            for r in &recs {
                let stones = r.moves.split_whitespace().count();
                let opening: usize = r.tags["OpeningMoves"].parse().unwrap();
                assert!(stones > opening, "{r:?}");
            }
        }
    }
}

/// Against a fake that always plays an illegal move qi wins every game. With W wins and no
/// draws or losses (zero counts regularised to 0.001, as fishtest does) the generalised SPRT
/// is about W · ln(s1/s0): the most likely results with score s put s on a win. With elo0=0,
/// elo1=400 (s0 = 0.5, s1 = 0.9090909, ln(s1/s0) = 0.597837) the LLR after 4 wins is 2.389045
/// < 2.944 and after 5 wins 2.986882 >= 2.944 (computed independently with a Python bisection
/// for the constrained likelihood maximum): H1, the match stops after 5 games.
#[test]
fn sprt_stops_the_match_when_a_bound_is_crossed() {
    let out = qi_match(&[
        "gomoku",
        "--size",
        "9",
        "--engine",
        "qi",
        "--engine",
        &format!(
            "cmd={},proto=gomocup,name=fake,arg=illegal",
            fixture("gomocup_fake.sh")
        ),
        "--games",
        "20",
        "--movetime",
        "200ms",
        "--margin",
        "30s",
        "--sprt",
        "elo0=0,elo1=400,alpha=0.05,beta=0.05",
    ]);
    assert_eq!(finished_lines(&out).len(), 5, "{out}");
    assert!(out.contains("Match finished: 5 games"), "{out}");
    assert!(
        out.contains(
            "SPRT (elo0=0, elo1=400, alpha=0.05, beta=0.05): LLR 2.987 [-2.944, 2.944]: H1 \
             accepted (stopped early)"
        ),
        "{out}"
    );
}

/// A fake that repeats as Red and plays an illegal move as Black, against one that always
/// repeats: per pair of games a draw (by repetition) and a loss, so after 4 games W=0, D=2,
/// L=2 for the first engine. By hand: s = 1/4; Elo = -400 log10(1/0.25 - 1) = -400 log10 3
/// = -190.85; σ² = (2·0.25² + 2·0.25²)/4 = 0.0625; half width = 1.959964·sqrt(0.0625/4) =
/// 0.244995; s ∈ [0.005005, 0.494995]: -400 log10(1/0.005005 - 1) = -919.38 and
/// -400 log10(1/0.494995 - 1) = -3.48. SPRT elo0=0, elo1=5, counts (0.001, 2, 2): the
/// generalised SPRT gives LLR = -0.058 (computed independently with a Python bisection for the
/// constrained likelihood maximum; no decision after 4 games).
#[test]
fn elo_and_llr_lines_match_hand_computed_values() {
    let fake = fixture("xiangqi_fake.sh");
    let out = qi_match(&[
        "xiangqi",
        "--engine",
        &format!("cmd={fake},proto=ucci,name=half,arg=ucci,arg=redonly"),
        "--engine",
        &format!("cmd={fake},proto=uci,name=rep,arg=uci,arg=repeat"),
        "--openings",
        &fixture("xiangqi_startpos.txt"),
        "--games",
        "4",
        "--concurrency",
        "2",
        "--movetime",
        "200ms",
        "--margin",
        "30s",
        "--sprt",
        "elo0=0,elo1=5",
    ]);
    assert!(
        out.contains("Score of half vs rep: 0 - 2 - 2  [0.250] 4"),
        "{out}"
    );
    assert!(
        out.contains("Elo difference: -190.8 (95% interval -919.4 .. -3.5)"),
        "{out}"
    );
    assert!(
        out.contains("LLR -0.058 [-2.944, 2.944]: no decision"),
        "{out}"
    );
    assert!(out.contains("2 x repetition"), "{out}");
}

#[test]
fn bad_match_options_are_usage_errors() {
    for (args, needle) in [
        (vec!["gomoku", "--engine", "qi"], "exactly two --engine"),
        (
            vec![
                "gomoku",
                "--engine",
                "qi",
                "--engine",
                "cmd=/nonexistent/x,proto=gomocup",
            ],
            "no program at /nonexistent/x",
        ),
        (
            vec!["xiangqi", "--engine", "qi", "--engine", "qi,proto=gomocup"],
            "not a Chinese Chess protocol",
        ),
        (
            vec!["gomoku", "--engine", "qi", "--engine", "qi", "--tc", "fast"],
            "--tc base: bad time 'fast'",
        ),
        (
            vec![
                "gomoku",
                "--engine",
                "qi",
                "--engine",
                "qi",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo0 (5) must be below elo1 (0)",
        ),
        (
            vec![
                "connect6", "--engine", "qi", "--engine", "qi", "--size", "15",
            ],
            "19x19 only",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_qi"))
            .arg("match")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn xiangqi_qi_vs_qi_over_ucci_and_uci() {
    let rec = temp("xiangqi-qi.pgn");
    let out = qi_match(&[
        "xiangqi",
        "--engine",
        "qi,name=ucci",
        "--engine",
        "qi,name=uci,proto=uci",
        "--each",
        "hash=8",
        "--games",
        "2",
        "--movetime",
        "30ms",
        "--margin",
        "30s",
        "--max-plies",
        "120",
        "--seed",
        "9",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert!(out.contains("Match finished: 2 games"), "{out}");
    assert_clean(&out);
    let recs = records(&rec);
    assert_eq!(recs.len(), 2);
    for r in &recs {
        assert_eq!(r.tags["Game"], "Chinese Chess");
        let pos = replay_xiangqi(r);
        match pos.game_end() {
            Some((outcome, _)) => {
                assert_eq!(r.tags["Result"], result_of(outcome), "{r:?}");
                // The reason in words, as `qi play` says it: the game frame's.
                let ending = game_frame::Rules::ending(&pos).expect("over");
                assert_eq!(r.tags["Termination"], ending.reason);
            }
            None => {
                assert_eq!(r.tags["Result"], "1/2-1/2", "{r:?}");
                assert!(r.tags["Termination"].contains("move limit (120"), "{r:?}");
            }
        }
    }
}

/// Connect Four has no engine protocol: qi plays it in-process, refereed by the same frame
/// as `qi play`; every record replays to its result.
#[test]
fn connect4_qi_vs_qi_in_process() {
    let rec = temp("connect4.txt");
    let out = qi_match(&[
        "connect4",
        "--engine",
        "qi,name=deep",
        "--option",
        "depth=6",
        "--engine",
        "qi,name=quick",
        "--option",
        "depth=2",
        "--games",
        "4",
        "--movetime",
        "1s",
        "--seed",
        "7",
        "--records",
        rec.to_str().unwrap(),
    ]);
    assert!(out.contains("Match finished: 4 games"), "{out}");
    assert!(
        out.contains("deep (inprocess) vs quick (inprocess)"),
        "{out}"
    );
    assert_clean(&out);
    let recs = records(&rec);
    assert_eq!(recs.len(), 4);
    for r in &recs {
        assert_eq!(r.tags["Game"], "Connect Four");
        let moves: String = r.moves.split_whitespace().collect();
        let mut pos = connect4::ConnectFour::standard();
        for c in moves.chars() {
            let col = pos.parse_column(&c.to_string()).expect("a column");
            pos.try_play(col).expect("a legal move");
        }
        let end = pos.game_end().expect("the game ended by rule");
        assert_eq!(r.tags["Result"], result_of(end), "{r:?}");
        assert_eq!(r.tags["OpeningMoves"], "4");
    }
    // An external engine needs a protocol the game speaks: connect4 has none.
    let o = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args([
            "match",
            "connect4",
            "--engine",
            "cmd=/bin/cat,proto=gomocup",
            "--engine",
            "qi",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("connect4 has no engine protocol"), "{err}");
}
