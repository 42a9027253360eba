//! Gomocup protocol sessions, snapshotted (inputs use CR LF as managers send them).

use gomoku::gomocup::run;

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
    insta::assert_snapshot!(s);
}
