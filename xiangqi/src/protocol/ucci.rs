//! The UCCI 3.0 server (Universal Chinese Chess Interface, the protocol of XiangQi Wizard,
//! Sharkchess, BHGUI and ElephantEye), as described in the qi xiangqi facts
//! (`shared/docs/xiangqi.md`) after the xqbase UCCI 3.0 specification.
//!
//! Commands: `ucci`, `isready`, `setoption <name> [<value>]` (no `name`/`value` keywords:
//! `hashsize` in MB, `threads`, `usemillisec`, `ponder`, `newgame`, and for a weaker engine
//! `UCI_LimitStrength true|false` with `UCI_Elo E` (the nearest measured level) or our
//! `level 1..8`; unknown options are ignored), `position {fen <FEN> | startpos} [moves <ICCS>...]`, `banmoves <ICCS>...`
//! (cleared by the next `position`), `go [ponder|draw] {depth D | nodes N | infinite |
//! time T [movestogo M | increment I] [opptime T2 [oppmovestogo M2 | oppincrement I2]]}`
//! (times in seconds, or milliseconds after `setoption usemillisec true`), `ponderhit [draw]`,
//! `stop`, `probe`, `quit` (answered `bye`).
//!
//! Replies: `info depth D score S pv ...` per completed iteration (S a plain integer, 100 =
//! a horse; a forced win in `p` plies is `10000 - p`, a loss `-(10000 - p)`), `info time T
//! nodes N nps .. seldepth .. hashfull ..`, then `bestmove M [ponder M2]`, or `nobestmove`
//! when the side to move has no legal move (or every move is banned). `go depth 0` is
//! answered with the static evaluation, `info depth 0 score S`, and `nobestmove`; `stop` and
//! `ponderhit` are commands of the thinking state, so when idle they are ignored without a
//! reply (UCCI 3.0). A malformed line gets `info string error: ...` and changes nothing.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use game_core::search::Limits;

use super::driver::{Dialect, Engine, GoRequest, MAX_HASH_MIB, number};
use game_core::clock::Clock;
use game_core::protocol::read_lines;
use game_core::search::MAX_THREADS;
use game_frame::{LEVEL_ELO, LEVELS, Level, LevelPick};

/// The engine's name in `id name`.
pub const ENGINE_NAME: &str = concat!("qi xiangqi ", env!("CARGO_PKG_VERSION"));

/// Runs a UCCI session: reads commands from `input` until `quit` or the end of the input,
/// writes replies to `output` (each line flushed). Searches run on their own thread while
/// commands are still read, so `stop` and `ponderhit` act at once (within a few
/// milliseconds). At the end of the input an infinite or pondering search is stopped and a
/// finite one is awaited, so `go depth 8` piped in still prints its best move.
///
/// # Errors
/// Only I/O errors of `input` or `output`; bad commands are answered, never fatal.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut session = Session {
        engine: Engine::new(output, Dialect::Ucci),
        millis: false,
    };
    read_lines(input, |line| session.handle(line))?;
    session.engine.finish();
    Ok(())
}

struct Session<W: Write + Send + 'static> {
    engine: Engine<W>,
    /// `usemillisec`: times in milliseconds instead of seconds.
    millis: bool,
}

