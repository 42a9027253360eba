//! Game records: PGN-style tags and a move list, written by `save FILE` and read by
//! `qi play --load FILE`.
//!
//! ```text
//! [Game "Gomoku"]
//! [Black "human"]
//! [White "qi"]
//! [Result "*"]
//! [Rule "freestyle"]
//! [Size "15"]
//!
//! 1. h8 i9 2. h9 *
//! ```
//! Xiangqi records carry `[Game "Chinese Chess"]`, `[FEN "..."]` and `[Format "ICCS"]` with
//! the moves as `H2-E2` and the same moves in WXF in a comment, as XiangQi GUIs read them.

use crate::CliError;
use crate::args::{GameKind, PositionArgs, RuleArg};
use crate::game::{EngineConfig, Game};
use crate::games;

/// The tags and move tokens of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `(name, value)` in order.
    pub tags: Vec<(String, String)>,
    /// The move tokens (move numbers, results and comments removed).
    pub moves: Vec<String>,
}

impl Record {
    /// A tag's value (names compare case-insensitively).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Splits a record into tags and move tokens.
///
/// # Errors
/// A malformed tag line (line number and what is expected).
pub fn parse(text: &str) -> Result<Record, String> {
    let mut record = Record::default();
    let mut movetext = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: expected a tag like [Name \"value\"]", n + 1))?;
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("line {}: expected a tag like [Name \"value\"]", n + 1))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: the tag value must be in double quotes", n + 1))?;
            record.tags.push((name.to_string(), value.to_string()));
        } else if !line.starts_with(';') && !line.starts_with('%') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    // Remove {comments} and (variations).
    let mut clean = String::new();
    let mut depth_brace = 0;
    let mut depth_paren = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth_brace += 1,
            '}' if depth_brace > 0 => depth_brace -= 1,
            '(' if depth_brace == 0 => depth_paren += 1,
            ')' if depth_brace == 0 && depth_paren > 0 => depth_paren -= 1,
            _ if depth_brace == 0 && depth_paren == 0 => clean.push(c),
            _ => {}
        }
    }
    for token in clean.split_whitespace() {
        // Strip a move number prefix (`12.`, `12...`, `12.h8`).
        let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = if rest.starts_with('.') && rest.len() < token.len() {
            rest.trim_start_matches('.')
        } else {
            token
        };
        if token.is_empty() || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        record.moves.push(token.to_string());
    }
    Ok(record)
}

/// Rebuilds a game from a record: the start position from its tags, then its moves.
///
/// # Errors
/// [`CliError::Usage`] naming the file and what is wrong: an unknown `[Game]`, a game that
/// differs from `expected`, a bad start position, a move that does not read or is illegal.
pub fn load(
    text: &str,
    file: &str,
    expected: Option<GameKind>,
    config: &EngineConfig,
) -> Result<Box<dyn Game>, CliError> {
    let bad = |msg: String| CliError::Usage(format!("{file}: {msg}"));
    let record = parse(text).map_err(bad)?;
    let game_tag = record.tag("Game").unwrap_or("");
    let kind = match game_tag.to_ascii_lowercase().as_str() {
        "gomoku" => GameKind::Gomoku,
        "renju" => GameKind::Renju,
        "connect6" => GameKind::Connect6,
        "chinese chess" | "xiangqi" => GameKind::Xiangqi,
        _ => {
            return Err(bad(format!(
                "unknown [Game \"{game_tag}\"]: expected Gomoku, Renju, Connect6 or Chinese Chess"
            )));
        }
    };
    if let Some(want) = expected
        && want != kind
        && !(want == GameKind::Gomoku && kind == GameKind::Renju)
    {
        return Err(bad(format!(
            "the record is a {} game, not {}",
            kind.name(),
            want.name()
        )));
    }
    let rule = match record.tag("Rule").map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("freestyle") => Some(RuleArg::Freestyle),
        Some("standard") => Some(RuleArg::Standard),
        Some("renju") => Some(RuleArg::Renju),
        Some(other) => {
            return Err(bad(format!(
                "unknown [Rule \"{other}\"]: expected freestyle, standard or renju"
            )));
        }
    };
    let size = match record.tag("Size") {
        None => None,
        Some(s) => Some(
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(format!("bad [Size \"{s}\"]: expected a number")))?,
        ),
    };
    let args = PositionArgs {
        rule: if kind == GameKind::Gomoku { rule } else { None },
        size,
        fen: record.tag("FEN").map(str::to_string),
        moves: None,
        black: record.tag("SetupBlack").map(str::to_string),
        white: record.tag("SetupWhite").map(str::to_string),
        to_move: record.tag("ToMove").map(str::to_ascii_lowercase),
    };
    let mut game = games::build(kind, &args, config).map_err(|e| {
        // Name the record's tags, not the command-line options they stand for.
        let msg = e.to_string();
        let msg = msg
            .replacen("--fen: ", "[FEN]: ", 1)
            .replacen("--size: ", "[Size]: ", 1)
            .replacen("--black/--white: ", "[SetupBlack]/[SetupWhite]: ", 1)
            .replacen("--black: ", "[SetupBlack]: ", 1)
            .replacen("--white: ", "[SetupWhite]: ", 1);
        bad(msg)
    })?;
    for (i, token) in record.moves.iter().enumerate() {
        game.play_text(token)
            .map_err(|e| bad(format!("move {}: {}", i + 1, games::quoted(token, &e))))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tags_and_moves() {
        let r = parse(
            "[Game \"Gomoku\"]\n[Size \"15\"]\n\n1. h8 i9 2. h9 {a comment 3. x} 2... j10\n3.k11 1-0\n",
        )
        .unwrap();
        assert_eq!(r.tag("game"), Some("Gomoku"));
        assert_eq!(r.tag("Size"), Some("15"));
        assert_eq!(r.moves, ["h8", "i9", "h9", "j10", "k11"]);
    }

    #[test]
    fn bad_tag_line() {
        assert_eq!(
            parse("[Game Gomoku]\n"),
            Err("line 1: the tag value must be in double quotes".to_string())
        );
    }
}
