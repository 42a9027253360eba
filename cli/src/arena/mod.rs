//! `qi match`: engine-against-engine matches for every registered game, with qi's own rules
//! (the game frame, as `qi play` uses them) as the referee.
//!
//! Two engines ([`engine::EngineSpec`]): qi itself as a child process (`--engine qi --option
//! threads=1 --option hash=64`; the running executable with the protocol subcommand) or any
//! program speaking the game's protocol (`--engine cmd=PATH,proto=ucci|uci|gomocup|connectmore,
//! name=NAME[,arg=A][,option.K=V]`). The referee ([`client`]) talks UCCI or UCI (ranks 0..9)
//! for xiangqi, Gomocup for gomoku (any size, the rule by `INFO rule`) and ConnectMore for
//! connect6, or runs qi in-process for any game (`proto=inprocess`, the default for a game
//! without a protocol such as connect4: [`local`]), enforces the time control (a thread reads
//! each engine's output into a channel; the referee waits with a deadline), and judges every
//! move by the game frame ([`referee`]). Losses by illegal move, time, crash or protocol error are recorded with their
//! reason, and a failed engine is restarted for the next game. Openings come from a file or
//! are random (seeded), each played twice with colours swapped. The end of the match prints
//! W/D/L, the score, the Elo difference with a 95 % interval and, with `--sprt`, the
//! log-likelihood ratio ([`stats`]), stopping early when a bound is crossed.
//!
//! A match is a list of game pairs (an opening each, played with colours swapped) that depend
//! only on the seed: `--pairs A..B` plays a slice of them, `--results FILE` writes one JSON
//! line per pair, and `qi match merge FILES` prints what one match over all those pairs would
//! ([`results`]); so a long match can be shared among processes or machines.

pub mod client;
pub mod engine;
pub mod local;
pub mod referee;
pub mod results;
pub mod stats;
pub mod tally;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::Duration;

use game_core::{Outcome, Side};

use game_frame::{Opening, Setup as GameSetup};

use crate::CliError;
use crate::registry::{self, GameArg};
use client::{Clocks, Reply, TimeControl};
use engine::{EngineSpec, Proto};
use local::Player;
use referee::{RecordInfo, Referee, Variant};
use results::{MatchHeader, MergeArgs, PairLine};
use stats::{Sprt, SprtState};
use tally::{GameReport, MoveTimes, Tally, result_tag, summary};

/// Options of `qi match`.
#[derive(clap::Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
#[command(after_help = "Examples:\n  \
    qi match gomoku --size 15 --engine qi,name=a --engine qi,name=b --option hash=16 --games 20 --movetime 200ms --concurrency 2\n  \
    qi match connect6 --engine qi --engine cmd=./cloudict,proto=connectmore,name=cloudict --tc 60+1\n  \
    qi match xiangqi --engine qi,proto=uci --engine cmd=./pikafish,proto=uci,option.Threads=1 --tc 10+0.1 --sprt elo0=0,elo1=5\n  \
    qi match gomoku --engine qi,name=a --engine qi,name=b --movetime 100ms --seed 7 --pairs 0..50 --results part-0.jsonl")]
