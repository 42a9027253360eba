//! Scripted UCCI and UCI sessions, snapshotted with insta (times and speeds masked).
//!
//! The script reader hands the engine one line at a time like a GUI would, and echoes each
//! command into the transcript as `> command`. `#await N` waits until the engine has given
//! N answers (`bestmove` / `nobestmove`) in all; `#sleep MS` pauses, e.g. before `stop`.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The engine's output, shared with the script reader.
#[derive(Clone, Default)]
struct Transcript(Arc<Mutex<Vec<u8>>>, Arc<Mutex<Vec<(Instant, String)>>>);

impl Transcript {
    fn text(&self) -> String {
        String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
    }
    fn answers(&self) -> usize {
        self.text()
            .lines()
            .filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
            .count()
    }
}

impl Write for Transcript {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let now = Instant::now();
        self.0.lock().unwrap().extend_from_slice(buf);
        self.1
            .lock()
            .unwrap()
            .push((now, String::from_utf8_lossy(buf).into_owned()));
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Script {
    lines: VecDeque<String>,
    current: Vec<u8>,
    offset: usize,
    transcript: Transcript,
}

impl Script {
    fn new(script: &str, transcript: &Transcript) -> Self {
        Script {
            lines: script
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from)
                .collect(),
            current: Vec::new(),
            offset: 0,
            transcript: transcript.clone(),
        }
    }
}

impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Script {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.offset >= self.current.len() {
            let Some(line) = self.lines.pop_front() else {
                return Ok(&[]);
            };
            if let Some(n) = line.strip_prefix("#await ") {
                let n: usize = n.parse().unwrap();
                let start = Instant::now();
                while self.transcript.answers() < n {
                    assert!(start.elapsed() < Duration::from_secs(60), "no answer {n}");
                    std::thread::sleep(Duration::from_millis(1));
                }
            } else if let Some(ms) = line.strip_prefix("#sleep ") {
                std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
            } else {
                self.transcript
                    .write_all(format!("> {line}\n").as_bytes())
                    .unwrap();
                self.current = format!("{line}\n").into_bytes();
                self.offset = 0;
            }
        }
        Ok(&self.current[self.offset..])
    }
    fn consume(&mut self, amt: usize) {
        self.offset += amt;
    }
}

fn session(script: &str, run: fn(Script, Transcript) -> io::Result<()>) -> String {
    let transcript = Transcript::default();
    run(Script::new(script, &transcript), transcript.clone()).unwrap();
    transcript.text()
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.add_filter(r"\binfo time \d+", "info time [T]");
    s.add_filter(r"\btime \d+ pv\b", "time [T] pv");
    s.add_filter(r"\bnps \d+", "nps [NPS]");
    s
}

const T1: &str = "3aka3/9/9/9/9/9/3C5/9/4C4/3K5 w - - 0 1";
const T7: &str = "4k4/9/9/9/9/9/9/9/R8/R2K5 w - - 0 1";
const T11: &str = "4k4/9/9/9/9/9/9/9/3p5/r3K4 w - - 0 1";

#[test]
fn ucci_session() {
    let script = format!(
        "
        ucci
        isready
        setoption usemillisec true
        setoption hashsize 8
        setoption batch true
        setoption hashsize lots
        setoption threads 0
        position startpos moves h2e2 h9g7
        banmoves h0g2
        go depth 4
        #await 1
        position startpos moves h2e2 h2h3
        position fen {T1}
        go depth 3
        #await 2
        position fen {T11}
        go depth 5
        #await 3
        position fen {T7}
        banmoves z9z9
        go infinite
        #sleep 100
        stop
        go time 5000 increment 0
        #await 5
        banmoves a1e1
        go depth 3
        #await 6
        bogus command
        go depth x
        go time 60000 movestogo 40 opptime 60000 oppmovestogo 40
        #await 7
        position fen {T7}
        go ponder time 3000 increment 1000
        #sleep 100
        ponderhit
        #await 8
        probe
        quit
        isready
        "
    );
    let text = session(&script, xiangqi::protocol::ucci::run);
    settings().bind(|| insta::assert_snapshot!("ucci_session", text));
}

