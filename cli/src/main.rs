//! `qi`: play, analyse and serve every registered game ([`registry`]) from one command.
//!
//! Exit codes: 0 success, 1 a failed run (a file that cannot be written, an I/O error), 2 a
//! usage error (unknown game or option, a bad FEN, a bad move in `--moves`, a bad time). Every
//! error is one line on stderr: what was wrong, where, and what is accepted.
#![deny(missing_docs)]

mod arena;
mod args;
mod commands;
mod play;
mod record;
mod registry;
mod serve;
#[cfg(test)]
mod testgame;
mod tune_data;

use std::ffi::OsString;
use std::io::{self, BufRead, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use game_core::text::escape_controls;

use game_frame::{FrameError, TimeControl};

use crate::args::{EngineArgs, PositionArgs};
use crate::registry::GameArg;

/// What went wrong, and which exit code it gets.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Bad input on the command line or in a file it names: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// A run that failed (I/O): exit code 1.
    #[error("{0}")]
    Failed(String),
    /// The reader of our output went away (`qi moves ... | head -1`): a quiet exit 0.
    #[error("broken pipe")]
    BrokenPipe,
}

impl From<FrameError> for CliError {
    fn from(e: FrameError) -> Self {
        match e {
            FrameError::Usage(m) => CliError::Usage(m),
            FrameError::Failed(m) => CliError::Failed(m),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Failed(format!("I/O error: {e}"))
        }
    }
}

/// Restores the default SIGPIPE disposition, so that writing to a closed pipe ends `qi`
/// quietly as it ends `cat` or `ls` (the Rust runtime ignores SIGPIPE, which turns every
/// `println!` into a panic and every `write!` into an error once the reader has gone).
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: called first thing in `main`, before any other thread exists; `signal` with
    // SIG_DFL installs no handler code, it only resets the disposition to the default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn default_sigpipe() {}