pub struct MatchArgs {
    /// `merge`: the summary of result files written by `--results`.
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// The game.
    #[arg(value_parser = registry::game_parser(), required = true)]
    pub game: Option<GameArg>,
    /// An engine; give two. `qi[,name=N][,proto=P][,option.K=V]` (qi itself; `proto=inprocess`
    /// plays in this process, the only way for a game without a protocol) or
    /// `cmd=PATH,proto=ucci|uci|gomocup|connectmore[,name=N][,arg=A]...[,option.K=V]...`.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// An option `K=V` for the engine named just before it. For qi: `threads` and `hash`
    /// (MiB) over UCCI, UCI and Gomocup, `depth` over Gomocup and ConnectMore; for any Gomocup
    /// engine `hash` (MiB) becomes `INFO hash_size` (KiB, the Yixin-Board extension Rapfi
    /// reads); any other option is sent as it is (UCCI `setoption K V`, UCI `setoption name K
    /// value V`, Gomocup `INFO K V`, ConnectMore `K V`).
    #[arg(long = "option", value_name = "K=V")]
    pub options: Vec<String>,
    /// An option `K=V` for both engines.
    #[arg(long = "each", value_name = "K=V")]
    pub each: Vec<String>,
    /// Games to play in all (an opening is played twice, colours swapped): the pairs
    /// `0..games/2` (and the first game of the next pair when odd).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Play only the game pairs `A..B` of the match (pair `k`: games `2k` and `2k+1`, one
    /// opening with colours swapped): the same openings, colours and games as those pairs of
    /// one long match with the same seed or opening file. In place of --games.
    #[arg(long, value_name = "A..B", conflicts_with = "games", value_parser = parse_pairs)]
    pub pairs: Option<PairRange>,
    /// Append one JSON line per game pair to FILE (opening, both games' results, reasons and
    /// times, the pentanomial bucket, faults), the input of `qi match merge`.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Games played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,
    /// Opening file, one a line: xiangqi FEN (optionally `moves ...`) or ICCS moves; gomoku
    /// Gomocup offsets `dx,dy, ...` from the centre or `h8g7f6`; connect6 `j10 j9l11`.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Seed of the random openings used without --openings (default: from the clock).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Time per game and increment in seconds: `10+0.1`, `60`.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    pub tc: Option<String>,
    /// Time per move: `500ms`, `1s` (default 1s when neither --tc nor --movetime is given).
    #[arg(long, value_name = "TIME")]
    pub movetime: Option<String>,
    /// Extra time an engine may take past its clock before it loses on time.
    #[arg(long, value_name = "TIME", default_value = "50ms")]
    pub margin: String,
    /// Adjudicate a draw after this many engine moves (connect6: turns) in a game.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_plies: Option<u64>,
    /// Xiangqi: plies without a capture that make a draw, judged before the engine to move
    /// is asked (default 120, the Chinese rules' 60 moves; 100 matches ElephantEye, which
    /// answers `nobestmove` there; 0 turns the rule off).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u16).range(0..=1000))]
    pub no_capture_plies: Option<u16>,
    /// Sequential probability ratio test: `elo0=0,elo1=5,alpha=0.05,beta=0.05`; the match
    /// stops when a bound is crossed.
    #[arg(long, value_name = "PARAMS")]
    pub sprt: Option<String>,
    /// Append every game's record to FILE (xiangqi PGN with [Game "Chinese Chess"], stone
    /// games the same tags with a move list).
    #[arg(long, value_name = "FILE", visible_alias = "pgn-out")]
    pub records: Option<PathBuf>,
    /// Board size N: gomoku 5..=26 (default 15); connect6 is 19x19 (ConnectMore has no size).
    #[arg(long, value_name = "N")]
    pub size: Option<usize>,
    /// Gomoku rule: freestyle (default), standard or renju.
    #[arg(long, value_name = "RULE")]
    pub rule: Option<String>,
    /// Append every line sent to (`>`) and received from (`<`) the engines to FILE, each
    /// prefixed with the engine's name and worker number (`a#1`).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// The subcommands of `qi match`.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum MatchCommand {
    /// Merge result files of `qi match --results` (slices of one match, from any machine)
    /// and print the match's summary: W/D/L, Elo with its 95 % interval (trinomial and
    /// pentanomial), the SPRT's LLR with --sprt, endings and time per move, the same numbers
    /// `qi match` prints for the same games. A pair found in two files is counted once.
    Merge(MergeArgs),
}

/// A half-open range of game pairs, `A..B` (pairs `A` to `B - 1`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PairRange {
    /// The first pair.
    pub start: usize,
    /// One past the last pair.
    pub end: usize,
}