#[test]
fn uci_session() {
    let script = format!(
        "
        uci
        isready
        setoption name Hash value 8
        setoption name Threads value 1
        setoption name MultiPV value 1
        setoption name MultiPV value 3
        setoption name Ponder value true
        setoption name Move Overhead value 30
        setoption name Clear Hash
        setoption name Hash value -5
        setoption name NoSuchOption value 1
        setoption Hash 8
        ucinewgame
        position startpos moves h2e2 h9g7
        go depth 4
        #await 1
        position startpos moves h2e2 h9g7 z1z2
        position fen {T1}
        go depth 3
        #await 2
        position fen {T11}
        go depth 5
        #await 3
        position fen {T7}
        go infinite
        #sleep 100
        stop
        go wtime 5000 btime 5000 winc 100 binc 100
        #await 5
        go movetime 200
        #await 6
        go depth 3 searchmoves a0b0 a1b1
        #await 7
        go depth 3 searchmoves a0a2
        go ponder wtime 3000 btime 3000
        #sleep 100
        ponderhit
        #await 8
        go depth abc
        go sideways
        position nowhere
        position fen
        setoption name UCI_Variant value xiangqi
        position startpos moves h3e3 h10g8
        go depth 3
        #await 9
        position startpos moves h2e2
        position fen {T7}
        go depth 3
        #await 10
        setoption name UCI_Variant value chess
        quit
        "
    );
    let text = session(&script, xiangqi::protocol::uci::run);
    settings().bind(|| insta::assert_snapshot!("uci_session", text));
}

/// At the end of the input a finite search still answers; an infinite one is stopped.
#[test]
fn end_of_input() {
    let out = Transcript::default();
    xiangqi::protocol::ucci::run(&b"position startpos\ngo depth 3\n"[..], out.clone()).unwrap();
    assert_eq!(out.answers(), 1);
    let out = Transcript::default();
    xiangqi::protocol::uci::run(&b"position startpos\ngo infinite\n"[..], out.clone()).unwrap();
    assert_eq!(out.answers(), 1);
    assert!(out.text().contains("bestmove "));
}

/// UCCI 3.0: `go depth 0` asks only for the static evaluation, answered with `nobestmove`;
/// `stop` and `ponderhit` belong to the thinking state, so when idle they get no reply.
#[test]
fn ucci_depth_zero_and_idle_stop() {
    let out = Transcript::default();
    xiangqi::protocol::ucci::run(
        &b"ucci\nstop\nponderhit\nposition startpos moves h2e2\ngo depth 0\nisready\nquit\n"[..],
        out.clone(),
    )
    .unwrap();
    let text = out.text();
    let after_ucciok: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "ucciok")
        .skip(1)
        .collect();
    // Red's central cannon is worth something to Black, the side to move: a negative score.
    assert_eq!(after_ucciok.len(), 4, "{text}");
    let score: i32 = after_ucciok[0]
        .strip_prefix("info depth 0 score ")
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a static score line: {}", after_ucciok[0]));
    assert!(score < 0, "{text}");
    assert_eq!(
        after_ucciok[1..],
        ["nobestmove", "readyok", "bye"],
        "{text}"
    );
}

