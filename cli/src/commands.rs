//! The subcommands: build a game from the options and drive it.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use game_core::{Outcome, Side};

use game_frame::{Budget, Ending, EngineConfig, Game, GameClock, Style, TimeControl, clock_text};

use crate::CliError;
use crate::args::{EngineArgs, PositionArgs};
use crate::play::{self, PlayConfig, Player};
use crate::record;
use crate::registry::{self, GameArg};

/// Default engine time per move in `play`.
pub const PLAY_TIME: Duration = Duration::from_secs(2);
/// Default engine time in `analyze`.
pub const ANALYZE_TIME: Duration = Duration::from_secs(1);

/// A player name: `human` (`h`, `me`) or `engine` (`e`, `qi`, `computer`, `cpu`).
/// `stones` says whether the option also takes a stone setup (stone games' --black/--white).
fn player(flag: &str, value: &str, stones: bool) -> Result<Player, CliError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "human" | "h" | "me" => Ok(Player::Human),
        "engine" | "e" | "qi" | "computer" | "cpu" => Ok(Player::Engine),
        _ if stones => Err(CliError::Usage(format!(
            "bad player '{value}' for --{flag}: expected human or engine (or, for a stone \
             setup, points like \"g10 h10\")"
        ))),
        _ => Err(CliError::Usage(format!(
            "bad player '{value}' for --{flag}: expected human or engine"
        ))),
    }
}

/// A `--black`/`--white` value that names a player rather than stones: `human`, `engine`, or
/// any word without a digit (which then fails as a player with a clear message).
fn is_player(value: &str) -> bool {
    player("", value, true).is_ok() || !value.chars().any(|c| c.is_ascii_digit())
}

/// How `qi play` shows the game: an ASCII board, live search lines on a redirected stderr,
/// the side at the bottom of the board (`None`: the human's, the first side's when both or
/// neither are human).
#[derive(Copy, Clone, Debug, Default)]
pub struct View {
    /// `--ascii`.
    pub ascii: bool,
    /// `--info`.
    pub info: bool,
    /// `--view red|black`: `Some(true)` for the second side at the bottom.
    pub flipped: Option<bool>,
}

/// Who plays each side, as `qi play` was told: `--first`/`--second` for any game, and the
/// game's side names (`--black`/`--white`, `--red`/`--black`).
#[derive(Clone, Debug, Default)]
pub struct PlayerArgs {
    /// `--first`.
    pub first: Option<String>,
    /// `--second`.
    pub second: Option<String>,
    /// `--red`.
    pub red: Option<String>,
}

/// The terms a game of `qi play` is played on.
#[derive(Clone, Debug, Default)]
pub struct Terms {
    /// `--clock`: the game clock, if any.
    pub clock: Option<TimeControl>,
    /// `--opening`: the opening rule, if any.
    pub opening: Option<String>,
}

