//! Complete games through the protocols: a UCCI engine (Red) against a UCI engine (Black),
//! each told the whole game with `position startpos moves ...` and asked `go depth 3`, until
//! the rules end the game. Every answer must be a legal move and no line an error.

use std::io::{self, BufRead, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use xiangqi::Position;

/// A reader fed line by line through a channel, like a GUI's pipe.
struct ChannelReader {
    rx: Receiver<String>,
    current: Vec<u8>,
    offset: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.offset >= self.current.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.current = format!("{line}\n").into_bytes();
                    self.offset = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.current[self.offset..])
    }
    fn consume(&mut self, amt: usize) {
        self.offset += amt;
    }
}

#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Output {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

struct Engine {
    tx: Sender<String>,
    out: Output,
    answers: usize,
    thread: std::thread::JoinHandle<io::Result<()>>,
}

impl Engine {
    fn start(run: fn(ChannelReader, Output) -> io::Result<()>) -> Engine {
        let (tx, rx) = channel();
        let out = Output::default();
        let o = out.clone();
        let thread = std::thread::spawn(move || {
            run(
                ChannelReader {
                    rx,
                    current: Vec::new(),
                    offset: 0,
                },
                o,
            )
        });
        Engine {
            tx,
            out,
            answers: 0,
            thread,
        }
    }

    fn send(&self, line: &str) {
        self.tx.send(line.to_string()).unwrap();
    }

    /// Sends the game and `go depth 3`, waits for the answer: the move text, if any.
    fn best_move(&mut self, moves: &[String]) -> Option<String> {
        if moves.is_empty() {
            self.send("position startpos");
        } else {
            self.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        self.send("go depth 3");
        let start = Instant::now();
        loop {
            let answers: Vec<String> = self
                .out
                .lines()
                .into_iter()
                .filter(|l| l.starts_with("bestmove") || l.starts_with("nobestmove"))
                .collect();
            if answers.len() > self.answers {
                self.answers += 1;
                let answer = &answers[self.answers - 1];
                return answer
                    .strip_prefix("bestmove ")
                    .and_then(|r| r.split_whitespace().next())
                    .filter(|m| *m != "(none)")
                    .map(String::from);
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no answer");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    fn finish(self, quit_reply: Option<&str>) -> Vec<String> {
        self.send("quit");
        self.thread.join().unwrap().unwrap();
        let lines = self.out.lines();
        if let Some(reply) = quit_reply {
            assert_eq!(lines.last().map(String::as_str), Some(reply));
        }
        lines
    }
}

#[test]
fn ucci_against_uci_complete_game() {
    let mut red = Engine::start(xiangqi::protocol::ucci::run);
    let mut black = Engine::start(xiangqi::protocol::uci::run);
    red.send("ucci");
    black.send("uci");
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    let end = loop {
        if let Some((outcome, reason)) = pos.game_end() {
            break Some((outcome, reason));
        }
        if moves.len() >= 400 {
            break None;
        }
        let engine = if moves.len() % 2 == 0 {
            &mut red
        } else {
            &mut black
        };
        let text = engine
            .best_move(&moves)
            .unwrap_or_else(|| panic!("no move in a game still on: {pos:?}"));
        let mv = pos
            .parse_iccs(&text)
            .unwrap_or_else(|e| panic!("illegal answer '{text}' in {pos:?}: {e}"));
        pos.play(mv);
        moves.push(text);
    };
    // Once the game is over by mate or stalemate, the side to move has no move to give.
    if let Some((_, xiangqi::EndReason::Checkmate | xiangqi::EndReason::Stalemate)) = end {
        let engine = if moves.len() % 2 == 0 {
            &mut red
        } else {
            &mut black
        };
        assert_eq!(engine.best_move(&moves), None);
    }
    for lines in [red.finish(Some("bye")), black.finish(None)] {
        assert!(
            lines.iter().all(|l| !l.contains("error")),
            "{}",
            lines.join("\n")
        );
    }
    eprintln!("{} plies, end: {end:?}", moves.len());
    assert!(moves.len() >= 10);
}