/// Parses `--pairs A..B` (`A < B`).
///
/// # Errors
/// A message saying what is expected.
fn parse_pairs(text: &str) -> Result<PairRange, String> {
    let bad =
        || format!("bad --pairs '{text}': expected A..B with whole numbers A < B, like 100..120");
    let (a, b) = text.trim().split_once("..").ok_or_else(bad)?;
    let start: usize = a.trim().parse().map_err(|_| bad())?;
    let end: usize = b.trim().parse().map_err(|_| bad())?;
    if start >= end || end > 500_000 {
        return Err(format!(
            "bad --pairs '{text}': the range is empty or too long (A < B <= 500000 expected)"
        ));
    }
    Ok(PairRange { start, end })
}

/// Parses a duration with [`crate::args::parse_span`] (zero allowed); `what` names the
/// option in the error.
fn parse_duration(text: &str, what: &str) -> Result<Duration, CliError> {
    crate::args::parse_span(text).map_err(|e| CliError::Usage(format!("{what}: {e}")))
}

/// Parses `--tc BASE[+INC]` in seconds.
fn parse_tc(text: &str) -> Result<TimeControl, CliError> {
    let (base, inc) = match text.split_once('+') {
        Some((b, i)) => (b, i),
        None => (text, "0"),
    };
    let base = parse_duration(base, "--tc base")?;
    let increment = parse_duration(inc, "--tc increment")?;
    if base.is_zero() {
        return Err(CliError::Usage(format!(
            "bad --tc '{text}': the base time must be above zero (BASE+INC in seconds, like 10+0.1)"
        )));
    }
    Ok(TimeControl::Game { base, increment })
}

/// Which `--option`s follow which `--engine` on the command line: the options are matched
/// to the engines by their order in the process arguments (clap keeps each list apart).
fn attach_options(args: &MatchArgs) -> Vec<Vec<String>> {
    let mut per: Vec<Vec<String>> = vec![Vec::new(); args.engines.len()];
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut engine: Option<usize> = None;
    let mut seen_engines = 0;
    let mut found = Vec::new();
    let mut i = 0;
    while i < argv.len() {
        let a = &argv[i];
        if a == "--engine" || a.starts_with("--engine=") {
            engine = Some(seen_engines);
            seen_engines += 1;
        } else if a == "--option" {
            if let Some(v) = argv.get(i + 1) {
                found.push((engine, v.clone()));
                i += 1;
            }
        } else if let Some(v) = a.strip_prefix("--option=") {
            found.push((engine, v.to_string()));
        } else if a == "--" {
            break;
        }
        i += 1;
    }
    let consistent = seen_engines == args.engines.len()
        && found.len() == args.options.len()
        && found.iter().zip(&args.options).all(|((_, v), o)| v == o);
    if consistent {
        for (e, v) in found {
            // An option before any --engine applies to both.
            match e {
                Some(e) => per[e].push(v),
                None => per.iter_mut().for_each(|p| p.push(v.clone())),
            }
        }
    } else {
        for p in &mut per {
            p.extend(args.options.iter().cloned());
        }
    }
    per
}

/// The match set-up, shared by the workers.
struct Setup {
    spec: &'static dyn game_frame::GameSpec,
    base: GameSetup,
    specs: [EngineSpec; 2],
    protos: [Proto; 2],
    tc: TimeControl,
    margin: Duration,
    max_plies: Option<usize>,
    openings: Option<Vec<Opening>>,
    seed: u64,
    /// The match's first game number (`2A` under `--pairs A..B`, else 0).
    first_game: usize,
    /// Games to play from `first_game`.
    games: usize,
    tc_text: String,
    /// What the result lines say the match is.
    header: MatchHeader,
    log: Option<engine::Log>,
}