/// `qi play`.
pub fn play(
    kind: Option<GameArg>,
    position: &PositionArgs,
    who: &PlayerArgs,
    load: Option<&Path>,
    view: View,
    engine: &EngineArgs,
    terms: &Terms,
) -> Result<(), CliError> {
    let View { ascii, info, .. } = view;
    let (clock, opening) = (terms.clock, terms.opening.as_deref());
    let config = engine.config();
    let mut setup = position.clone();
    let mut chosen: [Option<Player>; 2] = [None, None];
    // The option that chose each side's player, so that two options for one side are refused.
    let mut chosen_by: [Option<&str>; 2] = [None, None];
    let mut choose = |i: usize, flag: &'static str, p: Player| -> Result<(), CliError> {
        if let Some(other) = chosen_by[i] {
            return Err(CliError::Usage(format!(
                "--{other} and --{flag} both name the player of the same side: give one"
            )));
        }
        chosen_by[i] = Some(flag);
        chosen[i] = Some(p);
        Ok(())
    };
    let text = match load {
        Some(file) => Some(std::fs::read_to_string(file).map_err(|e| {
            CliError::Usage(format!("cannot read game record {}: {e}", file.display()))
        })?),
        None => None,
    };
    let spec = kind
        .map(|k| k.0)
        .or_else(|| text.as_deref().and_then(record::game_of));
    if let Some(spec) = spec {
        let names = spec.side_names();
        let stones = spec.stone_setups();
        let side_of = |flag: &str| names.iter().position(|n| n.eq_ignore_ascii_case(flag));
        // --black/--white name players when their value is human/engine (or the game has no
        // stone setups), setups otherwise; --red names a player.
        let named = [
            ("black", position.black.clone(), true),
            ("white", position.white.clone(), true),
            ("red", who.red.clone(), false),
        ];
        for (flag, value, setup_flag) in named {
            let Some(v) = value else { continue };
            match side_of(flag) {
                Some(i) if !(stones && setup_flag) || is_player(&v) => {
                    choose(i, flag, player(flag, &v, stones && setup_flag)?)?;
                    match flag {
                        "black" => setup.black = None,
                        "white" => setup.white = None,
                        _ => {}
                    }
                }
                Some(_) => {}
                None if stones && setup_flag => {}
                None => {
                    // Side names that are options themselves (--black, --white, --red).
                    let flags = names.iter().all(|n| {
                        ["black", "white", "red"].contains(&n.to_ascii_lowercase().as_str())
                    });
                    let alternatives = if flags {
                        format!(
                            "--{} and --{}, or --first and --second",
                            names[0].to_ascii_lowercase(),
                            names[1].to_ascii_lowercase()
                        )
                    } else {
                        "--first and --second".to_string()
                    };
                    return Err(CliError::Usage(format!(
                        "{} has {} and {}, not {}: use {alternatives} (human or engine)",
                        spec.name(),
                        names[0],
                        names[1],
                        capitalised(flag),
                    )));
                }
            }
        }
    }
    for (i, flag, value) in [(0, "first", &who.first), (1, "second", &who.second)] {
        if let Some(v) = value {
            choose(i, flag, player(flag, v, false)?)?;
        }
    }
    let mut game_clock = clock.map(GameClock::new);
    let mut ended = None;
    let mut game: Box<dyn Game> = match (load, kind) {
        (Some(file), _) => {
            let text = text.unwrap_or_default();
            let game = record::load(
                &text,
                &file.display().to_string(),
                kind,
                &setup.setup(),
                &config,
            )?;
            if chosen == [None, None] {
                chosen = saved_players(&text, game.as_ref());
            }
            game_clock = record::resumed_clock(&text, game.as_ref(), clock);
            ended = record::recorded_ending(&text, game.as_ref());
            game
        }
        (None, Some(kind)) => kind.0.build(&setup.setup(), &config)?,
        (None, None) => {
            return Err(CliError::Usage(format!(
                "play needs a game: {} (or --load FILE)",
                registry::names()
            )));
        }
    };
    match (opening, load) {
        (Some(_), Some(_)) => {
            return Err(CliError::Usage(
                "--opening is for a new game: a loaded game goes on from its record".into(),
            ));
        }
        (Some(name), None) => game.set_opening(name).map_err(CliError::Usage)?,
        (None, None) => {
            // Renju starts with Black's stone on the centre point (RIF rules, article 2);
            // the other games have no such rule, and their refusal is no error.
            if game.opening_rules().iter().any(|(n, _)| *n == "centre") {
                game.set_opening("centre").map_err(CliError::Usage)?;
            }
        }
        (None, Some(_)) => {}
    }
    if view.flipped.is_some() && !game.board().flippable {
        return Err(CliError::Usage(format!(
            "--view is for boards seen from one side (xiangqi); {}'s board looks the same from \
             both sides",
            game.name()
        )));
    }
    // By default the human plays the side to move and the engine the other side.
    let to_move = game.side_to_move();
    let players = match chosen {
        [None, None] => {
            let mut p = [Player::Engine; 2];
            p[to_move.index()] = Player::Human;
            p
        }
        [Some(a), None] => [a, opposite(a)],
        [None, Some(b)] => [opposite(b), b],
        [Some(a), Some(b)] => [a, b],
    };
    let budget = if clock.is_some() {
        // On a clock the engine plays to its clock unless a limit is given.
        engine.budget_on_clock()
    } else {
        engine.budget(PLAY_TIME)
    };
    let play_config = PlayConfig {
        players,
        budget,
        style: Style {
            unicode: !ascii,
            color: true,
            // The human's side at the bottom when the human plays the second side alone.
            flipped: view
                .flipped
                .unwrap_or(players == [Player::Engine, Player::Human]),
        },
        echo: !io::stdin().is_terminal(),
        live_in_place: io::stderr().is_terminal(),
        live_lines: info || io::stderr().is_terminal(),
        clock: game_clock.clone(),
        live_clock: io::stdout().is_terminal(),
        ended,
    };
    // Ctrl-C: the engine moves now; again, or at the prompt, the game may be saved first.
    play::install_interrupt();
    let mut input = play::StdinLines::spawn();
    let mut out = anstream::stdout().lock();
    let mut err = anstream::stderr().lock();
    writeln!(
        out,
        "qi plays {}: {} is {}, {} is {}{}{}. Type 'help' for commands.",
        game.name(),
        game.side_name(Side::First),
        players[0].name(),
        game.side_name(Side::Second),
        players[1].name(),
        engine
            .level
            .filter(|l| !l.is_full())
            .map_or(String::new(), |l| format!(", the engine at level {l} of 8")),
        game_clock
            .as_ref()
            .map_or(String::new(), |c| on_clock(game.as_ref(), c)),
    )?;
    play::run(game.as_mut(), &play_config, &mut input, &mut out, &mut err)?;
    out.flush()?;
    Ok(())
}