/// The command line; its `about` and game list come from the registry ([`cli_command`]).
#[derive(Parser)]
#[command(name = "qi", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal against the engine (or engine vs engine, human vs human).
    ///
    /// You take the side to move (the first side from the start) and the engine the other,
    /// unless --first/--second (any game), --black/--white (stone games) or --red/--black
    /// (xiangqi) say human or engine.
    /// Type 'help' at the prompt for the commands. On a renju board × (x with --ascii) marks
    /// Black's forbidden points (double three, double four, overline): playing one loses.
    Play {
        /// The game (optional with --load).
        #[arg(value_parser = registry::game_parser())]
        game: Option<GameArg>,
        #[command(flatten)]
        position: PositionArgs,
        /// Xiangqi: who plays Red, human or engine.
        #[arg(long, value_name = "PLAYER")]
        red: Option<String>,
        /// Who plays the first side (any game), human or engine.
        #[arg(long, value_name = "PLAYER")]
        first: Option<String>,
        /// Who plays the second side (any game), human or engine.
        #[arg(long, value_name = "PLAYER")]
        second: Option<String>,
        /// Continue a game saved with `save FILE`; of a file holding several games (`qi match
        /// --records`), the first. Position options given with it must agree with the record.
        #[arg(long, value_name = "FILE")]
        load: Option<PathBuf>,
        /// ASCII board: X O stones, FEN letters for xiangqi pieces.
        #[arg(long)]
        ascii: bool,
        /// Show the engine's live search lines (depth, score, nodes, principal variation) on
        /// stderr also when it is not a terminal (on a terminal they always show, in place).
        #[arg(long)]
        info: bool,
        /// Xiangqi: the side drawn at the bottom of the board, red or black (default: the
        /// human's side; Red when both or neither are human).
        #[arg(long, value_name = "SIDE", value_parser = ["red", "black"])]
        view: Option<String>,
        /// Play on a game clock: base time per side + increment per turn, like 5m+3s, 10+0.1
        /// (seconds) or 15m. The engine plays to its own clock (unless --time gives it a time
        /// per move); a side whose clock runs out loses.
        #[arg(long, value_name = "BASE+INC", value_parser = parse_clock, allow_hyphen_values = true)]
        clock: Option<TimeControl>,
        /// Gomoku and renju: the opening rule, swap2 (gomoku) or taraguchi-10 or rif (renju);
        /// the engine takes whichever role it is given. Renju without one starts with
        /// Black's stone on the centre point.
        #[arg(long, value_name = "RULE")]
        opening: Option<String>,
        #[command(flatten)]
        engine: EngineArgs,
    },
    /// List every legal move of the side to move, one per line, sorted.
    Moves {
        /// The game.
        #[arg(value_parser = registry::game_parser())]
        game: GameArg,
        #[command(flatten)]
        position: PositionArgs,
    },
    /// Search a position and print the best move, score, depth, nodes and principal variation.
    Analyze {
        /// The game.
        #[arg(value_parser = registry::game_parser())]
        game: GameArg,
        #[command(flatten)]
        position: PositionArgs,
        #[command(flatten)]
        engine: EngineArgs,
        /// Print one JSON object: bestmove, score_cp, mate, depth, nodes, time_ms, pv (and
        /// with --multipv, multipv: every line's score and pv).
        #[arg(long)]
        json: bool,
        /// Principal variations to show, best first (1..=16; connect6 shows one).
        #[arg(long, value_name = "K", default_value_t = 1, allow_hyphen_values = true, value_parser = clap::value_parser!(u32).range(1..=16))]
        multipv: u32,
    },
    /// Count the leaf nodes of the legal move tree to a depth (move generator check).
    Perft {
        /// The game.
        #[arg(value_parser = registry::game_parser())]
        game: GameArg,
        #[command(flatten)]
        position: PositionArgs,
        /// Depth in plies (a connect6 stone is one ply).
        #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=12))]
        depth: u32,
        /// Print the count below each root move too.
        #[arg(long)]
        divide: bool,
    },
    /// Search a fixed list of positions to a fixed depth; prints `<nodes> nodes <nps> nps`.
    Bench {
        /// One game (default: every game).
        #[arg(value_parser = registry::game_parser())]
        game: Option<GameArg>,
        /// Override the fixed depth (1..=100).
        #[arg(long, value_name = "D",
              value_parser = clap::value_parser!(u32).range(1..=i64::from(game_frame::MAX_DEPTH_LIMIT)))]
        depth: Option<u32>,
    },
    /// Serve the Gomocup (Piskvork) protocol for gomoku on stdin/stdout.
    Gomocup(ProtocolArgs),
    /// Serve the UCCI protocol for xiangqi on stdin/stdout.
    Ucci(ProtocolArgs),
    /// Serve the UCI protocol (as xiangqi GUIs speak it) on stdin/stdout.
    Uci(ProtocolArgs),
    /// Serve the ConnectMore protocol for connect6 on stdin/stdout.
    #[command(name = "connect6-engine")]
    Connect6Engine(ProtocolArgs),
    /// Serve a web page to play every game in a browser, against the engine or another person
    /// (default http://127.0.0.1:8080/).
    Serve(serve::ServeArgs),
    /// Play an engine-against-engine match (qi or external engines) with qi as the referee.
    Match(arena::MatchArgs),
    /// Play qi against itself from random openings and write the quiet positions with the
    /// game results, the data `qi tune` learns from (docs/tuning.md).
    ///
    /// One line per position: `1-0`, `0-1` or `1/2-1/2` (the first side's result), a tab, the
    /// position (gomoku `rule size moves`, connect6 `size moves`, xiangqi a FEN), in game
    /// order. Runs with different seeds are independent shards; runs of one seed with
    /// consecutive `--first-game` ranges concatenate to one run's positions, line for line.
    Selfplay(SelfplayArgs),
    /// Fit the evaluation weights of a game to `qi selfplay` data or game records (Texel
    /// tuning) and write them as the game crate's Rust source (docs/tuning.md).
    Tune(TuneArgs),
}

/// Options of the engine protocol commands.
#[derive(clap::Args, Clone, Debug)]
struct ProtocolArgs {
    /// Play at strength level 1..8 (8, the default, is the full engine), for GUIs that cannot
    /// set it (the Gomocup and ConnectMore standards have no strength option; qi also reads
    /// its own `INFO level N` and `level N`, and over UCI and UCCI `UCI_LimitStrength` with
    /// `UCI_Elo`).
    #[arg(long, value_name = "LEVEL", allow_hyphen_values = true)]
    level: Option<game_frame::Level>,
}