/// A state change in the middle of a long finite search (`go depth 60`, which would run for
/// hours) stops that search, which answers first; the loop never stops reading, so `isready`
/// and `quit` are answered at once. Found by driving the servers like a hasty GUI.
#[test]
fn state_changes_during_a_search_do_not_block_the_loop() {
    for (run, script) in [
        (
            xiangqi::protocol::ucci::run::<&'static [u8], Transcript>
                as fn(&'static [u8], Transcript) -> io::Result<()>,
            &b"ucci\ngo depth 60\nsetoption hashsize 8\nisready\nquit\n"[..],
        ),
        (
            xiangqi::protocol::uci::run::<&'static [u8], Transcript>,
            &b"uci\ngo depth 60\nposition startpos moves h2e2\nisready\nquit\n"[..],
        ),
    ] {
        let out = Transcript::default();
        let (done, finished) = std::sync::mpsc::channel();
        let writer = out.clone();
        std::thread::spawn(move || {
            run(script, writer).unwrap();
            done.send(()).unwrap();
        });
        finished
            .recv_timeout(Duration::from_secs(20))
            .expect("the loop blocked on the search");
        let text = out.text();
        assert_eq!(out.answers(), 1, "{text}");
        assert!(text.contains("readyok"), "{text}");
    }
}

/// Bytes that are not UTF-8 (a Windows path in a GUI's code page) are read lossily: the line
/// is answered as an error and the session goes on.
#[test]
fn invalid_utf8_is_an_error_line_not_the_end() {
    let out = Transcript::default();
    xiangqi::protocol::ucci::run(
        &b"ucci\nsetoption J\xf6rg 1\nposition startpos moves h\xf62e2\nisready\n"[..],
        out.clone(),
    )
    .unwrap();
    let text = out.text();
    assert!(text.contains("info string error"), "{text}");
    assert!(text.trim_end().ends_with("readyok"), "{text}");
}

/// `stop` during `go infinite` from the start position: the answer comes at once. The bound
/// here is loose (a loaded machine); the typical latency is well under a millisecond.
#[test]
fn stop_answers_quickly() {
    for run in [
        xiangqi::protocol::ucci::run::<Script, Transcript>,
        xiangqi::protocol::uci::run::<Script, Transcript>,
    ] {
        let out = Transcript::default();
        let script = "position startpos\ngo infinite\n#sleep 300\nstop\nquit";
        run(Script::new(script, &out), out.clone()).unwrap();
        let writes = out.1.lock().unwrap().clone();
        let at = |prefix: &str| {
            writes
                .iter()
                .find(|(_, w)| w.starts_with(prefix))
                .map(|&(t, _)| t)
                .unwrap_or_else(|| panic!("no '{prefix}' in {}", out.text()))
        };
        let latency = at("bestmove").duration_since(at("> stop"));
        eprintln!("stop latency: {latency:?}");
        assert!(latency < Duration::from_millis(250), "{latency:?}");
    }
}

mod garbage {
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "ucci",
        "uci",
        "isready",
        "setoption",
        "name",
        "value",
        "hashsize",
        "Hash",
        "threads",
        "Threads",
        "usemillisec",
        "true",
        "false",
        "newgame",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "h2e2",
        "h9g7",
        "h2h9",
        "a0a1",
        "z9z9",
        "banmoves",
        "go",
        "depth",
        "1",
        "2",
        "0",
        "-1",
        "99999999999999999999",
        "nodes",
        "time",
        "increment",
        "movestogo",
        "opptime",
        "wtime",
        "btime",
        "winc",
        "movetime",
        "ponder",
        "ponderhit",
        "stop",
        "probe",
        "searchmoves",
        "UCI_Variant",
        "xiangqi",
        "Clear",
        "MultiPV",
        "é",
        "",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
        "w",
        "b",
        "-",
    ];

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" "))
    }

    /// Cases per property: `PROPTEST_CASES` when set (a bulk fuzz run: `PROPTEST_CASES=2000`),
    /// else `default` (the suite's own count).
    fn cases(default: u32) -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases(48)))]

        /// Random lines never make a server panic or stop answering: after them, `isready`
        /// still gets `readyok` and a depth-1 search from the start still gives a move.
        #[test]
        fn servers_survive_garbage(lines in prop::collection::vec(line(), 0..12)) {
            // Keep searches short: no depth beyond 2 and no clocks (a big "time" in seconds).
            let lines: Vec<String> = lines
                .into_iter()
                .filter(|l| !l.contains("99999") && !l.contains("time") && !l.contains("nodes"))
                .map(|l| if l.starts_with("go") { "go depth 1".to_string() } else { l })
                .collect();
            for uci in [false, true] {
                let mut script = lines.join("\n");
                script.push_str("\nstop\nposition startpos\nisready\ngo depth 1\n");
                let out = super::Transcript::default();
                if uci {
                    xiangqi::protocol::uci::run(script.as_bytes(), out.clone()).unwrap();
                } else {
                    xiangqi::protocol::ucci::run(script.as_bytes(), out.clone()).unwrap();
                }
                let text = out.text();
                prop_assert!(text.contains("readyok") || text.contains("quit"), "{}", text);
            }
        }
    }
}