impl<W: Write + Send + 'static> Session<W> {
    /// Handles one line; `Ok(false)` after `quit`.
    fn handle(&mut self, line: &str) -> io::Result<bool> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (command, args) = tokens.split_first().expect("non-empty line");
        if let Some(result) = self.engine.shared_command(command, args) {
            return result.map(|()| true);
        }
        let result = match *command {
            "ucci" => self.identify(),
            "setoption" => self.setoption(args),
            "banmoves" => self.banmoves(args),
            "go" => {
                let request = self.go_request(args);
                self.engine.go_command(request)
            }
            "probe" => self.engine.send("pophash"),
            "quit" => {
                self.engine.stop();
                self.engine.send("bye")?;
                return Ok(false);
            }
            other => self.engine.error(&format!("unknown command '{other}'")),
        };
        result.map(|()| true)
    }

    fn identify(&mut self) -> io::Result<()> {
        let options = self.engine.searcher().options().clone();
        for line in [
            format!("id name {ENGINE_NAME}"),
            "id copyright The qi developers, MIT or Apache-2.0".to_string(),
            "id author The qi developers".to_string(),
            "id user qi".to_string(),
            "option usemillisec type check default false".to_string(),
            "option ponder type check default false".to_string(),
            format!(
                "option hashsize type spin min 1 max {MAX_HASH_MIB} default {}",
                options.hash_mib
            ),
            format!("option threads type spin min 1 max {MAX_THREADS} default 1"),
            "option newgame type button".to_string(),
            "option UCI_LimitStrength type check default false".to_string(),
            format!(
                "option UCI_Elo type spin min {} max {} default {}",
                LEVEL_ELO[0],
                LEVEL_ELO[LEVEL_ELO.len() - 1],
                LEVEL_ELO[LEVEL_ELO.len() - 1]
            ),
            format!("option level type spin min 1 max {LEVELS} default {LEVELS}"),
            "ucciok".to_string(),
        ] {
            self.engine.send(&line)?;
        }
        Ok(())
    }

    fn setoption(&mut self, args: &[&str]) -> io::Result<()> {
        let Some((name, value)) = args.split_first() else {
            return self.engine.error("'setoption' needs an option name");
        };
        let value = value.first().copied();
        let flag = |v: Option<&str>| match v {
            Some("true" | "on") => Ok(true),
            Some("false" | "off") => Ok(false),
            _ => Err(format!(
                "option '{name}' expects true or false, got '{}'",
                v.unwrap_or("")
            )),
        };
        match name.to_ascii_lowercase().as_str() {
            "hashsize" => match number::<usize>("hashsize", value) {
                Ok(mb) if (1..=MAX_HASH_MIB).contains(&mb) => {
                    self.engine.searcher().set_hash_mib(mb)
                }
                Ok(mb) => {
                    return self
                        .engine
                        .error(&format!("hashsize {mb} MB is outside 1..{MAX_HASH_MIB}"));
                }
                Err(e) => return self.engine.error(&e),
            },
            "threads" => match number::<usize>("threads", value) {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.engine.searcher().set_threads(n),
                Ok(n) => {
                    return self
                        .engine
                        .error(&format!("threads {n} is outside 1..{MAX_THREADS}"));
                }
                Err(e) => return self.engine.error(&e),
            },
            "usemillisec" => match flag(value) {
                Ok(b) => self.millis = b,
                Err(e) => return self.engine.error(&e),
            },
            "ponder" => {
                if let Err(e) = flag(value) {
                    return self.engine.error(&e);
                }
            }
            "newgame" => self.engine.searcher().clear(),
            "uci_limitstrength" => match flag(value) {
                Ok(on) => self.engine.set_limit_strength(on),
                Err(e) => return self.engine.error(&e),
            },
            "uci_elo" => match number::<i32>("UCI_Elo", value) {
                Ok(e) if (LEVEL_ELO[0]..=LEVEL_ELO[LEVEL_ELO.len() - 1]).contains(&e) => {
                    self.engine.set_elo(e);
                }
                Ok(e) => {
                    return self.engine.error(&format!(
                        "UCI_Elo {e} is outside {}..{}",
                        LEVEL_ELO[0],
                        LEVEL_ELO[LEVEL_ELO.len() - 1]
                    ));
                }
                Err(e) => return self.engine.error(&e),
            },
            "level" => match value.map(str::parse::<Level>) {
                Some(Ok(level)) => {
                    self.engine.strength = LevelPick::fresh(level);
                }
                Some(Err(e)) => return self.engine.error(&e.to_string()),
                None => return self.engine.error("'level' needs a number 1..8"),
            },
            // Unknown options (batch, debug, usebook, ...) are not an error in UCCI.
            _ => {}
        }
        Ok(())
    }

    fn banmoves(&mut self, args: &[&str]) -> io::Result<()> {
        if let Some(e) = self.engine.no_position() {
            return self.engine.error(&format!("banmoves: {e}"));
        }
        let mut banned = Vec::with_capacity(args.len());
        for text in args {
            match self.engine.dialect.parse_move(&self.engine.position, text) {
                Ok(mv) => banned.push(mv),
                Err(e) => {
                    return self
                        .engine
                        .error(&format!("banmoves: '{text}' refused: {e}"));
                }
            }
        }
        self.engine.banned = banned;
        Ok(())
    }

    fn duration(&self, keyword: &str, value: Option<&str>) -> Result<Duration, String> {
        let v = value.ok_or_else(|| format!("'{keyword}' needs a number"))?;
        let x: f64 = v
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0)
            .ok_or_else(|| format!("'{keyword}' expects a non-negative number, got '{v}'"))?;
        Ok(Duration::from_secs_f64(
            if self.millis { x / 1000.0 } else { x }.min(1e9),
        ))
    }

    fn go_request(&self, args: &[&str]) -> Result<GoRequest, String> {
        let mut request = GoRequest {
            limits: Limits::default(),
            ..GoRequest::default()
        };
        let mut clock: Option<Clock> = None;
        let mut it = args.iter().copied();
        while let Some(keyword) = it.next() {
            match keyword {
                "ponder" => request.ponder = true,
                "draw" => {} // the opponent offers a draw: declined by playing on
                "infinite" => request.infinite = true,
                "depth" => {
                    let d: u32 = number("depth", it.next())?;
                    // UCCI 3.0: depth 0 asks for the static evaluation and `nobestmove`.
                    request.static_only = d == 0;
                    request.limits.depth = Some(d.clamp(1, game_core::search::MAX_DEPTH));
                }
                "nodes" => request.limits.nodes = Some(number("nodes", it.next())?),
                "time" => {
                    clock.get_or_insert_default().remaining = self.duration("time", it.next())?;
                }
                "increment" => {
                    clock.get_or_insert_default().increment =
                        self.duration("increment", it.next())?;
                }
                "movestogo" => {
                    let m: u32 = number("movestogo", it.next())?;
                    clock.get_or_insert_default().moves_to_go = Some(m);
                }
                // The opponent's clock does not change our allocation; read and check it.
                "opptime" | "oppincrement" => {
                    self.duration(keyword, it.next())?;
                }
                "oppmovestogo" => {
                    number::<u32>(keyword, it.next())?;
                }
                other => return Err(format!("go: unknown parameter '{other}'")),
            }
        }
        request.clock = clock;
        Ok(request)
    }
}
