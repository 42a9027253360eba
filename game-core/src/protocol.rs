//! Line handling shared by every engine protocol server (Gomocup, UCCI, UCI, ConnectMore).
//!
//! GUIs and tournament managers send whatever bytes their platform produces: CR LF line ends
//! (Piskvork), paths in a Windows code page (`INFO folder C:\Users\Jörg`), stray blank lines.
//! A protocol loop must survive all of it, so lines are read as bytes; bytes that are not
//! UTF-8 become visible `\xNN` escapes, so an error line can name them.

use std::io::{self, BufRead};

/// Reads `input` line by line (each byte that is not part of valid UTF-8 written `\xNN`,
/// `\r` and surrounding blanks trimmed) and hands each non-empty line to `handle` until it returns `Ok(false)` or the
/// input ends.
///
/// # Errors
/// I/O errors of `input` and whatever `handle` returns.
///
/// ```
/// let mut seen = Vec::new();
/// game_core::protocol::read_lines(&b"START 15\r\n\r\nINFO folder J\xf6rg\r\nEND\r\n"[..], |line| {
///     seen.push(line.to_string());
///     Ok(line != "END")
/// })
/// .unwrap();
/// assert_eq!(seen, ["START 15", "INFO folder J\\xf6rg", "END"]);
/// ```
pub fn read_lines<R: BufRead>(
    mut input: R,
    mut handle: impl FnMut(&str) -> io::Result<bool>,
) -> io::Result<()> {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(());
        }
        let mut text = String::with_capacity(buf.len());
        for chunk in buf.utf8_chunks() {
            text.push_str(chunk.valid());
            for b in chunk.invalid() {
                text.push_str(&format!("\\x{b:02x}"));
            }
        }
        let line = text.trim();
        if line.is_empty() {
            continue;
        }
        if !handle(line)? {
            return Ok(());
        }
    }
}
