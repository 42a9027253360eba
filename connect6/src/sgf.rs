//! LittleGolem-style SGF game records, one node per turn:
//! `(;FF[4]EV[connect6]SZ[19]PB[..]PW[..];B[j10];W[j9l11];B[k9l8])`.
//!
//! Reading takes the main line (the first variation at every branch), the board size from
//! `SZ` (default 19), setup stones from `AB` / `AW` and the side to move after setup from `PL`;
//! every later node holds one turn as `B[..]` or `W[..]` in LittleGolem points. Other
//! properties are skipped.

use game_core::Side;
use thiserror::Error;

use crate::board::{Connect6, DEFAULT_SIZE, MoveError, SetupError, side_name};
use crate::notation::{NotationError, Point, format_littlegolem, parse_littlegolem};

/// Why an SGF record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SgfError {
    /// No `(;` opening the game tree.
    #[error("no game tree: an SGF record starts with `(;`")]
    NoGameTree,
    /// A property value `[..` with no closing `]`.
    #[error("unterminated property value starting at byte {at}")]
    Unterminated {
        /// Byte offset of the `[`.
        at: usize,
    },
    /// Something that is neither a property, a node nor a tree mark.
    #[error(
        "unexpected `{found}` at byte {at}: expected a property like `B[j10]`, `;`, `(` or `)`"
    )]
    Unexpected {
        /// Byte offset.
        at: usize,
        /// The character.
        found: char,
    },
    /// `SZ` that is not a supported size.
    #[error("bad board size `SZ[{value}]`: expected 7..=25")]
    BadSize {
        /// The value.
        value: String,
    },
    /// A setup property with unreadable points.
    #[error("setup property {property}: {error}")]
    SetupPoints {
        /// `AB` or `AW`.
        property: String,
        /// Why.
        error: NotationError,
    },
    /// The setup stones do not make a position.
    #[error("setup: {0}")]
    Setup(#[from] SetupError),
    /// A turn by the side not to move.
    #[error("node {node}: {found} to play, but it is {expected}'s turn")]
    WrongColour {
        /// 1-based node number (the root is node 0).
        node: usize,
        /// Side to move.
        expected: &'static str,
        /// Colour in the record.
        found: &'static str,
    },
    /// An illegal or unreadable turn.
    #[error("node {node}: {error}")]
    Move {
        /// 1-based node number.
        node: usize,
        /// Why.
        error: MoveError,
    },
}

type Node = Vec<(String, Vec<String>)>;

fn parse_nodes(text: &str) -> Result<Vec<Node>, SgfError> {
    let bytes = text.as_bytes();
    let start = text.find('(').ok_or(SgfError::NoGameTree)?;
    let mut i = start + 1;
    let mut nodes: Vec<Node> = Vec::new();
    let mut depth = 1;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b';' => {
                nodes.push(Vec::new());
                i += 1;
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                // End of the first variation of the main line: stop.
                let _ = depth;
                break;
            }
            _ if b.is_ascii_whitespace() => i += 1,
            _ if b.is_ascii_uppercase() => {
                let id_start = i;
                while i < bytes.len() && bytes[i].is_ascii_uppercase() {
                    i += 1;
                }
                let id = text[id_start..i].to_string();
                let mut values = Vec::new();
                loop {
                    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= bytes.len() || bytes[i] != b'[' {
                        break;
                    }
                    let open = i;
                    i += 1;
                    let mut value = String::new();
                    loop {
                        let Some(c) = text[i..].chars().next() else {
                            return Err(SgfError::Unterminated { at: open });
                        };
                        i += c.len_utf8();
                        match c {
                            ']' => break,
                            '\\' => {
                                if let Some(d) = text[i..].chars().next() {
                                    i += d.len_utf8();
                                    value.push(d);
                                }
                            }
                            _ => value.push(c),
                        }
                    }
                    values.push(value);
                }
                match nodes.last_mut() {
                    Some(node) => node.push((id, values)),
                    None => {
                        return Err(SgfError::Unexpected {
                            at: id_start,
                            found: b as char,
                        });
                    }
                }
            }
            _ => {
                let found = text[i..].chars().next().unwrap_or('?');
                return Err(SgfError::Unexpected { at: i, found });
            }
        }
    }
    if nodes.is_empty() {
        return Err(SgfError::NoGameTree);
    }
    Ok(nodes)
}

