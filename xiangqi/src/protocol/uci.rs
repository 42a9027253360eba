//! The UCI server as Pikafish speaks it for xiangqi ("UCI-cyclone": ICCS files `a`..`i`,
//! ranks `0`..`9`), switching to ranks `1`..`10` in and out after `setoption name
//! UCI_Variant value xiangqi` (the convention of cutechess and Fairy-Stockfish).
//!
//! Commands: `uci`, `isready`, `ucinewgame`, `setoption name <name> [value <value>]`
//! (`Hash` MiB, `Threads`, `MultiPV` 1..16, `Ponder`, `Clear Hash`, `Move Overhead` ms,
//! `UCI_LimitStrength` with `UCI_Elo` (the nearest measured level), `Level` 1..8 (ours),
//! `UCI_Variant`), `position {startpos | fen <FEN>} [moves ...]`, `go [ponder] [wtime ..
//! btime .. winc .. binc .. movestogo ..] [movetime ..] [depth ..] [nodes ..] [mate ..]
//! [infinite] [searchmoves ...]` (times in milliseconds; Red is "white"), `stop`,
//! `ponderhit`, `debug`, `quit`.
//!
//! Replies: `info depth .. seldepth .. multipv 1 score cp ..|mate .. nodes .. nps .. hashfull
//! .. time .. pv ..` per completed iteration, then `bestmove M [ponder M2]`, or `bestmove
//! (none)` when the side to move has no legal move. A malformed line gets `info string
//! error: ...` and changes nothing.

use std::io::{self, BufRead, Write};
use std::time::Duration;

use game_core::Side;
use game_core::search::Limits;

use super::driver::{Dialect, Engine, GoRequest, MAX_HASH_MIB, MAX_MULTIPV, number};
use super::ucci::ENGINE_NAME;
use game_core::clock::Clock;
use game_core::protocol::read_lines;
use game_core::search::MAX_THREADS;
use game_frame::{LEVEL_ELO, LEVELS, Level, LevelPick};

/// Runs a UCI session: reads commands from `input` until `quit` or the end of the input,
/// writes replies to `output` (each line flushed). Searches run on their own thread while
/// commands are still read, so `stop` and `ponderhit` act at once. At the end of the input
/// an infinite or pondering search is stopped and a finite one is awaited.
///
/// # Errors
/// Only I/O errors of `input` or `output`; bad commands are answered, never fatal.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<()> {
    let mut session = Session {
        engine: Engine::new(
            output,
            Dialect::Uci {
                ranks_from_one: false,
            },
        ),
    };
    read_lines(input, |line| session.handle(line))?;
    session.engine.finish();
    Ok(())
}

struct Session<W: Write + Send + 'static> {
    engine: Engine<W>,
}

