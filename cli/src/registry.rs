//! The command line's side of the registry ([`games`]): the game-name and rule parsers. The
//! list of games, the lookups by name, record tag and protocol are the `games` crate's;
//! nothing else in `cli` names a game (docs/adding-a-game.md).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use game_frame::GameSpec;

pub use games::{GAMES, find, find_record, names, names_and, protocol};

/// A game named on the command line.
#[derive(Copy, Clone)]
pub struct GameArg(pub &'static dyn GameSpec);

impl std::fmt::Debug for GameArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name())
    }
}

impl GameArg {
    /// The game's command-line name.
    #[must_use]
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

/// The command-line parser of a game name: the registered names, each with its summary in
/// the help.
pub fn game_parser() -> impl TypedValueParser<Value = GameArg> {
    PossibleValuesParser::new(
        GAMES
            .iter()
            .map(|g| PossibleValue::new(g.name()).help(g.summary())),
    )
    .map(|name| GameArg(find(&name).expect("a registered name")))
}

/// Every rule set a registered game names (`--rule`), with its line for the help.
pub fn rule_parser() -> PossibleValuesParser {
    let mut seen: Vec<&str> = Vec::new();
    let mut values = Vec::new();
    for (name, help) in GAMES.iter().flat_map(|g| g.rules().iter()) {
        if !seen.contains(name) {
            seen.push(name);
            values.push(PossibleValue::new(*name).help(*help));
        }
    }
    PossibleValuesParser::new(values)
}

/// The help of `--size`: each game with more than one board size, its sizes and default
/// (`Board size N (an N x N board): gomoku 5..=26 (default 15), ...`).
#[must_use]
pub fn size_help() -> String {
    let sizes: Vec<String> = GAMES
        .iter()
        .filter_map(|g| {
            let (range, default) = g.sizes()?;
            Some(format!(
                "{} {}..={} (default {default})",
                g.name(),
                range.start(),
                range.end()
            ))
        })
        .collect();
    format!("Board size N (an N x N board): {}", sizes.join(", "))
}

/// The help of `--moves`: an example in each game's notation, a game family once
/// (`Moves played from the start, in the game's notation: gomoku `h8g7f6`, ...`).
#[must_use]
pub fn moves_help() -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut examples = Vec::new();
    for g in GAMES {
        if !seen.contains(&g.family()) {
            seen.push(g.family());
            examples.push(format!("{} `{}`", g.name(), g.moves_example()));
        }
    }
    format!(
        "Moves played from the start, in the game's notation: {}",
        examples.join(", ")
    )
}
