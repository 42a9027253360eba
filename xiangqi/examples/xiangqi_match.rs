//! A match between two UCCI engines (e.g. two builds of `--example xiangqi_ucci`), adjudicated by the
//! rules of this crate: `cargo run --release -p xiangqi --example xiangqi_match -- <engine A>
//! <engine B> [go arguments, default "depth 6"] [openings, default 12]`.
//!
//! Each opening is played twice with colours swapped; 300 plies without a result is a draw.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use game_core::{Outcome, Side};
use xiangqi::Position;

const OPENINGS: [&str; 24] = [
    "",
    "h2e2 h9g7",
    "b2e2 b9c7",
    "c3c4 g6g5",
    "h0g2 h9g7",
    "b0c2 b9c7",
    "h2e2 h7e7",
    "c3c4 b9c7",
    "g3g4 c6c5",
    "b2d2 h9g7",
    "h2f2 b9c7",
    "h2e2 b9c7 h0g2 a9b9",
    "c3c4 h9g7",
    "h2e2 h9g7 h0g2 i9h9",
    "b0c2 h9g7",
    "h2d2 h9g7",
    "h0i2 b9c7",
    "h2e2 b9c7",
    "c3c4 h7e7",
    "g3g4 h9g7",
    "h2e2 h9g7 h0g2 g6g5",
    "b2e2 h9g7 b0c2 i9h9",
    "c0e2 h9g7",
    "g0e2 b9c7",
];

struct Engine {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &str) -> Engine {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut e = Engine {
            _child: child,
            stdin,
            stdout,
        };
        e.send("ucci");
        e.wait_for("ucciok");
        e
    }
    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
    fn wait_for(&mut self, prefix: &str) -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "engine died");
            if line.starts_with(prefix) || line.starts_with("nobestmove") {
                return line.trim().to_string();
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (a, b) = (&args[0], &args[1]);
    let go = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "depth 6".to_string());
    let openings: usize = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(12);
    let mut engines = [Engine::start(a), Engine::start(b)];
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for opening in OPENINGS.iter().take(openings) {
        for a_is_red in [true, false] {
            for e in &mut engines {
                e.send("setoption newgame");
            }
            let mut pos = Position::startpos();
            let mut moves: Vec<String> = opening.split_whitespace().map(String::from).collect();
            for m in &moves {
                let mv = pos.parse_iccs(m).unwrap();
                pos.play(mv);
            }
            let result = loop {
                if let Some((outcome, _)) = pos.game_end() {
                    break Some(outcome);
                }
                if moves.len() >= 300 {
                    break None;
                }
                let red_to_move = pos.side() == Side::First;
                let e = &mut engines[usize::from(red_to_move != a_is_red)];
                e.send(&format!("position startpos moves {}", moves.join(" ")));
                e.send(&format!("go {go}"));
                let answer = e.wait_for("bestmove");
                let text = answer
                    .split_whitespace()
                    .nth(1)
                    .expect("a move")
                    .to_string();
                let mv = pos.parse_iccs(&text).expect("legal answer");
                pos.play(mv);
                moves.push(text);
            };
            let a_side = if a_is_red { Side::First } else { Side::Second };
            let r = match result {
                Some(Outcome::Win(s)) if s == a_side => {
                    wins += 1;
                    "A wins"
                }
                Some(Outcome::Win(_)) => {
                    losses += 1;
                    "B wins"
                }
                _ => {
                    draws += 1;
                    "draw"
                }
            };
            println!(
                "'{opening}' A {}: {r} after {} plies",
                if a_is_red { "red" } else { "black" },
                moves.len()
            );
        }
    }
    println!(
        "A vs B ({go}): +{wins} ={draws} -{losses} ({:.1} %)",
        (f64::from(wins) + f64::from(draws) / 2.0) * 100.0 / f64::from(wins + draws + losses)
    );
    for e in &mut engines {
        e.send("quit");
    }
}
