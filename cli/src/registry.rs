//! The registry: every game `qi` knows, one line each. `qi play`, `moves`, `analyze`,
//! `perft`, `bench`, `selfplay`, `tune`, record loading and the protocol commands read this
//! list and nothing else of the games; adding a game is adding its crate and a line here
//! (docs/adding-a-game.md).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use game_frame::{GameSpec, Protocol};

/// The games, in the order the help lists them.
pub static GAMES: &[&dyn GameSpec] = &[
    &gomoku::frame::GOMOKU,
    &gomoku::frame::RENJU,
    &connect6::frame::CONNECT6,
    &xiangqi::frame::XIANGQI,
    &connect4::frame::CONNECT4,
];

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

/// The game named `name`, if registered.
#[must_use]
pub fn find(name: &str) -> Option<&'static dyn GameSpec> {
    GAMES.iter().copied().find(|g| g.name() == name)
}

/// The game whose records carry `[Game "tag"]` (any case), if registered.
#[must_use]
pub fn find_record(tag: &str) -> Option<&'static dyn GameSpec> {
    let tag = tag.to_ascii_lowercase();
    GAMES
        .iter()
        .copied()
        .find(|g| g.record_names().contains(&tag.as_str()))
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

/// The protocol served by the `qi` command `command` (`gomocup`, `ucci`, `uci`,
/// `connect6-engine`), from the game that serves it.
#[must_use]
pub fn protocol(command: &str) -> Option<Protocol> {
    GAMES
        .iter()
        .flat_map(|g| g.protocols().iter())
        .find(|p| p.command == command)
        .copied()
}

/// The registered names as a list for messages: `gomoku, renju, connect6, xiangqi or
/// connect4`.
#[must_use]
pub fn names() -> String {
    listed("or")
}

/// The registered names joined with "and": `gomoku, renju, connect6, xiangqi and connect4`.
#[must_use]
pub fn names_and() -> String {
    listed("and")
}

fn listed(last_word: &str) -> String {
    let names: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {last_word} {last}", rest.join(", "))
        }
        _ => names.join(""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_protocol_is_found() {
        for (i, g) in GAMES.iter().enumerate() {
            assert!(
                GAMES[..i].iter().all(|h| h.name() != g.name()),
                "{}",
                g.name()
            );
            for p in g.protocols() {
                assert_eq!(protocol(p.command).map(|q| q.command), Some(p.command));
            }
            for tag in g.record_names() {
                assert_eq!(find_record(tag).map(|h| h.name()), Some(g.name()));
            }
        }
        assert_eq!(find("chess").map(|g| g.name()), None);
        // The lists name every registered game once, in order.
        let all: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
        let (last, rest) = all.split_last().expect("a game is registered");
        assert_eq!(names(), format!("{} or {last}", rest.join(", ")));
        assert_eq!(names_and(), format!("{} and {last}", rest.join(", ")));
    }
}
