//! ConnectMore protocol sessions (insta snapshots) and a whole engine-vs-engine game driven
//! through the protocol.

use connect6::protocol::connectmore::{Session, run};
use game_core::Outcome;

/// Cases per property: `PROPTEST_CASES` when set (a bulk fuzz run: `PROPTEST_CASES=2000`),
/// else `default` (the suite's own count).
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn session(input: &str) -> String {
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn basics_and_errors() {
    let out = session(
        "name\n\nfoo\nnew red\nnew black\nmove ZZZZ\nmove JJ\nmove KK\nmove KKKK\nmove JJKK\ndepth x\ndepth 0\ntime -1\nname extra words\nprint\nquit\nname\n",
    );
    insta::assert_snapshot!(out);
}

/// A command without its argument, or with one it does not take, says what it expects and
/// changes nothing: the game below goes on as if those lines were not there.
#[test]
fn missing_and_extra_arguments_are_named() {
    let out = session("new\nmove\nblack\ndepth\ntime\nnext x\nprint x\nnew white\nprint\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "error `new` needs an argument: expected `new black` or `new white`",
            "error `move` needs an argument: expected the opponent's stones, `move XXXX` (`move JJ` for Black's first)",
            "error `black` needs an argument: expected the stones to place, such as `black JJKK`",
            "error `depth` needs an argument: expected a number of turns 1..30, such as `depth 4`",
            "error `time` needs an argument: expected milliseconds per turn, such as `time 1000`",
            "error `next x`: `next` takes no argument",
            "error `print x`: `print` takes no argument",
        ],
        "{out}"
    );
    assert!(
        out.ends_with("Black to move, 1 stone(s) to place\n"),
        "{out}"
    );
}

#[test]
fn help_lists_the_commands() {
    insta::assert_snapshot!(session("help\nexit\n"));
}

#[test]
fn engine_answers_as_white_at_depth_one() {
    let out = session("new white\ndepth 1\ntime 20000\nmove JJ\nprint\n");
    insta::assert_snapshot!(out);
}

#[test]
fn setup_and_forced_block() {
    // White g10..j10 (GJ HJ IJ JJ in ConnectMore): Black must block with a pair among
    // f10k10, e10k10, f10l10 (FJKJ, EJKJ, FJLJ).
    let out = session(
        "black JLDD\nblack PPCQ\nblack QC\nwhite GJHJ\nwhite IJJJ\nwhite DPPD\nprint\ndepth 2\nnext\n",
    );
    let moves: Vec<&str> = out.lines().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 1, "{out}");
    let m = &moves[0][5..];
    let mut pair = [&m[0..2], &m[2..4]];
    pair.sort();
    assert!(
        [["FJ", "KJ"], ["EJ", "KJ"], ["FJ", "LJ"]].contains(&pair),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn engine_plays_itself_to_the_end_without_errors() {
    let mut engines = [Session::new(), Session::new()];
    let talk = |s: &mut Session, line: &str| -> String {
        let mut out = Vec::new();
        assert!(s.handle(line, &mut out).unwrap());
        let text = String::from_utf8(out).unwrap();
        assert!(
            !text.lines().any(|l| l.starts_with("error")),
            "{line} -> {text}"
        );
        text
    };
    talk(&mut engines[0], "time 30");
    talk(&mut engines[1], "time 30");
    talk(&mut engines[1], "new white");
    let mut reply = talk(&mut engines[0], "new black");
    let mut mover = 0;
    let mut turns = 1;
    let end = loop {
        let mv = reply
            .trim()
            .strip_prefix("move ")
            .expect("a move line")
            .to_string();
        let listener = &mut engines[1 - mover];
        reply = talk(listener, &format!("move {mv}"));
        if let Some(end) = listener.position().game_end() {
            break end;
        }
        mover = 1 - mover;
        turns += 1;
        assert!(turns < 400, "the game must end");
    };
    assert!(matches!(end.0, Outcome::Win(_) | Outcome::Draw));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(cases(64)))]
    /// Garbage never kills the loop: every line is answered by at most a move, a board or an
    /// error, and the session keeps going.
    #[test]
    fn garbage_lines_never_panic(lines in proptest::collection::vec(
        proptest::prop_oneof![
            "[a-z]{0,6}( [A-Za-z0-9]{0,5}){0,2}",
            "(move|black|white) [A-T]{0,5}",
            "(clock|time)( [0-9-]{0,6}){0,3}",
            proptest::strategy::Just("next".to_string()),
            proptest::strategy::Just("new white".to_string()),
        ],
        0..12,
    )) {
        let mut session = Session::new();
        let mut out = Vec::new();
        session.handle("depth 1", &mut out).unwrap();
        session.handle("time 5", &mut out).unwrap();
        for line in &lines {
            let before = session.position().clone();
            let mut answer = Vec::new();
            let keep_going = session.handle(line, &mut answer).unwrap();
            let text = String::from_utf8(answer).unwrap();
            if text.starts_with("error") {
                proptest::prop_assert_eq!(session.position(), &before, "{} changed the state", line);
            }
            if !keep_going {
                break;
            }
        }
    }
}