impl<W: Write + Send + 'static> Session<W> {
    fn handle(&mut self, line: &str) -> io::Result<bool> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let (command, args) = tokens.split_first().expect("non-empty line");
        if let Some(result) = self.engine.shared_command(command, args) {
            return result.map(|()| true);
        }
        let result = match *command {
            "uci" => self.identify(),
            "ucinewgame" => {
                self.engine.searcher().clear();
                Ok(())
            }
            "setoption" => self.setoption(args),
            "go" => {
                let request = self.go_request(args);
                self.engine.go_command(request)
            }
            "debug" | "register" => Ok(()),
            "quit" => {
                self.engine.stop();
                return Ok(false);
            }
            other => self.engine.error(&format!("unknown command '{other}'")),
        };
        result.map(|()| true)
    }

    fn identify(&mut self) -> io::Result<()> {
        let hash = self.engine.searcher().options().hash_mib;
        for line in [
            format!("id name {ENGINE_NAME}"),
            "id author The qi developers".to_string(),
            format!("option name Hash type spin default {hash} min 1 max {MAX_HASH_MIB}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                LEVEL_ELO[LEVEL_ELO.len() - 1],
                LEVEL_ELO[0],
                LEVEL_ELO[LEVEL_ELO.len() - 1]
            ),
            format!("option name Level type spin default {LEVELS} min 1 max {LEVELS}"),
            "option name Ponder type check default false".to_string(),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name Move Overhead type spin default {} min 0 max 5000",
                self.engine.move_overhead.as_millis()
            ),
            "option name UCI_Variant type combo default xiangqi var xiangqi".to_string(),
            "uciok".to_string(),
        ] {
            self.engine.send(&line)?;
        }
        Ok(())
    }

    fn setoption(&mut self, args: &[&str]) -> io::Result<()> {
        if args.first() != Some(&"name") {
            return self
                .engine
                .error("expected 'setoption name <name> [value <value>]'");
        }
        let value_at = args.iter().position(|&t| t == "value");
        let name = args[1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" "));
        let value = value.as_deref();
        let spin = |min: u64, max: u64| -> Result<u64, String> {
            let n: u64 = number(&name, value)?;
            if (min..=max).contains(&n) {
                Ok(n)
            } else {
                Err(format!("option '{name}' value {n} is outside {min}..{max}"))
            }
        };
        let outcome: Result<(), String> = match name.to_ascii_lowercase().as_str() {
            "hash" => spin(1, MAX_HASH_MIB as u64)
                .map(|mb| self.engine.searcher().set_hash_mib(mb as usize)),
            "threads" => {
                spin(1, MAX_THREADS as u64).map(|n| self.engine.searcher().set_threads(n as usize))
            }
            "multipv" => spin(1, u64::from(MAX_MULTIPV)).map(|n| self.engine.multipv = n as u32),
            "uci_limitstrength" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some(on @ ("true" | "false")) => {
                    self.engine.set_limit_strength(on == "true");
                    Ok(())
                }
                _ => Err(format!(
                    "option 'UCI_LimitStrength' expects true or false, got '{}'",
                    value.unwrap_or("")
                )),
            },
            "uci_elo" => spin(LEVEL_ELO[0] as u64, LEVEL_ELO[LEVEL_ELO.len() - 1] as u64)
                .map(|e| self.engine.set_elo(e as i32)),
            "level" => spin(1, u64::from(LEVELS)).map(|n| {
                let level = Level::new(n as u8).unwrap_or(Level::FULL);
                self.engine.strength = LevelPick::fresh(level);
            }),
            "ponder" => match value {
                Some("true" | "false") => Ok(()),
                _ => Err(format!(
                    "option 'Ponder' expects true or false, got '{}'",
                    value.unwrap_or("")
                )),
            },
            "clear hash" => {
                self.engine.searcher().clear();
                Ok(())
            }
            "move overhead" => spin(0, 5000).map(|ms| {
                self.engine.move_overhead = Duration::from_millis(ms);
            }),
            "uci_variant" => match value.map(str::to_ascii_lowercase).as_deref() {
                Some("xiangqi") => {
                    self.engine.idle();
                    self.engine.dialect = Dialect::Uci {
                        ranks_from_one: true,
                    };
                    Ok(())
                }
                _ => Err(format!(
                    "UCI_Variant '{}' not supported; only xiangqi",
                    value.unwrap_or("")
                )),
            },
            _ => Err(format!("unknown option '{name}'")),
        };
        match outcome {
            Ok(()) => Ok(()),
            Err(e) => self.engine.error(&e),
        }
    }

    fn go_request(&self, args: &[&str]) -> Result<GoRequest, String> {
        let mut request = GoRequest {
            limits: Limits::default(),
            ..GoRequest::default()
        };
        let red = self.engine.position.side() == Side::First;
        let ms = |keyword: &str, v: Option<&str>| -> Result<Duration, String> {
            // GUIs may send a negative remaining time after a late move: treat it as zero.
            let v = v.ok_or_else(|| format!("'{keyword}' needs a number"))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("'{keyword}' expects an integer (ms), got '{v}'"))?;
            Ok(Duration::from_millis(n.max(0) as u64))
        };
        let mut clock: Option<Clock> = None;
        let mut i = 0;
        while i < args.len() {
            let keyword = args[i];
            let value = args.get(i + 1).copied();
            i += 2;
            match keyword {
                "wtime" | "btime" => {
                    let t = ms(keyword, value)?;
                    if (keyword == "wtime") == red {
                        clock.get_or_insert_default().remaining = t;
                    }
                }
                "winc" | "binc" => {
                    let t = ms(keyword, value)?;
                    if (keyword == "winc") == red {
                        clock.get_or_insert_default().increment = t;
                    }
                }
                "movestogo" => {
                    let m: u32 = number(keyword, value)?;
                    clock.get_or_insert_default().moves_to_go = Some(m);
                }
                "movetime" => request.movetime = Some(ms(keyword, value)?),
                "depth" => {
                    let d: u32 = number(keyword, value)?;
                    request.limits.depth = Some(d.clamp(1, game_core::search::MAX_DEPTH));
                }
                "nodes" => request.limits.nodes = Some(number(keyword, value)?),
                "mate" => {
                    let m: u32 = number(keyword, value)?;
                    request.limits.depth = Some(
                        (2 * m)
                            .saturating_sub(1)
                            .clamp(1, game_core::search::MAX_DEPTH),
                    );
                }
                "infinite" => {
                    request.infinite = true;
                    i -= 1;
                }
                "ponder" => {
                    request.ponder = true;
                    i -= 1;
                }
                "searchmoves" => {
                    for text in &args[i - 1..] {
                        let mv = self
                            .engine
                            .dialect
                            .parse_move(&self.engine.position, text)
                            .map_err(|e| format!("searchmoves: '{text}' refused: {e}"))?;
                        request.limits.root_moves.push(mv);
                    }
                    i = args.len();
                }
                other => return Err(format!("go: unknown parameter '{other}'")),
            }
        }
        request.clock = clock;
        Ok(request)
    }
}