impl Setup {
    /// The game and the base setup.
    fn variant(&self) -> Variant<'_> {
        Variant {
            spec: self.spec,
            base: &self.base,
        }
    }

    /// The opening of game `index` (games 2k and 2k+1 share one).
    fn opening(&self, index: usize) -> Opening {
        let pair = index / 2;
        match &self.openings {
            Some(list) => list[pair % list.len()].clone(),
            None => referee::random_opening(
                &self.variant(),
                self.seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ),
        }
    }
}

enum Message {
    Done(Box<GameReport>),
    Fatal(String),
}

/// Runs `qi match`.
///
/// # Errors
/// [`CliError::Usage`] for bad options, engine specs, opening files or a program that cannot
/// be started; [`CliError::Failed`] when the record file cannot be written.
pub fn run(args: &MatchArgs) -> Result<(), CliError> {
    if let Some(MatchCommand::Merge(merge)) = &args.command {
        return results::merge(merge);
    }
    let Some(GameArg(spec)) = args.game else {
        return Err(CliError::Usage(
            "qi match needs a game (or `qi match merge FILES`)".to_string(),
        ));
    };
    engine::install_signal_handler();
    // The game and its base setup, checked by building it.
    let base = GameSetup {
        size: args.size,
        rule: args.rule.clone(),
        no_capture_plies: args.no_capture_plies,
        ..GameSetup::default()
    };
    let start = spec
        .build(&base, &game_frame::EngineConfig::small())
        .map_err(|e| CliError::Usage(format!("{}: {e}", spec.name())))?;
    let variant = Variant { spec, base: &base };
    let (specs, protos) = engines(args, &variant, start.board().files)?;
    let (tc, tc_text) = time_control(args)?;
    let margin = parse_duration(&args.margin, "--margin")?;
    let sprt = Sprt::parse_option(args.sprt.as_deref()).map_err(CliError::Usage)?;
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| {
                CliError::Usage(format!("cannot read opening file {}: {e}", path.display()))
            })?;
            Some(
                referee::read_openings(&text, &path.display().to_string(), &variant)
                    .map_err(CliError::Usage)?,
            )
        }
        None => None,
    };
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut records = args
        .records
        .as_deref()
        .map(|path| append_to(path, "record"))
        .transpose()?;
    let mut results_file = args
        .results
        .as_deref()
        .map(|path| append_to(path, "results"))
        .transpose()?;
    let log = args
        .log
        .as_deref()
        .map(|path| append_to(path, "log"))
        .transpose()?
        .map(|file| std::sync::Arc::new(Mutex::new(file)));
    let header = MatchHeader {
        game: spec.name().to_string(),
        rule: base.rule.clone(),
        size: base.size,
        engines: [specs[0].name.clone(), specs[1].name.clone()],
        settings: [0, 1].map(|e| engine_settings(&specs[e], protos[e])),
        time_control: tc_text.clone(),
        openings: match (&openings, &args.openings) {
            (Some(list), Some(path)) => {
                format!("file {} ({} openings)", path.display(), list.len())
            }
            _ => format!("seed {seed}"),
        },
    };
    if let Some(path) = &args.results {
        results::check_appendable(path, &header)?;
    }
    let setup = Setup {
        spec,
        base: base.clone(),
        specs,
        protos,
        tc,
        margin,
        max_plies: args
            .max_plies
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
        header,
        openings,
        seed,
        first_game: args.pairs.map_or(0, |p| 2 * p.start),
        games: args
            .pairs
            .map_or(args.games as usize, |p| 2 * (p.end - p.start)),
        tc_text,
        log,
    };
    let names = [setup.specs[0].name.clone(), setup.specs[1].name.clone()];
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "qi match {}: {} ({}) vs {} ({}), {}, {}, {}",
        variant.title(),
        names[0],
        setup.protos[0].name(),
        names[1],
        setup.protos[1].name(),
        match args.pairs {
            Some(p) => format!("pairs {}..{} ({} games)", p.start, p.end, setup.games),
            None => format!("{} games", setup.games),
        },
        setup.tc_text,
        match (&setup.openings, &args.openings) {
            (Some(list), Some(path)) => format!("{} openings from {}", list.len(), path.display()),
            _ => format!("random openings, seed {seed}"),
        }
    )?;
    out.flush()?;
    let (tally, sprt_end) = play_match(
        &setup,
        args.concurrency as usize,
        sprt.as_ref(),
        &names,
        &mut records,
        &mut results_file,
        &mut out,
    )?;
    summary(&mut out, &names, &tally, sprt.as_ref(), sprt_end)
}

