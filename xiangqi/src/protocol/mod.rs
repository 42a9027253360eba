//! The engine protocols xiangqi speaks to GUIs: UCCI ([`ucci`]) and UCI ([`uci`]), both
//! driving one driver (the position, the searcher, one search at a time on its own
//! thread), and [`serve`], which answers whichever of the two the GUI speaks first.

pub(crate) mod driver;
pub mod ucci;
pub mod uci;

use std::io::Read as _;

/// Serves whichever engine protocol the GUI speaks: UCI ([`uci::run`]) when the first
/// non-blank line is `uci`, else UCCI ([`ucci::run`]). The first line is handed on to the
/// chosen server, which answers it as usual.
///
/// # Errors
/// Only I/O errors of `input` or `output`.
pub fn serve<R: std::io::BufRead, W: std::io::Write + Send + 'static>(
    mut input: R,
    output: W,
) -> std::io::Result<()> {
    let mut first = Vec::new();
    loop {
        first.clear();
        if input.read_until(b'\n', &mut first)? == 0 {
            return Ok(());
        }
        if !first.iter().all(u8::is_ascii_whitespace) {
            break;
        }
    }
    let is_uci = String::from_utf8_lossy(&first).trim() == "uci";
    let input = std::io::Cursor::new(first).chain(input);
    if is_uci {
        uci::run(input, output)
    } else {
        ucci::run(input, output)
    }
}
