//! The front end's shape: no file of `cli` names a game crate; the list of games is the
//! `games` crate's, so adding a game is its crate, its line in `games/Cargo.toml` and its
//! registry line (docs/adding-a-game.md).

use std::path::Path;

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("cli/src reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The game crates: the path dependencies of the `games` crate that have a `src/frame.rs`
/// (what makes a crate a game for the frame, docs/adding-a-game.md).
fn game_crates() -> Vec<String> {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    let games = cli.parent().expect("cli is in the workspace").join("games");
    let manifest = std::fs::read_to_string(games.join("Cargo.toml")).unwrap();
    manifest
        .lines()
        .filter_map(|line| {
            // `name = { path = "../dir" }`.
            let (name, rest) = line.split_once('=')?;
            let dir = rest.split("path = \"").nth(1)?.split('"').next()?;
            Some((name.trim().to_string(), dir.to_string()))
        })
        .filter(|(_, dir)| games.join(dir).join("src/frame.rs").is_file())
        .map(|(name, _)| name.replace('-', "_"))
        .collect()
}

#[test]
fn no_file_of_cli_names_a_game_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10, "{files:?}");
    let games = game_crates();
    assert!(games.len() >= 4, "{games:?}");
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for g in &games {
            if text.contains(&format!("{g}::")) || text.contains(&format!("use {g}")) {
                offenders.push(format!("{} names {g}", file.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

#[test]
fn cli_depends_on_the_registry_not_on_a_game() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    // The [dependencies] section (dev-dependencies may replay records with a game's rules).
    let deps: Vec<&str> = manifest
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .collect();
    assert!(deps.iter().any(|l| l.starts_with("games")), "{deps:?}");
    for g in game_crates() {
        let crate_name = g.replace('_', "-");
        assert!(
            !deps
                .iter()
                .any(|l| l.split(['.', ' ', '=']).next() == Some(crate_name.as_str())),
            "cli depends on the game crate {crate_name}"
        );
    }
}
