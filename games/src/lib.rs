//! The registry: every game `qi` knows, one line each. The command line (`qi play`, `moves`,
//! `analyze`, `perft`, `bench`, `selfplay`, `tune`, `match`, the protocol commands), the web
//! server and the cross-game tests read this list and nothing else of the games; adding a
//! game is adding its crate, its line in this crate's `Cargo.toml` and its line in [`GAMES`]
//! (docs/adding-a-game.md).

use game_frame::{GameSpec, Protocol};

/// The games, in the order the help lists them.
pub static GAMES: &[&dyn GameSpec] = &[
    &gomoku::frame::GOMOKU,
    &gomoku::frame::RENJU,
    &connect6::frame::CONNECT6,
    &xiangqi::frame::XIANGQI,
    &connect4::frame::CONNECT4,
];

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
