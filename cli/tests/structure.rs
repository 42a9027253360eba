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

#[test]
fn only_the_registry_names_a_game_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 10, "{files:?}");
    // The game crates are the path dependencies of cli besides the two shared ones.
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let games = ["gomoku", "connect6", "xiangqi", "connect4"];
    for g in games {
        assert!(manifest.contains(&format!("{g}.workspace = true")), "{g}");
    }
    let mut offenders = Vec::new();
    for file in &files {
        if file.file_name().is_some_and(|n| n == "registry.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for g in games {
            if text.contains(&format!("{g}::")) || text.contains(&format!("use {g}")) {
                offenders.push(format!("{} names {g}", file.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}
