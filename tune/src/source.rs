//! The tuned weights as Rust source: the game crate's `weights.rs`, which its evaluation reads.

use std::fmt::Write;

use game_core::tune::Weight;

/// The `weights.rs` of game `game` (`gomoku`) for the weight descriptors `weights` with new
/// `values`, its header saying how they were made (`provenance`: one line each, in the
/// module documentation). Names and ranges are kept; `weights.len() == values.len()`.
///
/// # Panics
/// When the lengths differ.
#[must_use]
pub fn rust_source(
    game: &str,
    weights: &[Weight],
    values: &[i32],
    provenance: &[String],
) -> String {
    table_source(
        &format!("{game} evaluation"),
        "crate::tune",
        weights,
        values,
        provenance,
    )
}

/// The `policy_weights.rs` of game `game`: as [`rust_source`], for the move-ordering weights
/// ([`crate::policy`]), indexed by the features of the game crate's `policy` module.
///
/// # Panics
/// When the lengths differ.
#[must_use]
pub fn policy_rust_source(
    game: &str,
    weights: &[Weight],
    values: &[i32],
    provenance: &[String],
) -> String {
    table_source(
        &format!("{game} move ordering"),
        "crate::policy",
        weights,
        values,
        provenance,
    )
}

fn table_source(
    subject: &str,
    features: &str,
    weights: &[Weight],
    values: &[i32],
    provenance: &[String],
) -> String {
    assert_eq!(weights.len(), values.len());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The weights of the {subject}: name, value, and the range a tuner may move it in."
    );
    for line in provenance {
        if line.is_empty() {
            s.push_str("//!\n");
        }
        for wrapped in wrap(line, 96) {
            let _ = writeln!(s, "//! {wrapped}");
        }
    }
    s.push_str("//!\n//! Written by `qi tune`; edit by hand only to change a range or to add a weight.\n\n");
    s.push_str("use game_core::tune::Weight;\n\n");
    let _ = writeln!(
        s,
        "/// The weights of the {subject}, in the order [`{features}`]'s feature indices use."
    );
    // One weight a line as written here, so that a new fit changes one line a weight; the
    // table is read at compile time (consts of the game crate index it), hence a const.
    s.push_str("#[rustfmt::skip]\n#[allow(clippy::large_const_arrays)]\n");
    let _ = writeln!(s, "pub const WEIGHTS: [Weight; {}] = [", weights.len());
    for (w, v) in weights.iter().zip(values) {
        let _ = writeln!(
            s,
            "    Weight::new({:?}, {v}, {}, {}),",
            w.name, w.min, w.max
        );
    }
    s.push_str("];\n");
    s
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stays
/// whole); continuation lines of a list item (`- ...`) are indented by two spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let indent = if text.starts_with("- ") { "  " } else { "" };
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
            current.push_str(indent);
        }
        if !current.is_empty() && current != indent {
            current.push(' ');
        }
        current.push_str(word);
    }
    if !current.is_empty() {
        lines.push(current);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_lists_every_weight_with_its_range() {
        let w = [
            Weight::new("pattern.F3", 60, 0, 800),
            Weight::new("x.y", -3, -9, 9),
        ];
        let text = rust_source(
            "gomoku",
            &w,
            &[75, -4],
            &["Tuned by `qi tune`.".to_string()],
        );
        assert!(text.starts_with("//! The weights of the gomoku evaluation"));
        assert!(text.contains("//! Tuned by `qi tune`.\n"));
        assert!(text.contains("pub const WEIGHTS: [Weight; 2] = [\n"));
        assert!(text.contains("    Weight::new(\"pattern.F3\", 75, 0, 800),\n"));
        assert!(text.contains("    Weight::new(\"x.y\", -4, -9, 9),\n];\n"));
    }

    #[test]
    fn long_provenance_lines_are_wrapped() {
        let long = format!("- `{}`", ["word"; 40].join(" "));
        let lines = wrap(&long, 96);
        assert!(lines.len() > 1);
        assert!(lines.iter().all(|l| l.chars().count() <= 96), "{lines:?}");
        assert!(lines[1].starts_with("  word"), "{lines:?}");
        assert_eq!(lines.join(" ").split_whitespace().count(), 41);
        assert_eq!(wrap("", 96), Vec::<String>::new());
    }
}
