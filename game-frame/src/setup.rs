//! Where a game starts: the setup options every front end passes to a game ([`Setup`]), and
//! the readers of move lists the games share.

/// The start of a game as a front end gives it: each field is what a person typed (the
/// command line's `--rule`, `--size`, `--fen`, `--moves`, `--black`, `--white`,
/// `--to-move`, or a record's tags). A game refuses the fields that do not fit it, with a
/// message naming the option.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    /// A rule set of the game (gomoku: `freestyle`, `standard`, `renju`).
    pub rule: Option<String>,
    /// Board size N (an N x N board).
    pub size: Option<usize>,
    /// A start position in FEN (xiangqi).
    pub fen: Option<String>,
    /// Moves played from the start, in the game's notation.
    pub moves: Option<String>,
    /// The first side's setup stones (`"g10 h10 i10"`).
    pub black: Option<String>,
    /// The second side's setup stones.
    pub white: Option<String>,
    /// The side to move of a stone setup: `black` or `white`.
    pub to_move: Option<String>,
    /// Plies without a capture that draw the game (xiangqi; 0 turns the rule off).
    pub no_capture_plies: Option<u16>,
}

/// Where a match game starts: a setup and a short text for progress lines and records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start of the game (the opening's moves in [`Setup::moves`]).
    pub setup: Setup,
    /// The opening as people read it (`h8g7f6`, `startpos`, `h2e2 h9g7`).
    pub label: String,
}

impl Opening {
    /// The opening that plays the move list `moves` on top of `base`, labelled by it.
    #[must_use]
    pub fn moves(base: &Setup, moves: &str) -> Opening {
        Opening {
            setup: Setup {
                moves: Some(moves.to_string()),
                ..base.clone()
            },
            label: moves.to_string(),
        }
    }
}

impl Setup {
    /// A setup of `moves` from the start position.
    #[must_use]
    pub fn moves(moves: &str) -> Setup {
        Setup {
            moves: Some(moves.to_string()),
            ..Setup::default()
        }
    }

    /// A setup from a FEN.
    #[must_use]
    pub fn fen(fen: &str) -> Setup {
        Setup {
            fen: Some(fen.to_string()),
            ..Setup::default()
        }
    }
}

/// The side to move of a stone setup ([`Setup::to_move`]): `black` (the first side) or
/// `white` (the second), any case, `b` and `w` too.
///
/// # Errors
/// `--to-move: 'TEXT' is not a side: expected black or white`.
pub fn stone_side(text: &str) -> Result<game_core::Side, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(game_core::Side::First),
        "white" | "w" => Ok(game_core::Side::Second),
        _ => Err(format!(
            "--to-move: {}: expected black or white",
            quoted(text, "not a side")
        )),
    }
}

/// A move number such as `12.` or `12...`.
#[must_use]
pub fn is_move_number(t: &str) -> bool {
    t.ends_with('.') && t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit())
}

/// Splits a move list into its words, one a turn: `j10 j9l11`, `1. h8 2. i9` (move numbers
/// `12.` dropped; spaces, commas and semicolons separate).
#[must_use]
pub fn split_turns(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|token| !token.is_empty() && !is_move_number(token))
        .collect()
}

/// Splits a stone-game move list into single points: `h8g7f6`, `j10 j9l11`, `1. h8 2. i9`.
/// Tokens that are not coordinate runs (a letter, then digits) are kept whole, so the move
/// reader reports them.
#[must_use]
pub fn split_points(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in split_turns(text) {
        let bytes = token.as_bytes();
        let mut pieces = Vec::new();
        let mut i = 0;
        let mut ok = true;
        while i < bytes.len() {
            let start = i;
            if !bytes[i].is_ascii_alphabetic() {
                ok = false;
                break;
            }
            i += 1;
            let digits = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            if i == digits {
                ok = false;
                break;
            }
            pieces.push(token[start..i].to_string());
        }
        if ok {
            out.extend(pieces);
        } else {
            out.push(token.to_string());
        }
    }
    out
}

/// Tokens longer than this are cut short (with `…`) where a message quotes them.
pub const QUOTE_LIMIT: usize = 40;

/// `text`, or its first [`QUOTE_LIMIT`] characters and `…` when it is longer.
#[must_use]
pub fn shortened(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// `'token': error`, without repeating the token when the error already starts with it. A
/// long token is shortened ([`shortened`]) in the quote and in the error.
#[must_use]
pub fn quoted(token: &str, error: &str) -> String {
    let short = shortened(token);
    let error = if short.len() < token.len() {
        error.replace(token, &short)
    } else {
        error.to_string()
    };
    if error.starts_with(&format!("'{short}'")) {
        error
    } else {
        format!("'{short}': {error}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_lists_split_into_points() {
        assert_eq!(split_points("h8g7f6"), ["h8", "g7", "f6"]);
        assert_eq!(
            split_points("1. j10 2. j9l11, k9"),
            ["j10", "j9", "l11", "k9"]
        );
        assert_eq!(split_points("h8 8h"), ["h8", "8h"]);
        assert_eq!(
            split_turns("1. h2e2 h9g7; 2... b0c2"),
            ["h2e2", "h9g7", "b0c2"]
        );
    }

    #[test]
    fn quoting_does_not_repeat_the_token() {
        assert_eq!(quoted("z9", "off the board"), "'z9': off the board");
        assert_eq!(quoted("z9", "'z9' is off"), "'z9' is off");
        let long = "q".repeat(1000);
        let msg = quoted(&long, &format!("'{long}' is not a point"));
        assert_eq!(
            msg,
            format!("'{}…' is not a point", "q".repeat(QUOTE_LIMIT))
        );
    }
}