#[test]
fn a_move_of_our_own_colour_is_refused_and_changes_nothing() {
    let mut s = Session::new();
    let mut out = Vec::new();
    for line in ["depth 1", "time 50", "new black", "white KKKL"] {
        s.handle(line, &mut out).unwrap();
    }
    // Black (ours) to move: `move` gives the opponent's stones, so this is refused.
    let before = s.position().clone();
    let mut answer = Vec::new();
    s.handle("move LLLM", &mut answer).unwrap();
    let text = String::from_utf8(answer).unwrap();
    assert!(
        text.starts_with("error move LLLM: Black to move is our colour"),
        "{text}"
    );
    assert_eq!(s.position(), &before);
    // `next` plays for us.
    let mut answer = Vec::new();
    s.handle("next", &mut answer).unwrap();
    assert!(String::from_utf8(answer).unwrap().starts_with("move "));
}

#[test]
fn the_opponents_winning_turn_is_announced() {
    // Black's `move JNJO` completes six in column J: the engine (White) has lost.
    let out = session(
        "black JJ\nwhite AAAC\nblack JKJL\nwhite AEAG\nblack JMPP\nwhite AIAK\nmove JNJO\nmove ABAD\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "We loss! (six in a row)", "{out}");
    assert!(
        lines[1].starts_with("error move ABAD: the game is over"),
        "{out}"
    );
    assert_eq!(lines.len(), 2, "{out}");
}

#[test]
fn control_characters_in_a_bad_line_are_escaped() {
    let out = session("foo\u{1b}[2J\rbar\nmove \u{7}\n");
    assert!(!out.chars().any(|c| c.is_control() && c != '\n'), "{out:?}");
    assert!(out.contains("foo\\u{1b}[2J\\rbar"), "{out:?}");
}

/// `clock MS [INC]` gives the engine its game clock: a turn then gets connect6's share of it
/// (`connect6::time::turn_time`) until `time` sets a time per turn again. A bad `clock` line
/// names what it expected and changes nothing.
#[test]
fn the_clock_sets_each_turns_time_and_bad_clocks_are_refused() {
    use std::time::Duration;
    let mut s = Session::new();
    let mut out = Vec::new();
    assert_eq!(s.turn_time(), Duration::from_millis(1000));
    s.handle("clock 12020 500", &mut out).unwrap();
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    // 12 s (20 ms kept for the pipes) over 12 turns, plus 80 % of the increment.
    assert_eq!(s.turn_time(), Duration::from_millis(1_400));
    for bad in [
        "clock",
        "clock x",
        "clock 0",
        "clock -5 100",
        "clock 1000 x",
        "clock 1000 -1",
        "clock 1000 10 10",
        "clock 86400001",
    ] {
        let mut answer = Vec::new();
        assert!(s.handle(bad, &mut answer).unwrap());
        let text = String::from_utf8(answer).unwrap();
        assert!(
            text.starts_with(&format!("error `{bad}`: "))
                && text.contains("expected `clock MS [INC]`"),
            "{bad}: {text}"
        );
        assert_eq!(s.turn_time(), Duration::from_millis(1_400), "{bad}");
    }
    // Without an increment, and then a time per turn again.
    s.handle("CLOCK 12020", &mut out).unwrap();
    assert_eq!(s.turn_time(), Duration::from_millis(1_000));
    s.handle("time 300", &mut out).unwrap();
    assert_eq!(s.turn_time(), Duration::from_millis(300));
    assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
    // The engine plays on its clock.
    let out = session("new white\ndepth 1\nclock 60000 1000\nmove JJ\n");
    assert!(
        out.starts_with("move ") && out.lines().count() == 1,
        "{out}"
    );
}
