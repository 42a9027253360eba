//! The modules of every crate stand one above the other: no module imports a module that
//! imports it back (docs/adding-a-game.md, "The crate's layout").
//!
//! A module's imports are read from its source text, comments and the test module left out:
//! the paths after `crate::`, `super::` and `self::`, and `use child::` of a child module,
//! each resolved to the longest prefix that names a module of the crate. A parent's `mod`
//! line is not an import; its `pub use child::Item` is.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, recursively.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder reads") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The crates of the workspace: its folders with a `Cargo.toml` and a `src` folder.
fn crates() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests is in the workspace");
    let mut out: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file() && p.join("src").is_dir())
        .collect();
    out.sort();
    out
}

/// The module path of a source file (`["board", "search"]` for `src/board/search.rs` or
/// `src/board/search/mod.rs`; empty for `lib.rs` and `main.rs`), or `None` for a binary of
/// `src/bin`, which is a crate of its own.
fn module_path(src: &Path, file: &Path) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] || parts == ["main"] {
        parts.pop();
    }
    Some(parts)
}

/// `text` without comment lines and without what follows its first `#[cfg(test)]`.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The path segments (lower-case identifiers) that start at `rest`: `a::b::C` gives
/// `["a", "b"]`.
fn segments(rest: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = rest;
    loop {
        let end = rest
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        out.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    out
}

/// True when `text[at..]` starts a path: the byte before is not part of an identifier, a
/// longer path or a string (`"crate::tune"` in generated source text is not an import).
fn starts_path(text: &str, at: usize) -> bool {
    at == 0
        || !text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':' || c == '"')
}

/// The modules of `modules` that module `me` imports, read from its `code`.
fn imports(me: &[String], code: &str, modules: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let longest = |base: Vec<String>, segs: &[String]| -> Vec<String> {
        (0..=segs.len())
            .rev()
            .map(|k| {
                let mut m = base.clone();
                m.extend_from_slice(&segs[..k]);
                m
            })
            .find(|m| modules.contains(m))
            .unwrap_or(base)
    };
    let mut out = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        if starts_path(code, at) {
            out.insert(longest(Vec::new(), &segments(&code[at + 7..])));
        }
    }
    for (at, _) in code.match_indices("super::") {
        if !starts_path(code, at) {
            continue;
        }
        let mut base = me.to_vec();
        let mut rest = &code[at..];
        while let Some(next) = rest.strip_prefix("super::") {
            base.pop();
            rest = next;
        }
        out.insert(longest(base, &segments(rest)));
    }
    for (at, _) in code.match_indices("self::") {
        if starts_path(code, at) {
            out.insert(longest(me.to_vec(), &segments(&code[at + 6..])));
        }
    }
    for (at, _) in code.match_indices("use ") {
        let segs = segments(&code[at + 4..]);
        if let Some(first) = segs.first() {
            let mut child = me.to_vec();
            child.push(first.clone());
            if modules.contains(&child) {
                out.insert(longest(me.to_vec(), &segs));
            }
        }
    }
    out.remove(me);
    out
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let crates = crates();
    assert!(crates.len() >= 8, "{crates:?}");
    let mut circles = Vec::new();
    for krate in &crates {
        let src = krate.join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let texts: BTreeMap<Vec<String>, String> = files
            .iter()
            .filter_map(|f| {
                Some((
                    module_path(&src, f)?,
                    code(&std::fs::read_to_string(f).ok()?),
                ))
            })
            .collect();
        let modules: BTreeSet<Vec<String>> = texts.keys().cloned().collect();
        let graph: BTreeMap<&Vec<String>, BTreeSet<Vec<String>>> = texts
            .iter()
            .map(|(m, text)| (m, imports(m, text, &modules)))
            .collect();
        for (a, deps) in &graph {
            for b in deps {
                if a.as_slice() < b.as_slice() && graph.get(b).is_some_and(|d| d.contains(*a)) {
                    circles.push(format!(
                        "{}: {} <-> {}",
                        krate.file_name().unwrap().to_string_lossy(),
                        a.join("::"),
                        b.join("::")
                    ));
                }
            }
        }
    }
    assert!(circles.is_empty(), "{circles:#?}");
}

#[test]
fn the_reader_sees_a_known_circle() {
    let modules: BTreeSet<Vec<String>> = [vec![], vec!["a".into()], vec!["a".into(), "b".into()]]
        .into_iter()
        .collect();
    let parent = imports(&["a".into()], "pub use b::Thing;\n", &modules);
    let child = imports(&["a".into(), "b".into()], "use super::{X, Y};\n", &modules);
    assert_eq!(parent, [vec!["a".to_string(), "b".to_string()]].into());
    assert_eq!(child, [vec!["a".to_string()]].into());
    let root = imports(&["a".into()], "let s = crate::Square::all();", &modules);
    assert_eq!(root, [vec![]].into());
    let quoted = imports(&[], "let path = \"crate::a\";", &modules);
    assert!(quoted.is_empty(), "{quoted:?}");
    let commented = code("// use crate::a::b;\nfn f() {}\n#[cfg(test)]\nuse crate::a;\n");
    assert!(imports(&[], &commented, &modules).is_empty());
}
