//! The referee's side of the engine protocols: UCCI, UCI (ICCS ranks 0..9), Gomocup and
//! ConnectMore. A [`Client`] owns one engine process, sets it up, starts games and asks for
//! moves under the clock; every failure is a [`Fault`] that names what went wrong.

use std::time::{Duration, Instant};

use game_core::Side;

use super::engine::{EngineSpec, Log, Proc, Proto, RecvError};
use super::referee::Referee;

/// Time allowed for a handshake answer (`ucciok`, `uciok`, `readyok`, `OK`, `name`).
pub const HANDSHAKE: Duration = Duration::from_secs(10);

/// How an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process ended or closed its pipes.
    Crash(String),
    /// No move in the time allowed.
    Time(String),
    /// An answer the protocol does not allow (or no handshake answer in time).
    Protocol(String),
}

impl Fault {
    /// The time forfeit of a move that came after `allowed + margin`, or `None` in time.
    #[must_use]
    pub fn late(spent: Duration, allowed: Duration, margin: Duration) -> Option<Fault> {
        (spent > allowed + margin).then(|| {
            Fault::Time(format!(
                "move after {} ms, {} ms allowed + {} ms margin",
                spent.as_millis(),
                allowed.as_millis(),
                margin.as_millis()
            ))
        })
    }

    /// The reason text of a game lost by this fault.
    #[must_use]
    pub fn reason(&self) -> String {
        match self {
            Fault::Crash(m) => format!("crash: {m}"),
            Fault::Time(m) => format!("time forfeit: {m}"),
            Fault::Protocol(m) => format!("protocol error: {m}"),
        }
    }
}

/// The time control of a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock per game with an increment after each move (`--tc 10+0.1`).
    Game {
        /// Time at the start.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
}

impl TimeControl {
    /// The time a side starts with (for a move time, the move time).
    #[must_use]
    pub fn start(&self) -> Duration {
        match *self {
            TimeControl::MoveTime(t) => t,
            TimeControl::Game { base, .. } => base,
        }
    }
}

/// The clocks at a move: the time control, the time left of the side to move and of its
/// opponent (both equal to the move time under a move time).
#[derive(Copy, Clone, Debug)]
pub struct Clocks {
    /// The time control.
    pub tc: TimeControl,
    /// Time left of the side to move.
    pub mine: Duration,
    /// Time left of the opponent.
    pub theirs: Duration,
}

impl Clocks {
    /// The most the side to move may use on this move (before the margin).
    #[must_use]
    pub fn allowed(&self) -> Duration {
        self.mine
    }

    /// The side to move's clock as the engines' time managers read it
    /// ([`game_core::clock::Clock`]), with `overhead` kept in reserve; `None` under a time per
    /// move.
    #[must_use]
    pub fn engine_clock(&self, overhead: Duration) -> Option<game_core::clock::Clock> {
        match self.tc {
            TimeControl::MoveTime(_) => None,
            TimeControl::Game { increment, .. } => Some(game_core::clock::Clock {
                remaining: self.mine,
                increment,
                moves_to_go: None,
                overhead,
            }),
        }
    }
}

/// The engine's answer to a move request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move in the protocol's notation.
    Move(String),
    /// The engine says it has no move (`nobestmove`, `bestmove (none)`); the text is the line.
    NoMove(String),
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// One engine process speaking one protocol.
pub struct Client {
    /// The protocol.
    pub proto: Proto,
    proc: Proc,
    is_qi: bool,
    options: Vec<(String, String)>,
    /// UCCI: the engine offered `usemillisec` (times in ms; else in seconds).
    millis: bool,
    /// UCCI: the engine offered `newgame`.
    ucci_newgame: bool,
    /// Stone games: moves (connect6: turns) the engine already knows, when `started`.
    known: usize,
    /// ConnectMore: a `new` was sent for this game.
    started: bool,
    /// Gomocup: when the engine last answered a move.
    answered: Option<Instant>,
}

/// Gomocup: the least time between an engine's move and the next command sent to it. Rapfi
/// is still finishing its search for a few milliseconds after it answers and drops the first
/// word of a command that arrives then (`TURN 8,8` reads as `8,8`, an unknown command).
const GOMOCUP_SETTLE: Duration = Duration::from_millis(15);