/// An engine's settings as a result file records them: protocol, program arguments and
/// options, without the program's path (which differs between machines).
fn engine_settings(spec: &EngineSpec, proto: Proto) -> String {
    let mut parts = vec![format!("proto={}", proto.name())];
    parts.extend(spec.args.iter().map(|a| format!("arg={a}")));
    parts.extend(spec.options.iter().map(|(k, v)| format!("option.{k}={v}")));
    parts.join(" ")
}

/// The two engines of `--engine` with their options (`--each`, then the `--option`s given
/// after each), and the protocol each speaks; `files` is the board's width (ConnectMore
/// plays 19x19 only). Two engines with one name are told apart as `NAME-1` and `NAME-2`.
///
/// # Errors
/// [`CliError::Usage`] for a count other than two, a bad spec or option, a protocol the game
/// does not speak, or a program path that does not exist.
fn engines(
    args: &MatchArgs,
    variant: &Variant<'_>,
    files: usize,
) -> Result<([EngineSpec; 2], [Proto; 2]), CliError> {
    let usage = CliError::Usage;
    if args.engines.len() != 2 {
        return Err(usage(format!(
            "a match needs exactly two --engine options, got {}",
            args.engines.len()
        )));
    }
    let per_engine = attach_options(args);
    let mut specs = Vec::new();
    let mut protos = Vec::new();
    for (i, text) in args.engines.iter().enumerate() {
        let mut spec = EngineSpec::parse(text).map_err(usage)?;
        for o in args.each.iter().chain(&per_engine[i]) {
            spec.add_option(o).map_err(usage)?;
        }
        let mut allowed: Vec<Proto> = variant
            .spec
            .referee_protocols()
            .iter()
            .filter_map(|p| Proto::parse(p).ok())
            .collect();
        if spec.is_qi() {
            allowed.push(Proto::InProcess);
        } else if allowed.is_empty() {
            return Err(usage(format!(
                "--engine '{text}': {} has no engine protocol, so no external engine can play \
                 it: only qi, in-process (--engine qi)",
                variant.spec.name(),
            )));
        }
        let names =
            |list: &[Proto], sep: &str| list.iter().map(|p| p.name()).collect::<Vec<_>>().join(sep);
        let proto = match spec.proto {
            Some(p) => p,
            None if spec.is_qi() => allowed[0],
            None => {
                return Err(usage(format!(
                    "--engine '{text}': give proto={} for an external engine",
                    names(&allowed, "|")
                )));
            }
        };
        if proto == Proto::InProcess {
            local::Local::new(variant.spec, &spec)
                .map_err(|e| usage(format!("--engine '{text}': {e}")))?;
        }
        if proto == Proto::ConnectMore && files != 19 {
            return Err(usage(format!(
                "--engine '{text}': the ConnectMore protocol plays 19x19 only"
            )));
        }
        if !allowed.contains(&proto) {
            return Err(usage(format!(
                "--engine '{text}': {} is not a {} protocol (expected {})",
                proto.name(),
                variant.title(),
                names(&allowed, " or ")
            )));
        }
        if let Some(cmd) = &spec.cmd
            && cmd.components().count() > 1
            && !cmd.exists()
        {
            return Err(usage(format!(
                "--engine '{text}': no program at {}",
                cmd.display()
            )));
        }
        specs.push(spec);
        protos.push(proto);
    }
    if specs[0].name == specs[1].name {
        specs[0].name.push_str("-1");
        specs[1].name.push_str("-2");
    }
    let [a, b]: [EngineSpec; 2] = specs.try_into().expect("two engines");
    Ok(([a, b], [protos[0], protos[1]]))
}

