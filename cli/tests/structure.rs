//! The front end's shape: only the registry names the game crates, so adding a game is its
//! crate and one registry line (docs/adding-a-game.md).

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

/// The game crates: the workspace's path crates that `cli` depends on and that have a
/// `src/frame.rs` (what makes a crate a game for the frame, docs/adding-a-game.md).
fn game_crates() -> Vec<String> {
    let cli = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = cli.parent().expect("cli is in the workspace");
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let manifest = std::fs::read_to_string(cli.join("Cargo.toml")).unwrap();
    workspace
        .lines()
        .filter_map(|line| {
            // `name = { path = "dir" }` in [workspace.dependencies].
            let (name, rest) = line.split_once('=')?;
            let dir = rest.split("path = \"").nth(1)?.split('"').next()?;
            Some((name.trim().to_string(), dir.to_string()))
        })
        .filter(|(name, dir)| {
            manifest.contains(&format!("{name}.workspace = true"))
                && root.join(dir).join("src/frame.rs").is_file()
        })
        .map(|(name, _)| name.replace('-', "_"))
        .collect()
}

#[test]
fn only_the_registry_names_a_game_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10, "{files:?}");
    let games = game_crates();
    assert!(games.len() >= 4, "{games:?}");
    let mut offenders = Vec::new();
    for file in &files {
        if file.file_name().is_some_and(|n| n == "registry.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for g in &games {
            if text.contains(&format!("{g}::")) || text.contains(&format!("use {g}")) {
                offenders.push(format!("{} names {g}", file.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
