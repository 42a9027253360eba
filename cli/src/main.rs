//! `qi`: play, analyse and serve gomoku, renju, connect6 and xiangqi from one command.

use clap::{Parser, Subcommand};
use indexmap::IndexMap;

/// The games qi plays, in the order `qi --help` lists them, with a one-line description.
fn games() -> IndexMap<&'static str, &'static str> {
    IndexMap::from([
        (
            "gomoku",
            "five in a row: freestyle, standard or renju rules, boards 5x5 to 26x26",
        ),
        (
            "renju",
            "gomoku on 15x15 under renju rules (Black's forbidden points)",
        ),
        (
            "connect6",
            "six in a row, two stones per turn, 19x19 by default",
        ),
        ("xiangqi", "Chinese chess"),
    ])
}

#[derive(Parser)]
#[command(name = "qi", version, about = "Game engines for gomoku, renju, connect6 and xiangqi", after_help = games_help())]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal.
    Play {
        /// The game: gomoku, renju, connect6 or xiangqi.
        game: String,
    },
}

fn games_help() -> String {
    let mut text = String::from("Games:\n");
    for (name, about) in games() {
        text.push_str(&format!("  {name:<10} {about}\n"));
    }
    text
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Play { game } => {
            if !games().contains_key(game.as_str()) {
                eprintln!(
                    "qi: unknown game '{game}'; expected one of: gomoku, renju, connect6, xiangqi"
                );
                std::process::exit(2);
            }
            eprintln!("qi: playing {game} is not built yet");
            std::process::exit(1);
        }
    }
}