/// Options of `qi selfplay`.
#[derive(clap::Args)]
struct SelfplayArgs {
    /// The game (gomoku rules with --rule; renju is gomoku under renju rules).
    #[arg(value_parser = registry::game_parser())]
    game: GameArg,
    #[command(flatten)]
    position: PositionArgs,
    /// Number of games.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Search depth per move (plies; turns for connect6's engine). Default 4 when neither
    /// --depth nor --nodes is given.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Node limit per move.
    #[arg(long, value_name = "N", value_parser = args::parse_nodes)]
    nodes: Option<u64>,
    /// Games played at once (one search thread each).
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=game_core::search::MAX_THREADS as i64))]
    threads: u16,
    /// Transposition table per game, MiB (1..=16384).
    #[arg(long, value_name = "MIB", default_value_t = 16, value_parser = clap::value_parser!(u32).range(game_core::search::MIN_HASH_MIB as i64..=game_core::search::MAX_HASH_MIB as i64))]
    hash: u32,
    /// Seed of the random openings (use a different one for every shard, or one seed with
    /// different --first-game ranges).
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Number of the first game: the run plays games K..K+N of the seed (N = --games), the
    /// same games a run from 0 plays there, so consecutive ranges are shards of one run.
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=1_000_000_000))]
    first_game: u64,
    /// Random plies before the engine plays (default: gomoku 4, connect6 3 stones, xiangqi 8).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=100))]
    random_plies: Option<u32>,
    /// Start positions, one per line in the output's position format, used in turn (the
    /// random plies are played from each).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Score a game still running after this many plies as a draw.
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_plies: u32,
    /// Output file (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

/// Options of `qi tune`.
#[derive(clap::Args)]
struct TuneArgs {
    /// The game whose weights are fitted (renju data is gomoku data).
    #[arg(value_parser = registry::game_parser())]
    game: GameArg,
    /// Data files written by `qi selfplay`, or game records (`qi match --records`, `save`):
    /// every position of each game that ended by the rules, labelled with its result.
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    data: Vec<PathBuf>,
    /// Adam epochs (passes over the data).
    #[arg(long, value_name = "N", default_value_t = 400, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    epochs: u32,
    /// Adam step size, in weight units per epoch.
    #[arg(long, value_name = "X", default_value_t = 1.0, value_parser = parse_rate, allow_hyphen_values = true)]
    lr: f64,
    /// Threads (default: every core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Where to write the weights source, e.g. gomoku/src/weights.rs (default: stdout).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Fit the move-ordering weights to the moves played (e.g. gomoku/src/policy_weights.rs)
    /// instead of the evaluation to the results.
    #[arg(long)]
    policy: bool,
    /// Held-out data (files like --data, from other games: another seed): not fitted, only
    /// scored, so the errors printed for it say how well each set of weights predicts games
    /// the fit never saw (the evaluation fit only).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "policy")]
    validate: Vec<PathBuf>,
}

/// A positive finite learning rate.
fn parse_rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!(
            "bad rate '{text}': expected a positive number such as 0.5"
        )),
    }
}

/// The command line as typed, for data and weights provenance.
fn command_line() -> String {
    let mut words: Vec<String> = std::env::args().skip(1).collect();
    words.insert(0, "qi".to_string());
    words.join(" ")
}

fn main() -> ExitCode {
    default_sigpipe();
    let argv: Vec<OsString> = std::env::args_os().collect();
    let program = argv
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let result = if program.starts_with("pbrain-") {
        commands::protocol("gomocup", None, None)
    } else if argv.len() <= 1 {
        no_command()
    } else {
        match cli_command()
            .try_get_matches_from(argv)
            .and_then(|m| Cli::from_arg_matches(&m))
        {
            Ok(cli) => run(cli.command),
            Err(e) => return clap_error(&e),
        }
    };
    match result {
        Ok(()) | Err(CliError::BrokenPipe) => ExitCode::SUCCESS,
        Err(CliError::Usage(msg)) => {
            eprintln!("qi: {}", escape_lines(&msg));
            ExitCode::from(2)
        }
        Err(CliError::Failed(msg)) => {
            eprintln!("qi: {}", escape_lines(&msg));
            ExitCode::from(1)
        }
    }
}

