//! Work units that run anywhere and merge exactly: `qi match --pairs A..B --results FILE`,
//! `qi match merge FILES`, and `qi selfplay --first-game K` shards. Every search is limited by
//! depth, so every game is the same on any machine and under any load.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qi-slices-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

/// Runs `qi ARGS`, asserts success, returns stdout.
fn qi<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(args)
        .output()
        .expect("qi runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "qi {args:?} failed: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The summary from `Match finished` on, without the time per move (measured, not played).
fn summary(out: &str) -> Vec<String> {
    out.lines()
        .skip_while(|l| !l.starts_with("Match finished"))
        .filter(|l| !l.starts_with("Time per move"))
        .map(str::to_string)
        .collect()
}

/// A gomoku match on 9x9 between qi at depth 1 and at depth 3 over Gomocup, pairs `range` (or
/// `--games 6`), its result lines appended to `results`; returns stdout.
fn depth_match(range: Option<&str>, results: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "match",
        "gomoku",
        "--size",
        "9",
        "--engine",
        "qi,name=shallow,option.depth=1",
        "--engine",
        "qi,name=deep,option.depth=3",
        "--movetime",
        "60s",
        "--seed",
        "21",
        "--results",
        results.to_str().unwrap(),
    ];
    match range {
        Some(r) => args.extend(["--pairs", r]),
        None => args.extend(["--games", "6"]),
    }
    args.extend(extra);
    qi(&args)
}

#[test]
fn slices_of_a_match_merge_to_the_whole_match() {
    let whole = temp("whole.jsonl");
    let full = depth_match(None, &whole, &["--concurrency", "2"]);
    let parts = temp("parts.jsonl");
    let first = depth_match(Some("0..1"), &parts, &[]);
    assert!(first.contains("pairs 0..1 (2 games)"), "{first}");
    let second = temp("second.jsonl");
    depth_match(Some("1..3"), &second, &[]);
    // One JSON line per pair, each with both games and the pentanomial bucket.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&whole)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        let games = line["games"].as_array().unwrap();
        assert_eq!(games.len(), 2);
        let halves: u64 = games
            .iter()
            .map(|g| {
                // Engine 0 (shallow) scores 2 half points for a win, 1 for a draw.
                let first_won = g["result"] == "1-0";
                let shallow_first = g["first"] == 0;
                match g["result"].as_str().unwrap() {
                    "1/2-1/2" => 1,
                    _ if first_won == shallow_first => 2,
                    _ => 0,
                }
            })
            .sum();
        assert_eq!(line["penta"].as_u64(), Some(halves), "{line}");
        assert_eq!(line["match"]["engines"][1], "deep");
    }
    let sprt = ["--sprt", "elo0=0,elo1=100"];
    let merged = qi(&[
        &[
            "match",
            "merge",
            parts.to_str().unwrap(),
            second.to_str().unwrap(),
        ][..],
        &sprt[..],
    ]
    .concat());
    let merged_whole = qi(&[&["match", "merge", whole.to_str().unwrap()][..], &sprt[..]].concat());
    assert!(
        merged.starts_with("qi match merge: 3 pairs from 2 files"),
        "{merged}"
    );
    // The slices give the whole match's games, so the same summary, line for line; and
    // the summary of the whole match's own file is exactly what the match printed.
    assert_eq!(summary(&merged), summary(&merged_whole));
    let printed: Vec<String> = summary(&full);
    let without_sprt: Vec<String> = summary(&merged_whole)
        .into_iter()
        .filter(|l| !l.starts_with("SPRT"))
        .collect();
    assert_eq!(printed, without_sprt, "{full}");
    let json: serde_json::Value =
        serde_json::from_str(&qi(&["match", "merge", "--json", whole.to_str().unwrap()])).unwrap();
    assert_eq!(json["games"], 6);
    assert_eq!(json["pairs"], 3);
    // A pair given twice is counted once.
    let twice = qi(&[
        "match",
        "merge",
        whole.to_str().unwrap(),
        parts.to_str().unwrap(),
    ]);
    assert_eq!(
        summary(&twice),
        summary(&qi(&["match", "merge", whole.to_str().unwrap()]))
    );
}

#[test]
fn an_odd_game_is_written_alone_and_merged() {
    let results = temp("odd.jsonl");
    let out = qi(&[
        "match",
        "gomoku",
        "--size",
        "9",
        "--engine",
        "qi,name=a,option.depth=1",
        "--engine",
        "qi,name=b,option.depth=2",
        "--movetime",
        "60s",
        "--seed",
        "4",
        "--games",
        "3",
        "--results",
        results.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&results).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["pair"], 1);
    assert!(lines[1]["penta"].is_null());
    assert_eq!(lines[1]["games"].as_array().unwrap().len(), 1);
    let merged = qi(&["match", "merge", results.to_str().unwrap()]);
    assert_eq!(summary(&merged), summary(&out));
    assert!(merged.contains("over 1 pairs"), "{merged}");
}