/// `serve` picks the protocol from the first line.
#[test]
fn serve_detects_the_protocol() {
    let out = Transcript::default();
    xiangqi::serve(&b"\nuci\nisready\nquit\n"[..], out.clone()).unwrap();
    let text = out.text();
    assert!(text.contains("uciok") && text.contains("readyok") && !text.contains("bye"));
    let out = Transcript::default();
    xiangqi::serve(&b"ucci\nquit\n"[..], out.clone()).unwrap();
    let text = out.text();
    assert!(text.contains("ucciok") && text.ends_with("bye\n"), "{text}");
    let out = Transcript::default();
    xiangqi::serve(&b""[..], out.clone()).unwrap();
    assert!(out.text().is_empty());
}

/// A refused `position` leaves the engine with no position: whatever position it had before
/// (here one with Black to move), `go` answers no move and says why, and `banmoves` is
/// refused, until a `position` is accepted again. Impossible positions are refused as
/// `qi moves --fen` refuses them.
#[test]
fn refused_position_leaves_no_position() {
    let refused = [
        // An illegal move late in a longer list (the old position had fewer moves).
        "position startpos moves h2e2 h9g7 h0g2 i9h9 z0z0",
        "position startpos moves h2e2 h9g7 h0g2 e9e7",
        // Kings facing each other on an open file.
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        // The side not to move (Black) in check.
        "position fen 3k5/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1",
        // Unreadable FENs and arguments.
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",
        "position fen xyz",
        "position fen",
        "position",
        "position startpos foo h2e2",
        "position somewhere",
    ];
    type Run = fn(Script, Transcript) -> io::Result<()>;
    let servers: [(Run, &str, &str); 2] = [
        (xiangqi::protocol::ucci::run, "nobestmove", "ucci"),
        (xiangqi::protocol::uci::run, "bestmove (none)", "uci"),
    ];
    for (run, none, hello) in servers {
        for line in refused {
            let script = format!(
                "{hello}\nposition startpos moves h2e2\n{line}\nbanmoves h9g7\ngo depth 2\n#await 1\n\
                 position startpos moves h2e2\ngo depth 2\n#await 2\n"
            );
            let text = session(&script, run);
            let after = text
                .split_once(&format!("> {line}\n"))
                .unwrap_or_else(|| panic!("{text}"))
                .1;
            let (refusal, rest) = after
                .split_once("> position startpos moves h2e2\n")
                .unwrap_or_else(|| panic!("{text}"));
            let errors = refusal
                .lines()
                .filter(|l| l.starts_with("info string error"))
                .count();
            // The refusal itself, the banmoves (unknown to UCI) and the go.
            assert_eq!(errors, 3, "{line}:\n{text}");
            assert!(refusal.contains("no position"), "{line}:\n{text}");
            let answers: Vec<&str> = refusal
                .lines()
                .filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
                .collect();
            assert_eq!(answers, [none], "{line}:\n{text}");
            // An accepted position is searched again, for Black.
            let answer = rest
                .lines()
                .find(|l| l.starts_with("bestmove"))
                .unwrap_or_else(|| panic!("{text}"));
            assert_ne!(answer, "bestmove (none)", "{text}");
            let to = answer.split_whitespace().nth(1).unwrap();
            assert!(
                to.as_bytes()[1] >= b'5',
                "{line}: {answer} is not a Black move\n{text}"
            );
        }
    }
}

/// A bad line quoted in an error comes back with its control characters escaped, for both
/// protocols: no raw escape sequence reaches the GUI's log or terminal.
#[test]
fn control_characters_in_bad_lines_are_escaped() {
    type Run = fn(&'static [u8], Transcript) -> io::Result<()>;
    let runs: [Run; 2] = [xiangqi::protocol::ucci::run, xiangqi::protocol::uci::run];
    for run in runs {
        let out = Transcript::default();
        run(
            &b"position fen \x1b[31mrnbakabnr\x07 w\nfoo\x1b[2J\nisready\n"[..],
            out.clone(),
        )
        .unwrap();
        let text = out.text();
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(text.contains("\\u{1b}"), "{text:?}");
        assert!(text.trim_end().ends_with("readyok"), "{text}");
    }
}