/// The time control of `--tc` or `--movetime` (1 s a move without either) and its text for
/// the match's first line.
///
/// # Errors
/// [`CliError::Usage`] for a bad duration or a zero `--movetime`.
fn time_control(args: &MatchArgs) -> Result<(TimeControl, String), CliError> {
    Ok(match (&args.tc, &args.movetime) {
        (Some(tc), _) => (parse_tc(tc)?, tc.clone()),
        (None, Some(mt)) => {
            let t = parse_duration(mt, "--movetime")?;
            if t.is_zero() {
                return Err(CliError::Usage("--movetime must be above zero".to_string()));
            }
            (TimeControl::MoveTime(t), format!("{mt}/move"))
        }
        (None, None) => (
            TimeControl::MoveTime(Duration::from_secs(1)),
            "1s/move".to_string(),
        ),
    })
}

/// Opens `path` for appending (created if missing); `what` names the file in the error.
///
/// # Errors
/// [`CliError::Failed`] when the file cannot be opened.
fn append_to(path: &std::path::Path, what: &str) -> Result<std::fs::File, CliError> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| CliError::Failed(format!("cannot open {what} file {}: {e}", path.display())))
}

/// Plays the match on `concurrency` workers, printing a line per finished game to `out`, its
/// record to `records` and each finished pair to `results` (a game whose partner was not
/// counted alone, at the end); with `sprt`, stops once a bound is crossed (games finished
/// after that are not counted). Returns the totals and the SPRT's early verdict, if any.
///
/// # Errors
/// [`CliError::Usage`] when an engine cannot be started; [`CliError::Failed`] when the
/// record file cannot be written; output errors.
fn play_match(
    setup: &Setup,
    concurrency: usize,
    sprt: Option<&Sprt>,
    names: &[String; 2],
    records: &mut Option<std::fs::File>,
    results: &mut Option<std::fs::File>,
    out: &mut impl Write,
) -> Result<(Tally, Option<SprtState>), CliError> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Message>();
    let workers = concurrency.min(setup.games);
    let mut tally = Tally::default();
    let mut fatal: Option<String> = None;
    let mut sprt_end: Option<SprtState> = None;
    let spawn_lock = Mutex::new(());
    let side_names = setup.spec.side_names();
    std::thread::scope(|scope| -> Result<(), CliError> {
        for w in 0..workers {
            let tx = tx.clone();
            let (next, stop, spawn_lock) = (&next, &stop, &spawn_lock);
            scope.spawn(move || worker(w + 1, setup, next, stop, spawn_lock, &tx));
        }
        drop(tx);
        for msg in rx {
            let report = match msg {
                Message::Fatal(m) => {
                    stop.store(true, Ordering::SeqCst);
                    fatal.get_or_insert(m);
                    continue;
                }
                // Finished after the match was stopped (SPRT or a fatal error): not counted.
                Message::Done(_) if stop.load(Ordering::SeqCst) => continue,
                Message::Done(report) => report,
            };
            let pair = tally.add(&report);
            if let (Some(file), Some(pair)) = (results.as_mut(), pair) {
                let opening = setup.opening(pair[0].index).label;
                PairLine::of(&setup.header, &opening, &[&pair[0], &pair[1]]).write(file)?;
            }
            let (a, b) = if report.first == 0 {
                (&names[0], &names[1])
            } else {
                (&names[1], &names[0])
            };
            let why = match report.outcome {
                Outcome::Win(s) => format!("{} wins: {}", side_names[s.index()], report.reason),
                Outcome::Draw if report.reason.starts_with("draw") => report.reason.clone(),
                Outcome::Draw => format!("draw: {}", report.reason),
            };
            let wdl = &tally.wdl;
            // One line per game: the result, why, and the running score.
            writeln!(
                out,
                "Finished game {} ({a} vs {b}): {} {{{why}}} [{} moves]; score {} - {} - {} \
                 [{:.3}] after {}",
                report.index + 1,
                result_tag(report.outcome),
                report.plies,
                wdl.wins,
                wdl.losses,
                wdl.draws,
                wdl.score().unwrap_or(0.5),
                tally.finished,
            )?;
            out.flush()?;
            if let Some(f) = records {
                f.write_all(report.record.as_bytes())
                    .map_err(|e| CliError::Failed(format!("cannot write the record file: {e}")))?;
            }
            if let Some(s) = sprt {
                let state = s.state(s.llr(&tally.wdl));
                if state != SprtState::Continue && sprt_end.is_none() {
                    sprt_end = Some(state);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        Ok(())
    })?;
    if let Some(file) = results.as_mut() {
        for lone in tally.unpaired.values() {
            let opening = setup.opening(lone.index).label;
            PairLine::of(&setup.header, &opening, &[lone]).write(file)?;
        }
    }
    match fatal {
        Some(m) => Err(CliError::Usage(m)),
        None => Ok((tally, sprt_end)),
    }
}

/// One worker: its own two engines, games taken from the shared counter until the match
/// is over or stopped.
fn worker(
    id: usize,
    setup: &Setup,
    next: &AtomicUsize,
    stop: &AtomicBool,
    spawn_lock: &Mutex<()>,
    tx: &Sender<Message>,
) {
    let mut clients: [Option<Player>; 2] = [None, None];
    loop {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let index = setup.first_game + next.fetch_add(1, Ordering::SeqCst);
        if index >= setup.first_game + setup.games {
            break;
        }
        match play_game(id, setup, index, &mut clients, spawn_lock, stop) {
            Ok(None) => break,
            Ok(Some(report)) => {
                if tx.send(Message::Done(Box::new(report))).is_err() {
                    break;
                }
            }
            Err(fatal) => {
                let _ = tx.send(Message::Fatal(fatal));
                break;
            }
        }
    }
    for c in clients.iter_mut() {
        if let Some(c) = c.take() {
            c.quit();
        }
    }
}

/// Plays game `index`; `Ok(None)` when the match was stopped during the game (the game is
/// abandoned and not counted), `Err` only when an engine program cannot be started at all.
fn play_game(
    worker: usize,
    setup: &Setup,
    index: usize,
    clients: &mut [Option<Player>; 2],
    spawn_lock: &Mutex<()>,
    stop: &AtomicBool,
) -> Result<Option<GameReport>, String> {
    let first = index % 2; // engine playing the first side
    let opening = setup.opening(index);
    let variant = setup.variant();
    let mut game = Referee::start(&variant, &opening)
        .map_err(|e| format!("opening {}: {e}", opening.label))?;
    // Engine of a side: side First is `first`.
    let engine_of = |side: Side| {
        if side == Side::First {
            first
        } else {
            1 - first
        }
    };
    let finish =
        |game: &Referee, outcome: Outcome, reason: String, times: [MoveTimes; 2], fault: bool| {
            let names = [
                setup.specs[engine_of(Side::First)].name.clone(),
                setup.specs[engine_of(Side::Second)].name.clone(),
            ];
            let info = RecordInfo {
                round: index + 1,
                names,
                outcome,
                reason: reason.clone(),
                opening: opening.label.clone(),
                time_control: setup.tc_text.clone(),
            };
            GameReport {
                index,
                first,
                outcome,
                reason,
                record: game.record(&info),
                plies: game.plies,
                times,
                fault,
            }
        };
    let no_times = [MoveTimes::default(); 2];
    // Start the engines (or restart those that failed) and begin the game.
    for e in [engine_of(Side::First), engine_of(Side::Second)] {
        if clients[e].is_none() {
            let started = {
                let _guard = spawn_lock.lock().unwrap_or_else(|p| p.into_inner());
                let log = setup
                    .log
                    .as_ref()
                    .map(|l| (l.clone(), format!("{}#{worker}", setup.specs[e].name)));
                Player::start(&setup.specs[e], setup.protos[e], &variant, log)
            };
            match started {
                Ok(c) => clients[e] = Some(c),
                Err(Ok(fatal)) => return Err(fatal),
                Err(Err(fault)) => {
                    let side = if engine_of(Side::First) == e {
                        Side::First
                    } else {
                        Side::Second
                    };
                    return Ok(Some(finish(
                        &game,
                        Outcome::Win(side.opponent()),
                        fault.reason(),
                        no_times,
                        true,
                    )));
                }
            }
        }
        let c = clients[e].as_mut().expect("started");
        if let Err(fault) = c.new_game(&game, &setup.tc) {
            if let Some(c) = clients[e].take() {
                c.kill();
            }
            let side = if engine_of(Side::First) == e {
                Side::First
            } else {
                Side::Second
            };
            return Ok(Some(finish(
                &game,
                Outcome::Win(side.opponent()),
                fault.reason(),
                no_times,
                true,
            )));
        }
    }
    let mut time_left = [setup.tc.start(), setup.tc.start()];
    let mut times = no_times;
    loop {
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        if let Some((outcome, why)) = game.end() {
            return Ok(Some(finish(&game, outcome, why, times, false)));
        }
        if setup.max_plies.is_some_and(|m| game.plies >= m) {
            let why = format!("draw by the move limit ({} engine moves)", game.plies);
            return Ok(Some(finish(&game, Outcome::Draw, why, times, false)));
        }
        let side = game.side_to_move();
        let e = engine_of(side);
        let clocks = Clocks {
            tc: setup.tc,
            mine: time_left[side.index()],
            theirs: time_left[side.opponent().index()],
        };
        let client = clients[e].as_mut().expect("started");
        // Every loss here is the engine's fault: an illegal move, no move, time, a crash.
        let lose = |game: &Referee, why: String, times: [MoveTimes; 2]| {
            finish(game, Outcome::Win(side.opponent()), why, times, true)
        };
        match client.go(&game, &opening, &clocks, setup.margin) {
            Ok((Reply::Move(text), spent)) => {
                times[e].add(spent);
                if let TimeControl::Game { increment, .. } = setup.tc {
                    let t = &mut time_left[side.index()];
                    *t = t.saturating_sub(spent) + increment;
                }
                if let Err(why) = game.play_engine_move(&text) {
                    let why = if why.contains(text.trim()) {
                        format!("illegal move: {why}")
                    } else {
                        format!("illegal move '{text}': {why}")
                    };
                    return Ok(Some(lose(&game, why, times)));
                }
            }
            Ok((Reply::NoMove(line), _)) => {
                return Ok(Some(lose(
                    &game,
                    format!("no move ('{line}') while legal moves remain"),
                    times,
                )));
            }
            Err(fault) => {
                if let Some(c) = clients[e].take() {
                    c.kill();
                }
                // The failed engine is restarted for the next game.
                return Ok(Some(lose(&game, fault.reason(), times)));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(
            parse_duration("500ms", "x").unwrap(),
            Duration::from_millis(500)
        );
        assert_eq!(
            parse_duration("1.5", "x").unwrap(),
            Duration::from_millis(1500)
        );
        assert_eq!(parse_duration("2m", "x").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("fast", "x").is_err());
        assert!(parse_duration("-1s", "x").is_err());
        assert_eq!(
            parse_tc("10+0.1").unwrap(),
            TimeControl::Game {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100)
            }
        );
        assert_eq!(
            parse_tc("60").unwrap(),
            TimeControl::Game {
                base: Duration::from_secs(60),
                increment: Duration::ZERO
            }
        );
        assert!(parse_tc("0+1").is_err());
        assert!(parse_tc("x+1").is_err());
    }
}