/// Runs `qi ARGS`, asserts failure, returns stderr.
fn run<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qi"))
        .args(args)
        .output()
        .expect("qi runs");
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `qi match` arguments of a slice of a 9x9 gomoku match between qi at depth 1
/// and at depth `deep`, seed `seed`, pairs `pairs`, its result lines appended to `results`.
fn slice(seed: &str, deep: u32, pairs: &str, results: &Path) -> Vec<String> {
    let second = format!("qi,option.depth={deep}");
    [
        "match",
        "gomoku",
        "--size",
        "9",
        "--engine",
        "qi,option.depth=1",
        "--engine",
        &second,
        "--movetime",
        "60s",
        "--seed",
        seed,
        "--pairs",
        pairs,
        "--results",
        results.to_str().unwrap(),
    ]
    .map(str::to_string)
    .to_vec()
}

#[test]
fn bad_result_files_are_refused_with_where_and_what() {
    let junk = temp("junk.jsonl");
    std::fs::write(&junk, "\n{\"pair\": 1}\n").unwrap();
    let err = run(&["match", "merge", junk.to_str().unwrap()]);
    assert!(err.contains("junk.jsonl:2: not a result line"), "{err}");
    let empty = temp("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let err = run(&["match", "merge", empty.to_str().unwrap()]);
    assert!(err.contains("no result line"), "{err}");
    let err = run(&[
        "match",
        "merge",
        "--sprt",
        "elo0=5,elo1=0",
        empty.to_str().unwrap(),
    ]);
    assert!(err.contains("must be below"), "{err}");
    // Two matches do not merge.
    let a = temp("a.jsonl");
    let b = temp("b.jsonl");
    for (file, seed) in [(&a, "1"), (&b, "2")] {
        qi(&slice(seed, 1, "0..1", file));
    }
    let err = run(&["match", "merge", a.to_str().unwrap(), b.to_str().unwrap()]);
    assert!(err.contains("b.jsonl:1 is from another match"), "{err}");
    assert!(err.contains("seed 2"), "{err}");
    // ... nor does a file of one match take another's lines.
    let err = run(&slice("2", 1, "1..2", &a));
    assert!(err.contains("holds another match"), "{err}");
    assert_eq!(std::fs::read_to_string(&a).unwrap().lines().count(), 1);
    // Engines with other settings make another match too (depth 2 against depth 1).
    let c = temp("c.jsonl");
    qi(&slice("1", 2, "1..2", &c));
    let err = run(&["match", "merge", a.to_str().unwrap(), c.to_str().unwrap()]);
    assert!(err.contains("option.depth=2"), "{err}");
    // Edited lines: engine 1 playing first in an even game, one game twice.
    let line = std::fs::read_to_string(&a).unwrap();
    let swapped = temp("swapped.jsonl");
    std::fs::write(&swapped, line.replacen("\"first\":0", "\"first\":1", 1)).unwrap();
    let err = run(&["match", "merge", swapped.to_str().unwrap()]);
    assert!(
        err.contains("swapped.jsonl:1: game 0: first engine 1"),
        "{err}"
    );
    let twice = temp("twice.jsonl");
    std::fs::write(&twice, line.replacen("\"index\":1", "\"index\":0", 1)).unwrap();
    let err = run(&["match", "merge", twice.to_str().unwrap()]);
    assert!(err.contains("holds game 0 twice"), "{err}");
    for bad in ["3..3", "x..4", "4", "2..1"] {
        let err = run(&[
            "match", "gomoku", "--engine", "qi", "--engine", "qi", "--pairs", bad,
        ]);
        assert!(err.contains("--pairs"), "{err}");
    }
    let err = run(&[
        "match", "gomoku", "--engine", "qi", "--engine", "qi", "--pairs", "0..2", "--games", "4",
    ]);
    assert!(err.contains("cannot be used with"), "{err}");
}

/// The positions of a self-play file, without its comment lines.
fn data(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

#[test]
fn selfplay_shards_concatenate_to_one_run() {
    let run = |name: &str, extra: &[&str]| {
        let out = temp(name);
        let mut args = vec![
            "selfplay", "gomoku", "--size", "9", "--depth", "2", "--seed", "5", "--out",
        ];
        args.push(out.to_str().unwrap());
        args.extend(extra);
        let done = Command::new(env!("CARGO_BIN_EXE_qi"))
            .args(&args)
            .output()
            .expect("qi runs");
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        data(&out)
    };
    let one = run("one.txt", &["--games", "4", "--threads", "2"]);
    let a = run("a.txt", &["--games", "1"]);
    let b = run(
        "b.txt",
        &["--first-game", "1", "--games", "3", "--threads", "2"],
    );
    assert!(!one.is_empty());
    assert_eq!([a, b].concat(), one);
}