/// `text` with the control characters of each line escaped and its line breaks kept (a message
/// may end with the usage text, several lines long).
fn escape_lines(text: &str) -> String {
    text.split('\n')
        .map(|line| escape_controls(line).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The command-line definition with what the registry says of the games: `about` names
/// them all, the help ends with a line per game (its summary), and `--size` and `--moves`
/// list each game's sizes and an example of its notation.
fn cli_command() -> clap::Command {
    let games: String = registry::GAMES
        .iter()
        .map(|g| format!("\n  {:<10} {}", g.name(), g.summary()))
        .collect();
    let command = Cli::command()
        .about(format!("Game engines for {}", registry::names_and()))
        .after_help(format!(
            "Games:{games}\n\nWith no command, qi reads the first line of stdin and serves the \
             protocol it names (uci, ucci); named pbrain-*, it speaks Gomocup."
        ));
    let with_arg = |id: &str| -> Vec<String> {
        command
            .get_subcommands()
            .filter(|c| c.get_arguments().any(|a| a.get_id() == id))
            .map(|c| c.get_name().to_string())
            .collect()
    };
    let (sized, with_moves) = (with_arg("size"), with_arg("moves"));
    let (size_help, moves_help) = (registry::size_help(), registry::moves_help());
    let command = sized.into_iter().fold(command, |cmd, name| {
        cmd.mut_subcommand(name, |c| c.mut_arg("size", |a| a.help(size_help.clone())))
    });
    with_moves.into_iter().fold(command, |cmd, name| {
        cmd.mut_subcommand(name, |c| c.mut_arg("moves", |a| a.help(moves_help.clone())))
    })
}

/// Every subcommand's name, from the command-line definition: `play, moves, ... or serve`.
fn subcommand_names() -> String {
    let names: Vec<String> = Cli::command()
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name().to_string())
        .collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// The no-command error: what was expected, then the usage (`with_help`) or a pointer to it.
fn no_command_error(why: &str, with_help: bool) -> CliError {
    let help = if with_help {
        format!("\n\n{}", cli_command().render_help())
    } else {
        " (see qi --help)".to_string()
    };
    CliError::Usage(format!(
        "no command given{why}: expected a command ({}), or on stdin a protocol's first \
         line (uci, ucci, or a Gomocup command such as START, INFO or ABOUT){help}",
        subcommand_names(),
    ))
}

/// No arguments: the first line of stdin names the protocol.
fn no_command() -> Result<(), CliError> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return Err(no_command_error("", true));
    }
    let mut lock = stdin.lock();
    // Skip blank lines (managers send CR LF, some a leading empty line); read bytes so that a
    // first line in a Windows code page is not an I/O error.
    let mut first = String::new();
    let mut bytes = Vec::new();
    while first.trim().is_empty() {
        bytes.clear();
        if lock.read_until(b'\n', &mut bytes)? == 0 {
            return Err(no_command_error(" and nothing on stdin", true));
        }
        first = String::from_utf8_lossy(&bytes).into_owned();
    }
    let word = first
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let protocol = match word.as_str() {
        "uci" => "uci",
        "ucci" => "ucci",
        "start" | "info" | "about" | "restart" | "board" | "begin" | "turn" | "rectstart" => {
            "gomocup"
        }
        _ => {
            return Err(no_command_error(
                &format!(" and stdin starts with '{}'", first.trim()),
                false,
            ));
        }
    };
    commands::protocol(
        protocol,
        Some((first, Box::new(lock) as Box<dyn BufRead>)),
        None,
    )
}

/// Reads `--clock BASE+INC` ([`TimeControl`]'s form).
fn parse_clock(text: &str) -> Result<TimeControl, String> {
    text.parse()
        .map_err(|e: game_frame::TimeControlError| e.to_string())
}

/// Prints a clap error as one line (help and version as clap prints them).
fn clap_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        _ => {}
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let line = parts.join(" ");
    let line = line.strip_prefix("error: ").unwrap_or(&line);
    eprintln!("qi: {} (see qi --help)", escape_controls(line));
    ExitCode::from(2)
}