/// `, on a 5m+3s clock` for the greeting; with the times left when a loaded game's clocks
/// go on (`, on a 5m+3s clock (Black 4:12, White 3:58 left)`).
fn on_clock(game: &dyn Game, clock: &GameClock) -> String {
    let now = std::time::Instant::now();
    let base = clock.time_control().base;
    let left = [Side::First, Side::Second].map(|s| clock.remaining(s, now));
    let mut text = format!(", on a {} clock", clock.time_control());
    if left.iter().any(|&r| r != base) {
        text.push_str(&format!(
            " ({} {}, {} {} left)",
            game.side_name(Side::First),
            clock_text(left[0]),
            game.side_name(Side::Second),
            clock_text(left[1])
        ));
    }
    text
}

/// Who played each side in a record `qi play` saved (its side tags say `human` and `qi`), so
/// that a loaded game goes on with the same players; `[None, None]` when the tags name no
/// human (a `qi match` record, a record from elsewhere).
fn saved_players(text: &str, game: &dyn Game) -> [Option<Player>; 2] {
    let read = |side: Side| {
        record::side_tag(text, game.side_name(side)).and_then(|v| player("", &v, false).ok())
    };
    let players = [read(Side::First), read(Side::Second)];
    if players.contains(&Some(Player::Human)) {
        players
    } else {
        [None, None]
    }
}

/// `black` -> `Black`.
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn opposite(p: Player) -> Player {
    match p {
        Player::Human => Player::Engine,
        Player::Engine => Player::Human,
    }
}

/// `qi moves`.
pub fn moves(kind: GameArg, position: &PositionArgs) -> Result<(), CliError> {
    let game = kind.0.build(&position.setup(), &EngineConfig::small())?;
    if let Some(end) = game.ending() {
        eprintln!("qi: {}", result_words(game.as_ref(), &end));
        return Ok(());
    }
    let mut out = io::stdout().lock();
    for mv in game.legal_moves() {
        writeln!(out, "{mv}")?;
    }
    Ok(())
}

fn result_words(game: &dyn Game, end: &Ending) -> String {
    match end.outcome {
        Outcome::Win(side) => format!(
            "the game is over: {} {}",
            end.result_tag(),
            play::win_words(game, side, &end.reason)
        ),
        Outcome::Draw => format!("the game is over: 1/2-1/2 draw ({})", end.reason),
    }
}

/// `qi analyze`.
pub fn analyze(
    kind: GameArg,
    position: &PositionArgs,
    engine: &EngineArgs,
    json: bool,
    multipv: u32,
) -> Result<(), CliError> {
    let mut game = kind.0.build(&position.setup(), &engine.config())?;
    let mut out = io::stdout().lock();
    if let Some(end) = game.ending() {
        if json {
            let mut value = serde_json::json!({
                "result": end.result_tag(),
                "winner": end.outcome.winner().map(|s| game.side_name(s).to_ascii_lowercase()),
                "reason": end.reason,
                "bestmove": null,
                "mate": null,
                "depth": 0,
                "nodes": 0,
                "time_ms": 0,
                "pv": [],
            });
            value[game.score_field()] = serde_json::Value::Null;
            writeln!(out, "{value}")?;
        } else {
            writeln!(out, "result {}", end.result_tag())?;
            writeln!(out, "{}", result_words(game.as_ref(), &end))?;
        }
        return Ok(());
    }
    let stop = AtomicBool::new(false);
    let budget = Budget {
        multipv,
        ..engine.budget(ANALYZE_TIME)
    };
    // Text mode shows every completed iteration on stderr; JSON mode stays quiet.
    let mut thought = game.think(&budget, &stop, &mut |info| {
        if !json {
            eprintln!("{}", play::live_line(info));
        }
    });
    // As many lines as asked for (a level searches more for its own choice).
    thought.lines.truncate(multipv as usize);
    if json {
        writeln!(out, "{}", thought.to_json())?;
    } else {
        writeln!(
            out,
            "bestmove {}",
            thought.bestmove.as_deref().unwrap_or("(none)")
        )?;
        writeln!(out, "score {}", thought.score_text())?;
        writeln!(out, "depth {}", thought.depth)?;
        writeln!(out, "nodes {}", thought.nodes)?;
        writeln!(out, "time {} ms", thought.time_ms)?;
        writeln!(out, "pv {}", thought.pv.join(" "))?;
        if let Some(reason) = &thought.reason {
            writeln!(out, "reason {reason}")?;
        }
        if thought.lines.len() > 1 {
            for (i, line) in thought.lines.iter().enumerate() {
                writeln!(
                    out,
                    "multipv {} score {} pv {}",
                    i + 1,
                    thought.line_score_text(line),
                    line.pv.join(" ")
                )?;
            }
        }
    }
    Ok(())
}

