//! Text shown to people and GUIs: control characters escaped.

use std::borrow::Cow;

/// `text` with every control character (C0, DEL and C1, Unicode category Cc) written as a
/// visible escape — `\t`, `\r`, `\n`, `\0`, else `\u{1b}` — so that echoed bad input can
/// neither move the terminal's cursor, change its colours, nor split a protocol line. Text
/// without control characters comes back borrowed, unchanged.
#[must_use]
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn controls_are_escaped_and_the_rest_kept() {
        assert_eq!(escape_controls("h8 炮二平五"), "h8 炮二平五");
        assert_eq!(
            escape_controls("a\u{1b}[2Jb\r\n\t\0\u{7f}\u{9b}"),
            "a\\u{1b}[2Jb\\r\\n\\t\\0\\u{7f}\\u{9b}"
        );
        // Every control character becomes printable text.
        for c in (0u32..0x100)
            .filter_map(char::from_u32)
            .filter(|c| c.is_control())
        {
            let shown = escape_controls(&c.to_string()).into_owned();
            assert!(!shown.chars().any(char::is_control), "{c:?} -> {shown:?}");
        }
    }
}
