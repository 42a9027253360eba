//! `qi serve`: every registered game in a browser. One binary: the page (HTML, CSS and an ES
//! module drawing the frame's board data as SVG) is embedded; the server (axum on tokio)
//! validates every move with the game frame, runs the engine on a bounded pool of workers,
//! and pushes each game's state and live search line to its pages as server-sent events.
//!
//! Seats: the creator of a game gets a secret key for each side; only a side's key moves,
//! undoes, resigns, asks for a hint or stops the engine for it. Anyone with a game's link
//! watches it. A game of two people also gets an invitation, which hands the second side's
//! seat (with a new key) to the first who claims it. Limits (open games, idle time, searches
//! at once, engine memory) are options, shown on the page and by `GET /api/limits`.

mod api;
mod room;
mod seats;
mod view;

use std::io::Write;
use std::net::SocketAddr;
use std::time::Duration;

use clap::Args;

use crate::CliError;

pub use api::{Limits, Server, router};

/// `qi serve` options.
#[derive(Args, Debug, Clone)]
pub struct ServeArgs {
    /// Address to listen on (`0.0.0.0` for every network interface: others can then play).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port, printed at the start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// Engine searches run at once, for all games together (default: the machine's cores);
    /// more wait their turn.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub searches: Option<u16>,
    /// The most games open at once; a new game beyond it is refused until one is dropped.
    #[arg(long, value_name = "N", default_value_t = 64,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// A game without a move (or any change) for this long is dropped; its pages are warned
    /// beforehand (`30m`, `1h`, `90s`; at least 1s).
    #[arg(long, value_name = "TIME", default_value = "30m", value_parser = parse_idle)]
    pub idle: Duration,
    /// Memory for the engines' transposition tables, in MiB: each game whose engine has
    /// searched holds 16 MiB until it ends; past this budget a game searches with 1 MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024,
          value_parser = clap::value_parser!(u32).range(0..=1_048_576))]
    pub engine_memory: u32,
}

/// Reads `--idle`: a duration of at least one second.
fn parse_idle(text: &str) -> Result<Duration, String> {
    let d = crate::args::parse_span(text).map_err(|e| e.to_string())?;
    if d < Duration::from_secs(1) {
        return Err(format!(
            "'{text}' is under a second: a game needs time to be played"
        ));
    }
    Ok(d)
}

/// Runs the server until interrupted.
///
/// # Errors
/// [`CliError::Usage`] for an address that does not read; [`CliError::Failed`] when the port
/// cannot be bound (in use, not allowed).
pub fn run(args: &ServeArgs) -> Result<(), CliError> {
    let ip: std::net::IpAddr = args.host.trim().parse().map_err(|_| {
        CliError::Usage(game_frame::quoted(
            &args.host,
            "not an IP address: --host takes 127.0.0.1, 0.0.0.0, ::1 and the like",
        ))
    })?;
    let addr = SocketAddr::new(ip, args.port);
    let searches = args.searches.map_or_else(
        || std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get),
        usize::from,
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Failed(format!("cannot start the server: {e}")))?;
    let result = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| CliError::Failed(format!("cannot listen on {addr}: {e}")))?;
        let bound = listener.local_addr()?;
        let shown = if ip.is_unspecified() {
            SocketAddr::new(std::net::Ipv4Addr::LOCALHOST.into(), bound.port())
        } else {
            bound
        };
        let url = format!("http://{shown}/");
        let mut out = std::io::stdout();
        writeln!(out, "qi serve: play at {url} (Ctrl-C stops the server)")?;
        if ip.is_unspecified() {
            writeln!(
                out,
                "qi serve: listening on every network interface: other machines use this \
                 machine's address with port {}",
                bound.port()
            )?;
        }
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        let server = Server::new(Limits {
            games: args.games as usize,
            idle: args.idle,
            searches,
            engine_memory_mib: args.engine_memory as usize,
        });
        tokio::spawn(server.clone().tend());
        // Ctrl-C ends the server at once: open event streams (every game page keeps one)
        // would hold a graceful shutdown forever, and the games live only in memory anyway.
        tokio::select! {
            served = axum::serve(listener, router(server)) => {
                served.map_err(|e| CliError::Failed(format!("the server stopped: {e}")))
            }
            _ = tokio::signal::ctrl_c() => {
                writeln!(std::io::stdout(), "qi serve: stopped")?;
                Ok(())
            }
        }
    });
    // Searches still running on blocking threads are left to end with the process.
    runtime.shutdown_background();
    result
}

/// Opens `url` in the desktop's browser; says so when it cannot (the URL is printed anyway).
fn open_browser(url: &str) {
    let (program, args): (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(program)
        .args(&args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("qi serve: cannot open a browser ({program}: {e}); open {url} yourself");
    }
}
