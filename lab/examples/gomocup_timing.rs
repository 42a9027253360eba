//! Drives two `gomocup::run` brains against each other like a Gomocup manager and reports the
//! answer time of every move (from sending `BEGIN`/`TURN` to reading the move line).
//!
//! `cargo run --release -p lab --example gomocup_timing -- [timeout_turn_ms] [size] [rule] [games]`
//! (defaults 200, 15, 1, 1). Prints max / mean / count over the answer times in ms.

use std::io::{BufReader, Read, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

use gomoku::{Board, Point, Rule};

/// The brain's input: lines from a channel.
struct ChanReader {
    rx: Receiver<String>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChanReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.buf.len() {
            match self.rx.recv() {
                Ok(line) => {
                    self.buf = line.into_bytes();
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = out.len().min(self.buf.len() - self.pos);
        out[..n].copy_from_slice(&self.buf[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The brain's output: complete lines to a channel.
struct ChanWriter {
    tx: Sender<String>,
    buf: Vec<u8>,
}

impl Write for ChanWriter {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        while let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.buf.drain(..=i).collect();
            let _ = self
                .tx
                .send(String::from_utf8_lossy(&line).trim().to_string());
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

struct Brain {
    to: Sender<String>,
    from: Receiver<String>,
}

impl Brain {
    fn new() -> Brain {
        let (in_tx, in_rx) = channel();
        let (out_tx, out_rx) = channel();
        std::thread::spawn(move || {
            let input = BufReader::new(ChanReader {
                rx: in_rx,
                buf: Vec::new(),
                pos: 0,
            });
            let output = ChanWriter {
                tx: out_tx,
                buf: Vec::new(),
            };
            gomoku::protocol::gomocup::run(input, output).unwrap();
        });
        Brain {
            to: in_tx,
            from: out_rx,
        }
    }

    fn read_line(&mut self) -> String {
        self.from.recv().expect("brain alive")
    }

    fn send(&mut self, line: &str) {
        self.to.send(format!("{line}\r\n")).unwrap();
    }

    /// Sends `line` and returns the first reply that is not a `MESSAGE`, with its time in ms.
    fn ask(&mut self, line: &str) -> (String, f64) {
        let t = Instant::now();
        self.send(line);
        loop {
            let s = self.read_line();
            if !s.starts_with("MESSAGE") && !s.starts_with("DEBUG") {
                return (s, t.elapsed().as_secs_f64() * 1000.0);
            }
        }
    }
}

fn parse(s: &str) -> Point {
    let (x, y) = s.split_once(',').expect("x,y");
    Point::new(x.parse().unwrap(), y.parse().unwrap())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let turn = arg(0, 200);
    let size = arg(1, 15) as usize;
    let rule_n = arg(2, 1);
    let games = arg(3, 1);
    let rule = match rule_n {
        4 => Rule::Renju,
        1 => Rule::Standard,
        _ => Rule::Freestyle,
    };
    let mut times: Vec<(f64, usize)> = Vec::new();
    for g in 0..games {
        let mut brains = [Brain::new(), Brain::new()];
        for b in &mut brains {
            for l in [
                format!("START {size}"),
                format!("INFO rule {rule_n}"),
                format!("INFO timeout_turn {turn}"),
                "INFO timeout_match 0".to_string(),
                "INFO time_left 2147483647".to_string(),
            ] {
                b.send(&l);
            }
            // START's OK.
            b.read_line();
        }
        let mut board = Board::new(size, rule).unwrap();
        let first = (g % 2) as usize;
        let (mut reply, mut ms) = brains[first].ask("BEGIN");
        let mut who = first;
        loop {
            times.push((ms, board.stone_count() + 1));
            if reply.starts_with("ERROR") || reply.starts_with("UNKNOWN") {
                eprintln!("brain said {reply}");
                break;
            }
            let p = parse(&reply);
            board.play(p);
            if board.game_end().is_some() || board.stone_count() == size * size {
                break;
            }
            who = 1 - who;
            (reply, ms) = brains[who].ask(&format!("TURN {},{}", p.x(), p.y()));
        }
        for b in &mut brains {
            b.send("END");
        }
        eprintln!("game {g}: {} moves", board.stone_count());
    }
    let max = times
        .iter()
        .cloned()
        .fold((0.0, 0), |a, b| if b.0 > a.0 { b } else { a });
    let mean = times.iter().map(|t| t.0).sum::<f64>() / times.len() as f64;
    let over = times.iter().filter(|t| t.0 > turn as f64).count();
    println!(
        "timeout_turn {turn} size {size} rule {rule_n}: {} answers, max {:.1} ms (move {}), mean {:.1} ms, over limit {over}",
        times.len(),
        max.0,
        max.1,
        mean
    );
}