/// Whether `line` is a ConnectMore answer to `name`: `name <engine name>`. A help text that
/// an engine prints first (Cloudict: `name        - print the name of the engine`) is not.
fn is_name_reply(line: &str) -> bool {
    let mut words = line.split_whitespace();
    words.next() == Some("name") && words.next().is_some_and(|w| !w.starts_with('-'))
}

fn recv_fault(e: RecvError, waiting_for: &str, timeout: Duration) -> Fault {
    match e {
        RecvError::Eof(how) => Fault::Crash(format!("{how} (while waiting for {waiting_for})")),
        RecvError::Timeout => Fault::Protocol(format!(
            "no {waiting_for} within {} ms",
            timeout.as_millis()
        )),
    }
}

fn send_fault(e: RecvError) -> Fault {
    match e {
        RecvError::Eof(how) => Fault::Crash(how),
        RecvError::Timeout => Fault::Crash("cannot write to the engine".to_string()),
    }
}

impl Client {
    /// Starts the engine of `spec` (qi itself: the running executable with the protocol's
    /// subcommand) and does the protocol's handshake with its options.
    ///
    /// # Errors
    /// `Err(Ok(message))` when the program cannot be started at all (the match stops), and
    /// `Err(Err(fault))` when it starts but fails the handshake (it loses the game).
    pub fn start(
        spec: &EngineSpec,
        proto: Proto,
        log: Option<(Log, String)>,
    ) -> Result<Client, Result<String, Fault>> {
        let mut proc = match &spec.cmd {
            Some(cmd) => Proc::spawn(cmd, &spec.args).map_err(Ok)?,
            None => {
                let exe = std::env::current_exe()
                    .map_err(|e| Ok(format!("cannot find the qi executable: {e}")))?;
                Proc::spawn(&exe, &[proto.qi_subcommand().to_string()]).map_err(Ok)?
            }
        };
        proc.log = log;
        let mut client = Client {
            proto,
            proc,
            is_qi: spec.is_qi(),
            options: spec.options.clone(),
            millis: false,
            ucci_newgame: false,
            known: 0,
            started: false,
            answered: None,
        };
        client.handshake().map_err(Err)?;
        Ok(client)
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        self.proc.send(line).map_err(send_fault)
    }

