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