/// Reads an SGF record into the position after its last turn.
///
/// # Errors
/// [`SgfError`] naming the byte or node where the record is wrong.
pub fn read_sgf(text: &str) -> Result<Connect6, SgfError> {
    let nodes = parse_nodes(text)?;
    let root = &nodes[0];
    let get = |id: &str| root.iter().find(|(k, _)| k == id).map(|(_, v)| v);
    let size = match get("SZ").and_then(|v| v.first()) {
        Some(v) => match v.trim().parse::<usize>() {
            Ok(n) if (crate::MIN_SIZE..=crate::MAX_SIZE).contains(&n) => n,
            _ => return Err(SgfError::BadSize { value: v.clone() }),
        },
        None => DEFAULT_SIZE,
    };
    let setup = |id: &str| -> Result<Vec<Point>, SgfError> {
        let mut out = Vec::new();
        for v in get(id).into_iter().flatten() {
            out.extend(
                parse_littlegolem(v, size).map_err(|error| SgfError::SetupPoints {
                    property: id.to_string(),
                    error,
                })?,
            );
        }
        Ok(out)
    };
    let black = setup("AB")?;
    let white = setup("AW")?;
    let mut pos = if black.is_empty() && white.is_empty() {
        Connect6::new(size)?
    } else {
        let to_move = match get("PL").and_then(|v| v.first()).map(|s| s.trim()) {
            Some("W") | Some("w") => Side::Second,
            Some(_) => Side::First,
            None => Connect6::side_from_counts(black.len(), white.len()).unwrap_or(Side::First),
        };
        Connect6::from_stones(size, &black, &white, to_move)?
    };
    for (n, node) in nodes.iter().enumerate() {
        for (id, values) in node {
            let side = match id.as_str() {
                "B" => Side::First,
                "W" => Side::Second,
                _ => continue,
            };
            let Some(value) = values.first() else {
                continue;
            };
            if side != pos.to_move() {
                return Err(SgfError::WrongColour {
                    node: n,
                    expected: side_name(pos.to_move()),
                    found: side_name(side),
                });
            }
            let points = parse_littlegolem(value, size).map_err(|e| SgfError::Move {
                node: n,
                error: e.into(),
            })?;
            pos.play_turn(&points)
                .map_err(|error| SgfError::Move { node: n, error })?;
        }
    }
    Ok(pos)
}

/// Writes the game of `pos` as SGF, one node per turn (a turn still in progress ends the
/// record short): `(;FF[4]EV[connect6]SZ[19];B[j10];W[j9l11])`, with `PB`/`PW` when names are
/// given and `AB`/`AW`/`PL` when the position started from setup stones. Names are escaped.
#[must_use]
pub fn write_sgf(pos: &Connect6, black: Option<&str>, white: Option<&str>) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace(']', "\\]");
    let mut out = format!("(;FF[4]EV[connect6]SZ[{}]", pos.size());
    if let Some(b) = black {
        out.push_str(&format!("PB[{}]", esc(b)));
    }
    if let Some(w) = white {
        out.push_str(&format!("PW[{}]", esc(w)));
    }
    let (sb, sw) = pos.setup_stones();
    if !sb.is_empty() || !sw.is_empty() {
        for (id, set) in [("AB", sb), ("AW", sw)] {
            if !set.is_empty() {
                out.push_str(id);
                for p in set {
                    out.push_str(&format!("[{p}]"));
                }
            }
        }
        out.push_str(if pos.initial_state().0 == Side::First {
            "PL[B]"
        } else {
            "PL[W]"
        });
    }
    for (side, points) in pos.turns() {
        let c = if side == Side::First { 'B' } else { 'W' };
        out.push_str(&format!(";{c}[{}]", format_littlegolem(&points)));
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text = "(;FF[4]EV[connect6.ch.1]PB[alice]PW[bob];B[j10];W[j9l11];B[k9l8])";
        let pos = read_sgf(text).unwrap();
        assert_eq!(pos.moves_littlegolem(), "j10 j9l11 k9l8");
        let written = write_sgf(&pos, Some("alice"), Some("b]ob"));
        assert_eq!(
            written,
            "(;FF[4]EV[connect6]SZ[19]PB[alice]PW[b\\]ob];B[j10];W[j9l11];B[k9l8])"
        );
        assert_eq!(read_sgf(&written).unwrap(), pos);
    }

    #[test]
    fn setup_round_trip() {
        let pos = Connect6::from_stones(
            13,
            &[Point::new(6, 6), Point::new(7, 7)],
            &[Point::new(5, 5)],
            Side::Second,
        )
        .unwrap();
        let text = write_sgf(&pos, None, None);
        assert_eq!(text, "(;FF[4]EV[connect6]SZ[13]AB[g7][h8]AW[f6]PL[W])");
        assert_eq!(read_sgf(&text).unwrap(), pos);
    }

    #[test]
    fn errors() {
        assert_eq!(read_sgf("B[j10]"), Err(SgfError::NoGameTree));
        assert!(matches!(
            read_sgf("(;SZ[5])"),
            Err(SgfError::BadSize { .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];B[j10"),
            Err(SgfError::Unterminated { .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];W[j10])"),
            Err(SgfError::WrongColour { node: 1, .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];B[j10];W[j10k10])"),
            Err(SgfError::Move { node: 2, .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];B[j10];W[j9])"),
            Err(SgfError::Move { node: 2, .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];B[z10])"),
            Err(SgfError::Move { node: 1, .. })
        ));
        assert!(matches!(
            read_sgf("(;FF[4];B[j10]}"),
            Err(SgfError::Unexpected { .. })
        ));
    }
}