    /// Waits for a line accepted by `want` (which returns `Some(result)` for it, `None` to
    /// skip the line, or an error fault).
    fn wait_for<T>(
        &mut self,
        what: &str,
        timeout: Duration,
        mut want: impl FnMut(&str) -> Result<Option<T>, Fault>,
    ) -> Result<T, Fault> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self
                .proc
                .recv(deadline)
                .map_err(|e| recv_fault(e, what, timeout))?;
            if let Some(v) = want(&line)? {
                return Ok(v);
            }
        }
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let options = self.options.clone();
        match self.proto {
            Proto::Ucci => {
                self.send("ucci")?;
                let (mut millis, mut newgame) = (false, false);
                self.wait_for("ucciok", HANDSHAKE, |l| {
                    let words: Vec<&str> = l.split_whitespace().collect();
                    if words.first() == Some(&"option") {
                        match words.get(1).map(|w| w.to_ascii_lowercase()).as_deref() {
                            Some("usemillisec") => millis = true,
                            Some("newgame") => newgame = true,
                            _ => {}
                        }
                    }
                    Ok((l == "ucciok").then_some(()))
                })?;
                self.millis = millis;
                self.ucci_newgame = newgame;
                if millis {
                    self.send("setoption usemillisec true")?;
                }
                for (k, v) in &options {
                    let line = match (self.is_qi, k.to_ascii_lowercase().as_str()) {
                        (true, "hash") => format!("setoption hashsize {v}"),
                        (true, "threads") => format!("setoption threads {v}"),
                        _ => format!("setoption {k} {v}"),
                    };
                    self.send(&line)?;
                }
                self.ready()
            }
            Proto::Uci => {
                self.send("uci")?;
                self.wait_for("uciok", HANDSHAKE, |l| Ok((l == "uciok").then_some(())))?;
                for (k, v) in &options {
                    let name = match (self.is_qi, k.to_ascii_lowercase().as_str()) {
                        (true, "hash") => "Hash".to_string(),
                        (true, "threads") => "Threads".to_string(),
                        _ => k.clone(),
                    };
                    self.send(&format!("setoption name {name} value {v}"))?;
                }
                self.ready()
            }
            Proto::Gomocup | Proto::InProcess => Ok(()),
            Proto::ConnectMore => {
                self.send("name")?;
                self.wait_for("name", HANDSHAKE, |l| {
                    if l.to_ascii_lowercase().starts_with("error") {
                        return Err(Fault::Protocol(format!("engine said '{l}' to 'name'")));
                    }
                    Ok(is_name_reply(l).then_some(()))
                })?;
                for (k, v) in &options {
                    match (self.is_qi, k.to_ascii_lowercase().as_str()) {
                        (true, "hash" | "threads") => {} // not settable over ConnectMore
                        _ => self.send(&format!("{k} {v}"))?,
                    }
                }
                Ok(())
            }
        }
    }

    fn ready(&mut self) -> Result<(), Fault> {
        self.proc
            .drain()
            .map_err(|e| recv_fault(e, "readyok", HANDSHAKE))?;
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE, |l| Ok((l == "readyok").then_some(())))
    }

    /// Prepares the engine for a new game of `variant` under `tc`.
    ///
    /// # Errors
    /// A [`Fault`] if the engine fails to answer as the protocol requires.
    pub fn new_game(&mut self, referee: &Referee, tc: &TimeControl) -> Result<(), Fault> {
        let tags = referee.game.start_tags();
        let tag = |k: &str| tags.iter().find(|(t, _)| *t == k).map(|(_, v)| v.clone());
        let size = tag("Size").unwrap_or_default();
        self.proc
            .drain()
            .map_err(|e| recv_fault(e, "a new game", HANDSHAKE))?;
        self.known = 0;
        self.started = false;
        match self.proto {
            Proto::Ucci => {
                if self.ucci_newgame {
                    self.send("setoption newgame")?;
                }
                self.ready()
            }
            Proto::Uci => {
                self.send("ucinewgame")?;
                self.ready()
            }
            Proto::Gomocup => {
                self.send(&format!("START {size}"))?;
                self.wait_for("OK to START", HANDSHAKE, |l| {
                    let up = l.to_ascii_uppercase();
                    if up.starts_with("ERROR") || up.starts_with("UNKNOWN") {
                        Err(Fault::Protocol(format!(
                            "engine said '{l}' to 'START {size}'"
                        )))
                    } else {
                        Ok((up == "OK").then_some(()))
                    }
                })?;
                let (turn, total) = match *tc {
                    TimeControl::MoveTime(t) => (ms(t), 0),
                    TimeControl::Game { base, .. } => (ms(base), ms(base)),
                };
                // Gomocup's rule codes: 0 freestyle, 1 exactly five, 4 renju.
                let rule = match tag("Rule").as_deref() {
                    Some("standard") => 1,
                    Some("renju") => 4,
                    _ => 0,
                };
                self.send(&format!("INFO timeout_turn {turn}"))?;
                self.send(&format!("INFO timeout_match {total}"))?;
                self.send("INFO game_type 1")?;
                self.send(&format!("INFO rule {rule}"))?;
                for (k, v) in self.options.clone() {
                    let line = match (self.is_qi, k.to_ascii_lowercase().as_str()) {
                        // Any Gomocup engine: `hash_size` (KiB) is the Yixin-Board extension
                        // qi and Rapfi read; a bare `INFO hash` is no Gomocup key.
                        (_, "hash") => {
                            let kib = v.parse::<u64>().map_or(0, |m| m * 1024);
                            format!("INFO hash_size {kib}")
                        }
                        (true, "threads") => format!("INFO thread_num {v}"),
                        (true, "depth") => format!("INFO max_depth {v}"),
                        _ => format!("INFO {k} {v}"),
                    };
                    self.send(&line)?;
                }
                Ok(())
            }
            Proto::ConnectMore | Proto::InProcess => Ok(()),
        }
    }

    /// Asks for a move in `game` under `clocks`, allowing `clocks.allowed() + margin` from
    /// the moment the request is sent. Returns the reply and the time it took.
    ///
    /// # Errors
    /// [`Fault::Time`] when no move came in time, [`Fault::Crash`] when the engine is gone,
    /// [`Fault::Protocol`] for an answer the protocol does not allow.
    pub fn go(
        &mut self,
        game: &Referee,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        self.proc
            .drain()
            .map_err(|e| recv_fault(e, "a move request", HANDSHAKE))?;
        match self.proto {
            Proto::Ucci | Proto::Uci => self.go_xiangqi(game, clocks, margin),
            Proto::Gomocup => self.go_gomocup(game, clocks, margin),
            Proto::ConnectMore => self.go_connectmore(game, clocks, margin),
            Proto::InProcess => Err(Fault::Protocol("not a process".to_string())),
        }
    }

    /// Waits for the move until `start + allowed + margin`.
    fn wait_move(
        &mut self,
        start: Instant,
        clocks: &Clocks,
        margin: Duration,
        mut parse: impl FnMut(&str) -> Result<Option<Reply>, Fault>,
    ) -> Result<(Reply, Duration), Fault> {
        let allowed = clocks.allowed();
        let deadline = start + allowed + margin;
        loop {
            match self.proc.recv(deadline) {
                Ok(line) => {
                    if let Some(reply) = parse(&line)? {
                        let spent = start.elapsed();
                        if let Some(late) = Fault::late(spent, allowed, margin) {
                            return Err(late);
                        }
                        return Ok((reply, spent));
                    }
                }
                Err(RecvError::Timeout) => {
                    return Err(Fault::Time(format!(
                        "no move within {} ms ({} ms allowed + {} ms margin)",
                        (allowed + margin).as_millis(),
                        allowed.as_millis(),
                        margin.as_millis()
                    )));
                }
                Err(RecvError::Eof(how)) => {
                    return Err(Fault::Crash(format!("{how} (while thinking)")));
                }
            }
        }
    }

    fn go_xiangqi(
        &mut self,
        game: &Referee,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        let tags = game.game.start_tags();
        let fen = tags
            .iter()
            .find(|(k, _)| *k == "FEN")
            .map(|(_, v)| v.clone())
            .ok_or_else(|| Fault::Protocol("the game has no FEN for UCCI/UCI".to_string()))?;
        let moves: Vec<String> = game
            .game
            .protocol_turns("iccs")
            .ok_or_else(|| Fault::Protocol("the game has no ICCS moves".to_string()))?
            .into_iter()
            .map(|(_, m)| m)
            .collect();
        let mut position = format!("position fen {fen}");
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position)?;
        let red = game.side_to_move() == Side::First;
        let go = match (self.proto, clocks.tc) {
            (Proto::Uci, TimeControl::MoveTime(t)) => format!("go movetime {}", ms(t)),
            (Proto::Uci, TimeControl::Game { increment, .. }) => {
                let (w, b) = if red {
                    (clocks.mine, clocks.theirs)
                } else {
                    (clocks.theirs, clocks.mine)
                };
                let i = ms(increment);
                format!("go wtime {} btime {} winc {i} binc {i}", ms(w), ms(b))
            }
            (_, tc) => {
                let unit = |d: Duration| {
                    if self.millis {
                        ms(d)
                    } else {
                        (d.as_secs() as u128).max(1)
                    }
                };
                match tc {
                    TimeControl::MoveTime(t) => format!("go time {} movestogo 1", unit(t)),
                    TimeControl::Game { increment, .. } => format!(
                        "go time {} increment {} opptime {} oppincrement {}",
                        unit(clocks.mine),
                        unit(increment),
                        unit(clocks.theirs),
                        unit(increment)
                    ),
                }
            }
        };
        self.send(&go)?;
        let start = Instant::now();
        self.wait_move(start, clocks, margin, |l| {
            let mut words = l.split_whitespace();
            match words.next() {
                Some("bestmove") => match words.next() {
                    Some("(none)") | None => Ok(Some(Reply::NoMove(l.to_string()))),
                    Some(m) => Ok(Some(Reply::Move(m.to_string()))),
                },
                Some("nobestmove") => Ok(Some(Reply::NoMove(l.to_string()))),
                _ => Ok(None),
            }
        })
    }

    fn go_gomocup(
        &mut self,
        game: &Referee,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        let stones: Vec<(usize, usize)> = game
            .game
            .protocol_turns("gomocup")
            .ok_or_else(|| Fault::Protocol("the game has no Gomocup moves".to_string()))?
            .iter()
            .filter_map(|(_, m)| {
                let (x, y) = m.split_once(',')?;
                Some((x.parse().ok()?, y.parse().ok()?))
            })
            .collect();
        if let Some(at) = self.answered {
            std::thread::sleep(GOMOCUP_SETTLE.saturating_sub(at.elapsed()));
        }
        if let TimeControl::Game { .. } = clocks.tc {
            self.send(&format!("INFO time_left {}", ms(clocks.mine)))?;
        }
        let n = stones.len();
        if n == 0 {
            self.send("BEGIN")?;
        } else if self.known + 1 == n && self.known > 0 || (self.known == 0 && n == 1) {
            let (x, y) = stones[n - 1];
            self.send(&format!("TURN {x},{y}"))?;
        } else {
            self.send("BOARD")?;
            // f = 1 for the side to move's own stones, 2 for the opponent's, in move order.
            for (i, &(x, y)) in stones.iter().enumerate() {
                let own = (n - i) % 2 == 0;
                self.send(&format!("{x},{y},{}", if own { 1 } else { 2 }))?;
            }
            self.send("DONE")?;
        }
        let start = Instant::now();
        let reply = self.wait_move(start, clocks, margin, |l| {
            let up = l.to_ascii_uppercase();
            let word = up.split_whitespace().next().unwrap_or("");
            match word {
                "MESSAGE" | "DEBUG" | "SUGGEST" | "OK" | "" => Ok(None),
                "ERROR" | "UNKNOWN" => Err(Fault::Protocol(format!("engine said '{l}'"))),
                _ => {
                    let coords = l.split_once(',').and_then(|(a, b)| {
                        Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?))
                    });
                    match coords {
                        Some(_) => Ok(Some(Reply::Move(l.trim().to_string()))),
                        None => Err(Fault::Protocol(format!(
                            "unreadable reply '{l}': expected a move x,y"
                        ))),
                    }
                }
            }
        })?;
        self.answered = Some(Instant::now());
        self.known = n + 1;
        Ok(reply)
    }

    fn go_connectmore(
        &mut self,
        game: &Referee,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        let turns = game
            .game
            .protocol_turns("connectmore")
            .ok_or_else(|| Fault::Protocol("the game has no ConnectMore moves".to_string()))?;
        // qi's own ConnectMore additions: its clock (its time manager decides the turn's
        // share), or the time per move.
        if self.is_qi {
            match clocks.tc {
                TimeControl::MoveTime(t) => self.send(&format!("time {}", ms(t).max(1)))?,
                TimeControl::Game { increment, .. } => self.send(&format!(
                    "clock {} {}",
                    ms(clocks.mine).max(1),
                    ms(increment)
                ))?,
            }
        }
        let n = turns.len();
        if !self.started && n == 0 {
            self.send("new black")?;
        } else if self.started && self.known + 1 == n {
            self.send(&format!("move {}", turns[n - 1].1))?;
        } else {
            self.send("new white")?;
            for (side, stones) in &turns {
                let colour = if *side == Side::First {
                    "black"
                } else {
                    "white"
                };
                self.send(&format!("{colour} {stones}"))?;
            }
            self.send("next")?;
        }
        self.started = true;
        let start = Instant::now();
        let reply = self.wait_move(start, clocks, margin, |l| {
            let lower = l.to_ascii_lowercase();
            if lower.starts_with("error") {
                return Err(Fault::Protocol(format!("engine said '{l}'")));
            }
            match lower.strip_prefix("move ") {
                Some(m) => Ok(Some(Reply::Move(m.trim().to_ascii_uppercase()))),
                None => Ok(None),
            }
        })?;
        self.known = n + 1;
        Ok(reply)
    }

    /// Ends the engine: the protocol's quit command, a short grace, then a kill.
    pub fn quit(self) {
        let line = match self.proto {
            Proto::Ucci | Proto::Uci | Proto::ConnectMore => "quit",
            Proto::Gomocup => "END",
            Proto::InProcess => "",
        };
        self.proc.stop(Some(line), Duration::from_millis(500));
    }

    /// Kills the engine at once (after a crash, a time forfeit or a protocol error).
    pub fn kill(self) {
        self.proc.stop(None, Duration::ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::is_name_reply;

    #[test]
    fn a_name_reply_is_told_from_help_text() {
        assert!(is_name_reply("name Cloudict"));
        assert!(is_name_reply("name qi connect6 0.1.0"));
        assert!(!is_name_reply("name        - print the name of the engine"));
        assert!(!is_name_reply("name"));
        assert!(!is_name_reply("names of commands:"));
        assert!(!is_name_reply("  help - this text"));
    }
}
