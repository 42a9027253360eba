//! Gomocup protocol sessions, snapshotted (inputs use CR LF as managers send them).

use gomoku::protocol::gomocup::run;

fn session(lines: &[&str]) -> String {
    let input: String = lines.iter().map(|l| format!("{l}\r\n")).collect();
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    // Show each command followed by its replies for readable snapshots.
    let mut shown = String::new();
    for l in lines {
        shown.push_str(&format!("> {l}\n"));
    }
    shown.push_str("---\n");
    shown.push_str(&text);
    shown
}

fn moves(text: &str) -> Vec<String> {
    text.split("---\n")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("MESSAGE"))
        .map(String::from)
        .collect()
}

#[test]
fn whole_game() {
    let s = session(&[
        "START 15",
        "INFO rule 0",
        "INFO timeout_turn 30000",
        "INFO max_depth 3",
        "BEGIN",
        "TURN 0,0",
        "TURN 1,0",
        "TURN 2,0",
        "TURN 0,14",
        "TURN 14,14",
        "TURN 14,0",
        "TURN 0,7",
        "END",
    ]);
    let replies = moves(&s);
    assert_eq!(replies[0], "OK");
    assert_eq!(replies[1], "7,7");
    assert!(
        replies
            .iter()
            .any(|l| l.starts_with("ERROR TURN: the game is over")),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn board_block() {
    // Our four on row 7 (6..9): we must complete the five.
    let s = session(&[
        "START 20",
        "INFO max_depth 2",
        "BOARD",
        "6,7,1",
        "0,0,2",
        "7,7,1",
        "0,2,2",
        "8,7,1",
        "0,4,2",
        "9,7,1",
        "0,6,2",
        "DONE",
        "END",
    ]);
    let r = moves(&s);
    assert_eq!(r.len(), 2, "{s}");
    assert!(r[1] == "10,7" || r[1] == "5,7", "{s}");
    insta::assert_snapshot!(s);
    // Opponent's four: we must block (renju, stones in move order, the opponent is Black).
    let s = session(&[
        "START 15",
        "INFO rule 4",
        "INFO max_depth 2",
        "BOARD",
        "7,7,2",
        "0,0,1",
        "8,7,2",
        "6,7,1",
        "9,7,2",
        "0,2,1",
        "10,7,2",
        "DONE",
        "END",
    ]);
    assert_eq!(moves(&s).last().unwrap(), "11,7", "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn takeback_and_yxboard() {
    let s = session(&[
        "START 15",
        "INFO max_depth 2",
        "BEGIN",
        "TURN 8,8",
        "YXBOARD",
        "7,7,1",
        "8,8,2",
        "DONE",
        "TAKEBACK 8,8",
        "TAKEBACK 8,8",
        "TURN 8,8",
        "RESTART",
        "YXBOARD",
        "DONE",
        "END",
    ]);
    let r = moves(&s);
    assert!(
        r.contains(&"ERROR TAKEBACK: no stone on 8,8".to_string()),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn swap2() {
    let s = session(&[
        "START 15",
        "INFO max_depth 2",
        "SWAP2BOARD",
        "DONE",
        "SWAP2BOARD",
        "7,7",
        "8,8",
        "9,7",
        "DONE",
        "SWAP2BOARD",
        "7,7",
        "7,8",
        "7,9",
        "14,14",
        "6,6",
        "DONE",
        "SWAP2BOARD",
        "7,7",
        "DONE",
        "END",
    ]);
    let r = moves(&s);
    assert_eq!(r[1], "7,7 8,8 9,7");
    assert_eq!(
        r.last().unwrap(),
        "ERROR SWAP2BOARD: expected 0, 3 or 5 stones, got 1"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn bad_lines_change_nothing() {
    let s = session(&[
        "TURN 7,7",
        "START 30",
        "START x",
        "RECTSTART 15,20",
        "RECTSTART 20,20",
        "START 15",
        "INFO max_depth 2",
        "INFO rule 4",
        "INFO timeout_turn abc",
        "INFO timeout_turn -5",
        "INFO some_new_key 5",
        "INFO thread_num 1",
        "INFO hash_size 65536",
        "INFO max_memory 367001600",
        "INFO time_left 2147483647",
        "INFO timeout_match 0",
        "FOO bar",
        "",
        "TURN 99,99",
        "TURN a,b",
        "TURN 7,7",
        "TURN 7,7",
        "BOARD",
        "1,1,1",
        "nonsense",
        "DONE",
        "YXBOARD",
        "7,7,1",
        "8,7,1",
        "10,5,1",
        "10,6,1",
        "0,0,2",
        "0,2,2",
        "0,4,2",
        "0,6,2",
        "DONE",
        "YXSHOWFORBID",
        "ABOUT",
        "END",
        "TURN 1,1",
    ]);
    // Black (us) has a double three at 10,7 (row 7: 7,8,_,10 and column 10: 5,6,7).
    assert!(s.contains("FORBID 1007."), "{s}");
    assert!(
        s.contains("INFO timeout_turn -5: expected milliseconds, 0 or more"),
        "{s}"
    );
    insta::assert_snapshot!(s);
}

#[test]
fn takeback_only_the_last_stone() {
    // Regression: a TAKEBACK of an earlier stone used to rebuild the board with the wrong
    // side to move, so the next TURN stone became ours and we answered as Black.
    let s = session(&[
        "START 15",
        "INFO timeout_turn 200",
        "INFO max_depth 2",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,9,2",
        "10,10,1",
        "11,11,2",
        "DONE",
        "TAKEBACK 8,8",
        "TAKEBACK 7,7",
        "YXSHOWFORBID",
        "END",
    ]);
    let r = moves(&s);
    let ours = &r[1];
    assert_eq!(
        r[2],
        format!(
            "ERROR TAKEBACK: 8,8 is not the last stone played (the last stone is {ours}); only the last move can be taken back"
        ),
        "{s}"
    );
    assert!(
        r[3].starts_with("ERROR TAKEBACK: 7,7 is not the last"),
        "{s}"
    );
    insta::assert_snapshot!(s);

    // State unchanged: our last stone, then the opponent's, come back off in order, and the
    // opponent's next stone is theirs (White to move after two takebacks: we are White).
    let s = session(&[
        "START 15",
        "INFO max_depth 2",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,9,2",
        "10,10,1",
        "11,11,2",
        "DONE",
        "TAKEBACK 8,8",
        "TAKEBACK 11,11",
        "END",
    ]);
    let r = moves(&s);
    assert!(r[2].starts_with("ERROR TAKEBACK: 8,8"), "{s}");
    assert_eq!(r[3], "ERROR TAKEBACK: 11,11 is not the last stone played (the last stone is {}); only the last move can be taken back".replace("{}", &r[1]), "{s}");
    // After the refused TAKEBACK the move order is intact: the opponent's next stone comes
    // after our answer, and everything comes off again last first.
    let ours = r[1].clone();
    let s = session(&[
        "START 15",
        "INFO max_depth 2",
        "BOARD",
        "7,7,2",
        "8,8,1",
        "9,9,2",
        "10,10,1",
        "11,11,2",
        "DONE",
        "TAKEBACK 8,8",
        "TURN 0,0",
        "END",
    ]);
    let r = moves(&s);
    assert_eq!(r[1], ours, "{s}");
    let answer = r[3].clone();
    let tb = |p: &str| format!("TAKEBACK {p}");
    let script = [
        "START 15".to_string(),
        "INFO max_depth 2".to_string(),
        "BOARD".to_string(),
        "7,7,2".to_string(),
        "8,8,1".to_string(),
        "9,9,2".to_string(),
        "10,10,1".to_string(),
        "11,11,2".to_string(),
        "DONE".to_string(),
        "TAKEBACK 8,8".to_string(),
        "TURN 0,0".to_string(),
        tb(&answer),
        tb("0,0"),
        tb(&ours),
        tb("11,11"),
        tb("10,10"),
        "END".to_string(),
    ];
    let s = session(&script.iter().map(String::as_str).collect::<Vec<_>>());
    let r = moves(&s);
    assert_eq!(r[3], answer, "{s}");
    assert_eq!(&r[4..], ["OK"; 5].map(String::from).as_slice(), "{s}");
}

#[test]
fn finished_game_gets_no_move() {
    // The opponent (2) already has five on row 0: no move, an ERROR, state unchanged.
    let s = session(&[
        "START 15",
        "INFO max_depth 2",
        "BOARD",
        "0,0,2",
        "7,7,1",
        "1,0,2",
        "7,8,1",
        "2,0,2",
        "8,9,1",
        "3,0,2",
        "14,14,1",
        "4,0,2",
        "DONE",
        "BOARD",
        "0,0,1",
        "7,7,2",
        "1,0,1",
        "7,8,2",
        "2,0,1",
        "8,9,2",
        "3,0,1",
        "14,14,2",
        "4,0,1",
        "14,13,2",
        "DONE",
        "TAKEBACK 0,0",
        "BOARD",
        "0,0,2",
        "7,7,1",
        "1,0,2",
        "7,8,1",
        "2,0,2",
        "8,9,1",
        "3,0,2",
        "14,14,1",
        "DONE",
        "TURN 4,0",
        "TAKEBACK 4,0",
        "END",
    ]);
    let r = moves(&s);
    assert_eq!(
        r[1], "ERROR BOARD: the game is over: the opponent already won (five in a row)",
        "{s}"
    );
    assert_eq!(
        r[2], "ERROR BOARD: the game is over: we already won (five in a row)",
        "{s}"
    );
    // No board was set by either: still the empty board of START.
    assert_eq!(r[3], "ERROR TAKEBACK: no stone on 0,0", "{s}");
    // We must block the four at 4,0.
    assert_eq!(r[4], "4,0", "{s}");
    assert_eq!(r[5], "ERROR TURN: 4,0 is occupied", "{s}");
    assert_eq!(r[6], "OK", "{s}");
    insta::assert_snapshot!(s);
    // A TURN that completes the opponent's five: the opponent (Black) has an open four on
    // row 1; we block one end, the other end wins for them.
    let script = |extra: &[&str]| {
        let mut l = vec![
            "START 15",
            "INFO max_depth 2",
            "BOARD",
            "1,1,2",
            "7,7,1",
            "2,1,2",
            "7,8,1",
            "3,1,2",
            "8,9,1",
            "4,1,2",
            "DONE",
        ];
        l.extend_from_slice(extra);
        l.push("END");
        session(&l)
    };
    let s = script(&[]);
    let block = moves(&s)[1].clone();
    assert!(block == "0,1" || block == "5,1", "{s}");
    let other = if block == "0,1" { "5,1" } else { "0,1" };
    let turn = format!("TURN {other}");
    let takeback = format!("TAKEBACK {other}");
    let s = script(&[&turn, &takeback, "TURN 14,14"]);
    let r = moves(&s);
    assert_eq!(
        r[2], "ERROR TURN: the game is over: the opponent already won (five in a row)",
        "{s}"
    );
    assert_eq!(r[3], format!("ERROR TAKEBACK: no stone on {other}"), "{s}");
    // The game goes on: the next TURN gets a move (it still blocks the four).
    assert_eq!(r[4], other, "{s}");
}

#[test]
fn coordinate_errors_say_x_y() {
    let s = session(&[
        "START 15",
        "TURN h8",
        "TAKEBACK 7",
        "BOARD",
        "h8,1",
        "DONE",
        "END",
    ]);
    let r = moves(&s);
    assert_eq!(
        r[1],
        "ERROR TURN: bad coordinate \"h8\": expected x,y (0-based column and row, e.g. 7,7) on the 15x15 board",
        "{s}"
    );
    assert!(r[2].contains("expected x,y"), "{s}");
    assert!(!s.contains("column letter"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn turn_budget_keeps_a_safe_margin() {
    use gomoku::protocol::gomocup::turn_budget;
    use std::time::Duration;
    let ms = |t: Duration| t.as_millis() as i64;
    let unlimited = i64::from(i32::MAX);
    // 200 - max(200/16, 25) = 175; the soft limit is 1.5 times the hard one.
    let (soft, hard) = turn_budget(200, unlimited, 40);
    assert_eq!((ms(soft), ms(hard)), (262, 175));
    let (soft, hard) = turn_budget(1000, unlimited, 40);
    assert_eq!((ms(soft), ms(hard)), (1407, 938));
    assert_eq!(ms(turn_budget(500, unlimited, 40).1), 469);
    assert_eq!(ms(turn_budget(100, unlimited, 40).1), 75);
    assert_eq!(ms(turn_budget(50, unlimited, 40).1), 25);
    // Never below a few ms, never above the turn limit minus max(turn / 16, 25 ms).
    assert_eq!(ms(turn_budget(30, unlimited, 40).1), 5);
    for turn in [1, 45, 60, 100, 200, 267, 1000, 5000, 30_000] {
        let (_, hard) = turn_budget(turn, unlimited, 10);
        assert!(
            ms(hard) <= (turn - (turn / 16).max(25)).max(5),
            "{turn}: {hard:?}"
        );
    }
    // The match clock binds: 10 s left, 10% (<= 1 s) kept back; a target of 9 s / 22 moves,
    // at most 9 s / 7 less the 1/16 / 25 ms margin.
    let (soft, hard) = turn_budget(30_000, 10_000, 40);
    assert_eq!((ms(soft), ms(hard)), (409, 1205));
    // ... or the turn limit, when it is shorter.
    let (soft, hard) = turn_budget(500, 10_000, 40);
    assert_eq!((ms(soft), ms(hard)), (409, 469));
    // Fewer moves expected than the spaces: the clock over those moves.
    let (soft, hard) = turn_budget(30_000, 10_000, 5);
    assert_eq!((ms(soft), ms(hard)), (1688, 1688));
    // A clock with room for every expected move at the turn limit: the turn limit's budget.
    assert_eq!(
        turn_budget(1000, 100_000, 40),
        turn_budget(1000, unlimited, 40)
    );
    // Almost out of time: the floor.
    assert_eq!(ms(turn_budget(30_000, 50, 40).1), 5);
    assert_eq!(ms(turn_budget(30_000, -20, 40).1), 5);
}

/// Rule masks qi does not play (caro, exactly five with renju, out of range) are refused and
/// leave the rule as it was: the renju game below still marks Black's double-three point.
#[test]
fn unsupported_rules_are_refused() {
    for bad in ["8", "9", "5", "-1", "16", "12"] {
        let s = session(&[
            "START 15",
            "INFO rule 4",
            &format!("INFO rule {bad}"),
            "YXBOARD",
            "7,7,1",
            "8,7,1",
            "10,5,1",
            "10,6,1",
            "0,0,2",
            "0,2,2",
            "0,4,2",
            "0,6,2",
            "DONE",
            "YXSHOWFORBID",
            "END",
        ]);
        let replies = moves(&s);
        assert_eq!(
            replies[1],
            format!(
                "ERROR INFO rule {bad}: unsupported; qi plays 0 (freestyle), 1 (exactly five) \
                 and 4 (renju), each optionally with 2 (continuous game)"
            ),
            "{s}"
        );
        assert_eq!(replies.last().unwrap(), "FORBID 1007.", "{s}");
    }
    for good in ["0", "1", "2", "3", "4", "6"] {
        let s = session(&["START 15", &format!("INFO rule {good}"), "END"]);
        assert_eq!(moves(&s), ["OK"], "{s}");
    }
}

/// Engine resources out of range are clamped with a MESSAGE saying so, in whatever order the
/// INFO lines come, and the engine still plays.
#[test]
fn resources_out_of_range_are_clamped() {
    let values = [
        i64::MIN,
        -1,
        0,
        1,
        1023,
        65_536,
        1 << 34,
        1 << 40,
        i64::MAX / 2,
        i64::MAX,
    ];
    for (i, v) in values.iter().enumerate() {
        let memory = format!("INFO max_memory {}", values[(i * 7) % values.len()]);
        let hash = format!("INFO hash_size {v}");
        let threads = format!("INFO thread_num {v}");
        let lines: Vec<&str> = if i % 2 == 0 {
            vec![
                "START 15",
                &hash,
                &threads,
                &memory,
                "INFO max_depth 2",
                "BEGIN",
                "END",
            ]
        } else {
            vec![
                "START 15",
                &memory,
                &threads,
                &hash,
                "INFO max_depth 2",
                "BEGIN",
                "END",
            ]
        };
        let s = session(&lines);
        let replies = moves(&s);
        assert_eq!(replies.first().map(String::as_str), Some("OK"), "{s}");
        assert_eq!(replies.last().map(String::as_str), Some("7,7"), "{s}");
        let clamped_hash = *v > 0 && !(1..=16_384).contains(&(v >> 10));
        assert_eq!(
            s.contains(&format!(
                "MESSAGE INFO hash_size {v} KiB is outside 1..16384 MiB"
            )),
            clamped_hash,
            "{s}"
        );
        assert_eq!(
            s.contains(&format!("MESSAGE INFO thread_num {v} is outside 1..256")),
            !(1..=256).contains(v),
            "{s}"
        );
    }
}

/// Runs `run` on lines fed through a pipe by another thread (`#sleep MS` pauses the feed) and
/// returns its output; panics if the session has not ended within a minute (a search that
/// `STOP` did not stop would think for an hour here).
fn piped_session(script: &'static [&'static str]) -> String {
    use std::io::BufReader;
    use std::sync::mpsc;
    use std::time::Duration;

    /// The reading end of the feed: blocks until the next line arrives, EOF when the feeder
    /// is done.
    struct Feed {
        lines: mpsc::Receiver<Vec<u8>>,
        chunk: Vec<u8>,
        at: usize,
    }
    impl std::io::Read for Feed {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.at == self.chunk.len() {
                match self.lines.recv() {
                    Ok(chunk) => (self.chunk, self.at) = (chunk, 0),
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.chunk.len() - self.at);
            buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    let (line_tx, line_rx) = mpsc::channel();
    let feeder = std::thread::spawn(move || {
        for l in script {
            if let Some(ms) = l.strip_prefix("#sleep ") {
                std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
            } else {
                line_tx.send(format!("{l}\r\n").into_bytes()).unwrap();
            }
        }
    });
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let feed = Feed {
            lines: line_rx,
            chunk: Vec::new(),
            at: 0,
        };
        let mut out = Vec::new();
        run(BufReader::new(feed), &mut out).unwrap();
        tx.send(String::from_utf8(out).unwrap()).unwrap();
    });
    let text = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("STOP did not end the search");
    feeder.join().unwrap();
    text
}

/// `STOP` ends a search at once and the move found so far is played: sent while the brain
/// thinks (an hour a move here) or queued right behind the command that starts the search.
/// `STOP` while idle changes nothing and gets no answer.
#[test]
fn stop_ends_the_search() {
    static SCRIPT: &[&str] = &[
        "START 15",
        "STOP",
        "INFO timeout_turn 3600000",
        "INFO timeout_match 0",
        "INFO rule 4",
        "BOARD",
        "7,7,2",
        "8,7,1",
        "8,8,2",
        "6,6,1",
        "9,9,2",
        "DONE",
        "#sleep 300",
        "STOP",
        "TURN 5,9",
        "STOP",
        "#sleep 100",
        "STOP",
        "YXSHOWFORBID",
        "END",
    ];
    let text = piped_session(SCRIPT);
    let answers: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert_eq!(answers[0], "OK", "{text}");
    let mut taken = vec!["7,7", "8,7", "8,8", "6,6", "9,9", "5,9"];
    for mv in &answers[1..3] {
        let (x, y) = mv.split_once(',').unwrap_or_else(|| panic!("{text}"));
        let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
        assert!(x < 15 && y < 15, "{text}");
        assert!(!taken.contains(mv), "{mv} is taken:\n{text}");
        taken.push(mv);
    }
    assert!(answers[3].starts_with("FORBID"), "{text}");
}

/// A bad line quoted in an `ERROR` or `UNKNOWN` answer comes back with its control characters
/// escaped (a raw escape sequence would reach the manager's log and terminal).
#[test]
fn control_characters_in_bad_lines_are_escaped() {
    let input = "START 15\r\nTURN 7,\u{1b}[2J\r\nFOO\u{7}bar\r\nINFO rule \u{1b}x\r\nABOUT\r\n";
    let mut out = Vec::new();
    run(input.as_bytes(), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        !text.chars().any(|c| c.is_control() && c != '\n'),
        "{text:?}"
    );
    assert!(
        text.contains("\\u{1b}") && text.contains("\\u{7}"),
        "{text:?}"
    );
    assert!(
        text.trim_end().ends_with('"'),
        "ABOUT still answered: {text}"
    );
}