fn run(command: Command) -> Result<(), CliError> {
    match command {
        Command::Play {
            game,
            position,
            red,
            first,
            second,
            load,
            ascii,
            info,
            view,
            clock,
            opening,
            engine,
        } => commands::play(
            game,
            &position,
            &commands::PlayerArgs { first, second, red },
            load.as_deref(),
            commands::View {
                ascii,
                info,
                flipped: view.map(|v| v == "black"),
            },
            &engine,
            &commands::Terms { clock, opening },
        ),
        Command::Moves { game, position } => commands::moves(game, &position),
        Command::Analyze {
            game,
            position,
            engine,
            json,
            multipv,
        } => commands::analyze(game, &position, &engine, json, multipv),
        Command::Perft {
            game,
            position,
            depth,
            divide,
        } => commands::perft(game, &position, depth, divide),
        Command::Bench { game, depth } => commands::bench(game, depth),
        Command::Gomocup(a) => commands::protocol("gomocup", None, a.level),
        Command::Ucci(a) => commands::protocol("ucci", None, a.level),
        Command::Uci(a) => commands::protocol("uci", None, a.level),
        Command::Connect6Engine(a) => commands::protocol("connect6-engine", None, a.level),
        Command::Match(args) => arena::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Selfplay(args) => selfplay(&args),
        Command::Tune(args) => tune_command(&args),
    }
}

fn selfplay(a: &SelfplayArgs) -> Result<(), CliError> {
    let budget = game_frame::Budget {
        depth: if a.depth.is_none() && a.nodes.is_none() {
            Some(4)
        } else {
            a.depth
        },
        time: None,
        nodes: a.nodes,
        ..Default::default()
    };
    let openings = match &a.openings {
        None => None,
        Some(path) => {
            let p = &a.position;
            let given = [
                ("--rule", p.rule.is_some()),
                ("--size", p.size.is_some()),
                ("--fen", p.fen.is_some()),
                ("--moves", p.moves.is_some()),
                ("--black", p.black.is_some()),
                ("--white", p.white.is_some()),
                ("--to-move", p.to_move.is_some()),
            ];
            if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
                return Err(CliError::Usage(format!(
                    "{flag} cannot be given with --openings: each line of {} is a whole start position (rule and size included); leave {flag} out, or --openings",
                    path.display()
                )));
            }
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::Usage(format!("--openings: cannot read {}: {e}", path.display()))
            })?;
            Some(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(str::to_string)
                    .collect(),
            )
        }
    };
    let default_plies = a.game.0.random_plies();
    let settings = game_frame::selfplay::Settings {
        games: a.games as usize,
        first_game: a.first_game as usize,
        budget,
        threads: usize::from(a.threads),
        hash_mib: a.hash as usize,
        seed: a.seed,
        random_plies: a.random_plies.map_or(default_plies, |n| n as usize),
        openings,
        max_plies: a.max_plies as usize,
        command: command_line(),
    };
    let mut out: Box<dyn io::Write + Send> = match &a.out {
        // Data is slow to make: an existing file is never overwritten.
        Some(path) => Box::new(io::BufWriter::new(
            std::fs::File::create_new(path).map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    CliError::Usage(format!(
                        "--out {} already exists: selfplay does not overwrite data; give a new file name or remove the old file",
                        path.display()
                    ))
                } else {
                    CliError::Failed(format!("cannot create {}: {e}", path.display()))
                }
            })?,
        )),
        None => Box::new(io::stdout()),
    };
    let summary = a
        .game
        .0
        .selfplay(&a.position.setup(), &settings, &mut *out)?;
    out.flush()?;
    eprintln!(
        "{} games (+{} ={} -{}), {} positions",
        summary.games,
        summary.results[0],
        summary.results[1],
        summary.results[2],
        summary.positions
    );
    Ok(())
}

fn tune_command(a: &TuneArgs) -> Result<(), CliError> {
    let threads = a.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let data = a
        .data
        .iter()
        .map(|path| tune_data::read(path, a.game.0))
        .collect::<Result<Vec<_>, _>>()?;
    let validate = a
        .validate
        .iter()
        .map(|path| tune_data::read(path, a.game.0))
        .collect::<Result<Vec<_>, _>>()?;
    let settings = game_frame::tuning::Settings {
        data,
        validate,
        epochs: a.epochs as usize,
        learning_rate: a.lr,
        threads,
        out: a.out.clone(),
        command: command_line(),
    };
    if a.policy {
        Ok(a.game.0.tune_policy(&settings)?)
    } else {
        Ok(a.game.0.tune(&settings)?)
    }
}