/// `qi perft`.
pub fn perft(
    kind: GameArg,
    position: &PositionArgs,
    depth: u32,
    divide: bool,
) -> Result<(), CliError> {
    let start = Instant::now();
    let counts = kind.0.perft(&position.setup(), depth, divide)?;
    let mut out = io::stdout().lock();
    let total: u64 = counts.iter().map(|(_, n)| n).sum();
    if divide {
        for (mv, n) in &counts {
            writeln!(out, "{mv} {n}")?;
        }
        writeln!(out, "total {total}")?;
    } else {
        writeln!(out, "{total}")?;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft {depth}: {total} leaves in {secs:.3} s ({:.0} leaves/s)",
        total as f64 / secs.max(1e-9)
    );
    Ok(())
}

/// `qi bench`.
pub fn bench(kind: Option<GameArg>, depth: Option<u32>) -> Result<(), CliError> {
    let kinds: Vec<GameArg> = match kind {
        Some(k) => vec![k],
        None => registry::GAMES
            .iter()
            .filter(|g| g.in_default_bench())
            .map(|&g| GameArg(g))
            .collect(),
    };
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    for kind in kinds {
        let (positions, default_depth) = kind.0.bench();
        let depth = depth.unwrap_or(default_depth);
        for args in positions {
            let mut game = kind.0.build(&args, &EngineConfig::bench())?;
            let stop = AtomicBool::new(false);
            let budget = Budget {
                depth: Some(depth),
                ..Budget::default()
            };
            let start = Instant::now();
            let thought = game.think(&budget, &stop, &mut |_| {});
            let spent = start.elapsed();
            total_nodes += thought.nodes;
            total_time += spent;
            let label = args
                .fen
                .as_deref()
                .or(args.moves.as_deref())
                .unwrap_or("start");
            eprintln!(
                "{:<9} {:<40} {:<6} {:>10} nodes {:>6} ms",
                kind.name(),
                label.chars().take(40).collect::<String>(),
                thought.bestmove.as_deref().unwrap_or("-"),
                thought.nodes,
                spent.as_millis()
            );
        }
    }
    let nps = (total_nodes as f64 / total_time.as_secs_f64().max(1e-9)) as u64;
    println!("{total_nodes} nodes {nps} nps");
    Ok(())
}

/// Hands stdin/stdout to the protocol loop of the `qi` command `command` (`gomocup`, `ucci`,
/// `uci`, `connect6-engine`); `first` is a line already read from stdin and the rest of the
/// input; `level` sends the protocol's level line first ([`game_frame::Protocol::level_line`]).
pub fn protocol(
    command: &str,
    first: Option<(String, Box<dyn BufRead + '_>)>,
    level: Option<game_frame::Level>,
) -> Result<(), CliError> {
    let Some(protocol) = registry::protocol(command) else {
        return Err(CliError::Usage(format!(
            "no registered game serves '{command}'"
        )));
    };
    let stdin = io::stdin();
    let input: Box<dyn BufRead> = match first {
        Some((line, rest)) => Box::new(io::Cursor::new(line.into_bytes()).chain(rest)),
        None => Box::new(stdin.lock()),
    };
    // `--level`: the protocol's own level line goes first, as if the GUI had sent it.
    let input: Box<dyn BufRead> = match level {
        Some(level) => {
            let line = format!("{}\n", (protocol.level_line)(level));
            Box::new(io::Cursor::new(line.into_bytes()).chain(input))
        }
        None => input,
    };
    // Unlocked: the xiangqi servers write from their search thread too.
    (protocol.serve)(input, Box::new(io::stdout()))?;
    Ok(())
}
