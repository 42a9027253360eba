//! Move notation: ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`, `H8+7`, `R+.3`, tandem pawns) and
//! Chinese (`炮二平五`, `马8进7`), in and out, resolved against the position.
//!
//! WXF and Chinese number files 1..9 from each player's own right (Red's file 1 is ICCS file
//! `i`, Black's file 1 is ICCS file `a`); `+`/进 is forward, `-`/退 backward, `.`/`=`/平
//! sideways; the last figure is a file for sideways moves and for the diagonal movers
//! (advisor, elephant, horse), a step count otherwise. Two pieces of a kind on one file are
//! told apart by `+`/`-` (前/后) instead of the file figure; tandem pawns follow the WXF rules
//! (three on a file: `P+`, `P<file>`, `P-`; four or five: `++`, `P+`, (`P<file>`), `P-`, `--`;
//! tandem pawns on two files: `<file>+`, `<file><file>`, `<file>-`). Chinese uses 前/中/后 and
//! 一..五 for the same cases (`前兵`, `中兵`, `二兵`, `前七`).

use game_core::Side;
use thiserror::Error;

use crate::fen::side_name;
use crate::position::Position;
use crate::position::legality::{Illegal, check_move};
use crate::types::{Move, PieceKind, Square};

/// A move text that cannot be read or is not a legal move here.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not in any move notation.
    #[error("'{text}' is not a move: expected {expected}")]
    Syntax {
        /// The text given.
        text: String,
        /// What was expected.
        expected: &'static str,
    },
    /// The text names a move that breaks a rule.
    #[error("'{text}': illegal: {reason}")]
    Illegal {
        /// The text given.
        text: String,
        /// The rule broken.
        reason: Illegal,
    },
    /// The text names a piece that is not there.
    #[error("'{text}': {what}")]
    NoSuchPiece {
        /// The text given.
        text: String,
        /// What is missing, e.g. "no Red horse on file 8".
        what: String,
    },
    /// The text fits more than one legal move.
    #[error("'{text}' is ambiguous: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The text given.
        text: String,
        /// The legal moves it fits, in ICCS.
        candidates: Vec<String>,
    },
}

const ICCS_EXPECTED: &str =
    "ICCS like h2e2 or H2-E2, WXF like C2.5 or H8+7, or Chinese like 炮二平五";

fn iccs_square(f: u8, r: u8) -> Option<Square> {
    let f = f.to_ascii_lowercase();
    if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
        Square::new(f - b'a', r - b'0')
    } else {
        None
    }
}

/// Reads the squares of an ICCS text (`h2e2`, `H2-E2`, any case), without legality.
pub(crate) fn iccs_squares(text: &str) -> Option<(Square, Square)> {
    let b = text.as_bytes();
    match b.len() {
        4 => Some((iccs_square(b[0], b[1])?, iccs_square(b[2], b[3])?)),
        5 if b[2] == b'-' => Some((iccs_square(b[0], b[1])?, iccs_square(b[3], b[4])?)),
        _ => None,
    }
}

/// File number (1..9 from the mover's right) of board file `file` (0..9 from Red's left).
fn file_number(red: bool, file: u8) -> u8 {
    if red { 9 - file } else { file + 1 }
}

/// Board file of file number `n` (1..9 from the mover's right).
fn board_file(red: bool, n: u8) -> u8 {
    if red { 9 - n } else { n - 1 }
}

/// Pieces of `side`/`kind` on board file `file`, front (nearest the enemy) first.
fn on_file(pos: &Position, side: Side, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut v: Vec<Square> = (0..10u8)
        .filter_map(|r| Square::new(file, r))
        .filter(|&sq| {
            pos.piece_on(sq)
                .is_some_and(|p| p.side == side && p.kind == kind)
        })
        .collect();
    if side == Side::First {
        v.reverse();
    }
    v
}

/// Board files where `side` has two or more pieces of `kind`.
fn tandem_files(pos: &Position, side: Side, kind: PieceKind) -> Vec<u8> {
    (0..9u8)
        .filter(|&f| on_file(pos, side, kind, f).len() >= 2)
        .collect()
}

/// How a WXF/Chinese text designates the moving piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Designator {
    /// A file number (1..9 from the mover's right).
    File(u8),
    /// Front (`+`, 前).
    Front,
    /// Middle (中; WXF writes the file figure).
    Middle,
    /// Rear (`-`, 后).
    Rear,
    /// WXF `++`: the foremost of four or five pawns.
    Foremost,
    /// WXF `--`: the rearmost of four or five pawns.
    Rearmost,
    /// Chinese 一..五: the n-th pawn from the front (1-based).
    Ordinal(u8),
    /// Tandem pawns on two files: the file number and Front/Middle/Rear.
    FileSel(u8, Sel),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sel {
    Front,
    Middle,
    Rear,
}

/// A decoded WXF/Chinese move before resolution.
struct Decoded {
    kind: PieceKind,
    designator: Designator,
    /// `+` forward, `-` backward, `.` sideways.
    op: u8,
    /// The last figure, 1..9.
    n: u8,
    /// Whether `Front`/`Rear` of four or five pawns mean the second from each end (WXF).
    wxf: bool,
}

impl Position {
    /// Parses ICCS (`h2e2`, `H2-E2`, any case) and checks legality.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] for text that is not ICCS; [`MoveError::Illegal`] naming the rule.
    pub fn parse_iccs(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let (from, to) = iccs_squares(t).ok_or_else(|| MoveError::Syntax {
            text: t.to_string(),
            expected: "ICCS like h2e2 or H2-E2",
        })?;
        check_move(self, from, to).map_err(|reason| MoveError::Illegal {
            text: t.to_string(),
            reason,
        })?;
        Ok(Move::new(from, to))
    }

    /// Parses a move in ICCS, WXF or Chinese notation and checks legality.
    ///
    /// # Errors
    /// [`MoveError`]: unreadable text, a missing piece, an ambiguous text, or the rule an
    /// illegal move breaks.
    pub fn parse_any(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(MoveError::Syntax {
                text: String::new(),
                expected: ICCS_EXPECTED,
            });
        }
        if iccs_squares(t).is_some() {
            self.parse_iccs(t)
        } else if t.is_ascii() {
            self.parse_wxf(t).map_err(|e| match e {
                MoveError::Syntax { text, .. } => MoveError::Syntax {
                    text,
                    expected: ICCS_EXPECTED,
                },
                e => e,
            })
        } else {
            self.parse_chinese(t)
        }
    }

    /// Formats `mv` in ICCS proper: uppercase with a dash, e.g. `H2-E2`.
    #[must_use]
    pub fn format_iccs_dashed(mv: Move) -> String {
        let s = mv.to_string().to_ascii_uppercase();
        format!("{}-{}", &s[..2], &s[2..])
    }

    /// The moving piece's designation pieces: (kind, side, index front-to-rear among the
    /// pieces of its kind on its file, that list's length, files of tandem pawns).
    fn designate(&self, mv: Move) -> (PieceKind, Side, usize, usize, usize) {
        let piece = self.piece_on(mv.from()).expect("a piece on the from point");
        let list = on_file(self, piece.side, piece.kind, mv.from().file());
        let idx = list.iter().position(|&s| s == mv.from()).unwrap_or(0);
        let tf = if piece.kind == PieceKind::Pawn {
            tandem_files(self, piece.side, piece.kind).len()
        } else {
            0
        };
        (piece.kind, piece.side, idx, list.len(), tf)
    }

    fn op_and_figure(&self, mv: Move, kind: PieceKind, red: bool) -> (u8, u8) {
        let (from, to) = (mv.from(), mv.to());
        if from.rank() == to.rank() {
            return (b'.', file_number(red, to.file()));
        }
        let forward = (to.rank() > from.rank()) == red;
        let op = if forward { b'+' } else { b'-' };
        let n = if kind.moves_diagonally() {
            file_number(red, to.file())
        } else {
            from.rank().abs_diff(to.rank())
        };
        (op, n)
    }

    /// Formats legal move `mv` in WXF, e.g. `C2.5`, `H8+7`, `R+.3`, `P+.4`, `++.4`, `3-.4`.
    ///
    /// # Panics
    /// If there is no piece on the move's from point.
    #[must_use]
    pub fn format_wxf(&self, mv: Move) -> String {
        let (kind, side, idx, n, tf) = self.designate(mv);
        let red = side == Side::First;
        let letter = kind.wxf_char();
        let file = file_number(red, mv.from().file());
        let digit = char::from(b'0' + file);
        let mut s = String::with_capacity(4);
        if n <= 1 {
            s.push(letter);
            s.push(digit);
        } else if kind != PieceKind::Pawn {
            s.push(letter);
            s.push(if idx == 0 { '+' } else { '-' });
        } else if tf >= 2 {
            s.push(digit);
            s.push(if idx == 0 {
                '+'
            } else if idx == n - 1 {
                '-'
            } else {
                digit
            });
        } else {
            let d = match (n, idx) {
                (2 | 3, 0) => "P+".to_string(),
                (3, 1) | (5, 2) => format!("P{digit}"),
                (4 | 5, 0) => "++".to_string(),
                (4 | 5, 1) => "P+".to_string(),
                (_, i) if i == n - 1 && n >= 4 => "--".to_string(),
                _ => "P-".to_string(),
            };
            s.push_str(&d);
        }
        let (op, fig) = self.op_and_figure(mv, kind, red);
        s.push(char::from(op));
        s.push(char::from(b'0' + fig));
        s
    }

    /// Formats legal move `mv` in Chinese notation, simplified characters: Red `帅仕相马车炮兵`
    /// with numerals 一..九, Black `将士象马车炮卒` with digits 1..9; 进/退/平; 前/中/后 and
    /// 一..五 for tandem pieces. Example: `炮二平五`, `马8进7`, `前车平三`.
    ///
    /// # Panics
    /// If there is no piece on the move's from point.
    #[must_use]
    pub fn format_chinese(&self, mv: Move) -> String {
        const RED: [char; 7] = ['帅', '仕', '相', '马', '车', '炮', '兵'];
        const BLACK: [char; 7] = ['将', '士', '象', '马', '车', '炮', '卒'];
        const NUM: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
        let (kind, side, idx, n, tf) = self.designate(mv);
        let red = side == Side::First;
        let pc = if red {
            RED[kind as usize]
        } else {
            BLACK[kind as usize]
        };
        let num = |d: u8| {
            if red {
                NUM[d as usize]
            } else {
                char::from(b'0' + d)
            }
        };
        let file = file_number(red, mv.from().file());
        let mut s = String::with_capacity(12);
        let sel = |i: usize| {
            if i == 0 {
                '前'
            } else if i == n - 1 {
                '后'
            } else {
                '中'
            }
        };
        if n <= 1 {
            s.push(pc);
            s.push(num(file));
        } else if kind == PieceKind::Pawn && tf >= 2 {
            s.push(sel(idx));
            s.push(num(file));
        } else if n >= 4 {
            s.push(NUM[idx + 1]);
            s.push(pc);
        } else {
            s.push(sel(idx));
            s.push(pc);
        }
        let (op, fig) = self.op_and_figure(mv, kind, red);
        s.push(match op {
            b'+' => '进',
            b'-' => '退',
            _ => '平',
        });
        s.push(num(fig));
        s
    }

    /// Parses WXF (`C2.5`, `C2=5`, `H8+7`, `R+.3`, `P+.4`, `++.4`, `3-.4`; letters either case,
    /// `B`/`N` accepted for `E`/`H`) against this position and checks legality.
    ///
    /// # Errors
    /// [`MoveError`]: syntax, no such piece, ambiguity, or the rule broken.
    pub fn parse_wxf(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax {
            text: t.to_string(),
            expected: "WXF like C2.5, H8+7 or R+.3",
        };
        let c: Vec<u8> = t
            .bytes()
            .map(|b| {
                if b == b'=' {
                    b'.'
                } else {
                    b.to_ascii_uppercase()
                }
            })
            .collect();
        if c.len() != 4 {
            return Err(syntax());
        }
        let digit = |b: u8| {
            if (b'1'..=b'9').contains(&b) {
                Some(b - b'0')
            } else {
                None
            }
        };
        let (kind, designator) = if let Some(kind) = PieceKind::from_letter(char::from(c[0])) {
            let d = match c[1] {
                b'+' => Designator::Front,
                b'-' => Designator::Rear,
                x => Designator::File(digit(x).ok_or_else(syntax)?),
            };
            (kind, d)
        } else if c[0] == b'+' && c[1] == b'+' {
            (PieceKind::Pawn, Designator::Foremost)
        } else if c[0] == b'-' && c[1] == b'-' {
            (PieceKind::Pawn, Designator::Rearmost)
        } else if let Some(f) = digit(c[0]) {
            let sel = match c[1] {
                b'+' => Sel::Front,
                b'-' => Sel::Rear,
                x if x == c[0] => Sel::Middle,
                _ => return Err(syntax()),
            };
            (PieceKind::Pawn, Designator::FileSel(f, sel))
        } else {
            return Err(syntax());
        };
        if !matches!(c[2], b'+' | b'-' | b'.') {
            return Err(syntax());
        }
        let n = digit(c[3]).ok_or_else(syntax)?;
        self.resolve(
            t,
            &Decoded {
                kind,
                designator,
                op: c[2],
                n,
                wxf: true,
            },
        )
    }

    /// Parses Chinese notation (`炮二平五`, `马8进7`, `前车平三`, `车前平三`, `中兵进一`, `二兵平四`,
    /// `前七平六`), traditional or simplified characters, Chinese numerals or digits (ASCII or
    /// full-width) for either side, against this position, and checks legality.
    ///
    /// # Errors
    /// [`MoveError`]: syntax, no such piece, ambiguity, or the rule broken.
    pub fn parse_chinese(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        let syntax = || MoveError::Syntax {
            text: t.to_string(),
            expected: "Chinese notation like 炮二平五 or 马8进7",
        };
        let mut c = Vec::with_capacity(4);
        for ch in t.chars().filter(|ch| !ch.is_whitespace()) {
            c.push(match ch {
                '帥' | '帅' | '將' | '将' => 'K',
                '仕' | '士' => 'A',
                '相' | '象' => 'E',
                '傌' | '馬' | '马' => 'H',
                '俥' | '車' | '车' => 'R',
                '炮' | '砲' | '包' => 'C',
                '兵' | '卒' => 'P',
                '一' | '１' | '1' => '1',
                '二' | '２' | '2' => '2',
                '三' | '３' | '3' => '3',
                '四' | '４' | '4' => '4',
                '五' | '５' | '5' => '5',
                '六' | '６' | '6' => '6',
                '七' | '７' | '7' => '7',
                '八' | '８' | '8' => '8',
                '九' | '９' | '9' => '9',
                '进' | '進' => '+',
                '退' => '-',
                '平' => '.',
                '前' => 'F',
                '中' => 'M',
                '后' | '後' => 'B',
                _ => return Err(syntax()),
            });
        }
        if c.len() != 4 {
            return Err(syntax());
        }
        let digit = |ch: char| ch.to_digit(10).map(|d| d as u8);
        let piece = |ch: char| {
            if "KAEHRCP".contains(ch) {
                PieceKind::from_letter(ch)
            } else {
                None
            }
        };
        let sel = |ch: char| match ch {
            'F' => Some(Sel::Front),
            'M' => Some(Sel::Middle),
            'B' => Some(Sel::Rear),
            _ => None,
        };
        let to_designator = |s: Sel| match s {
            Sel::Front => Designator::Front,
            Sel::Middle => Designator::Middle,
            Sel::Rear => Designator::Rear,
        };
        let (kind, designator) = if let Some(kind) = piece(c[0]) {
            if let Some(d) = digit(c[1]) {
                (kind, Designator::File(d))
            } else if let Some(s) = sel(c[1]) {
                (kind, to_designator(s))
            } else {
                return Err(syntax());
            }
        } else if let Some(s) = sel(c[0]) {
            if let Some(kind) = piece(c[1]) {
                (kind, to_designator(s))
            } else if let Some(f) = digit(c[1]) {
                (PieceKind::Pawn, Designator::FileSel(f, s))
            } else {
                return Err(syntax());
            }
        } else if let (Some(k), Some(PieceKind::Pawn)) = (digit(c[0]), piece(c[1])) {
            (PieceKind::Pawn, Designator::Ordinal(k))
        } else {
            return Err(syntax());
        };
        let op = match c[2] {
            '+' => b'+',
            '-' => b'-',
            '.' => b'.',
            _ => return Err(syntax()),
        };
        let n = digit(c[3]).ok_or_else(syntax)?;
        self.resolve(
            t,
            &Decoded {
                kind,
                designator,
                op,
                n,
                wxf: false,
            },
        )
    }

    /// Finds the move a decoded WXF/Chinese text names.
    fn resolve(&self, text: &str, d: &Decoded) -> Result<Move, MoveError> {
        let side = self.side();
        let red = side == Side::First;
        let who = side_name(side);
        let kind = d.kind;
        let missing = |what: String| MoveError::NoSuchPiece {
            text: text.to_string(),
            what,
        };
        // The file (and its front-to-rear list) of a tandem designator.
        let tandem = |file: Option<u8>| -> Result<Vec<Square>, MoveError> {
            if let Some(f) = file {
                let list = on_file(self, side, kind, board_file(red, f));
                if list.len() < 2 {
                    return Err(missing(format!(
                        "no tandem {who} {}s on file {f}",
                        kind.name()
                    )));
                }
                return Ok(list);
            }
            let files = tandem_files(self, side, kind);
            match files.len() {
                0 => Err(missing(format!(
                    "no two {who} {}s on one file",
                    kind.name()
                ))),
                1 => Ok(on_file(self, side, kind, files[0])),
                _ => Err(MoveError::Ambiguous {
                    text: text.to_string(),
                    candidates: files
                        .iter()
                        .map(|&f| format!("the {}s on file {}", kind.name(), file_number(red, f)))
                        .collect(),
                }),
            }
        };
        let pick = |list: &[Square], i: usize| -> Result<Vec<Square>, MoveError> {
            list.get(i)
                .map(|&s| vec![s])
                .ok_or_else(|| missing(format!("no such {who} {} on that file", kind.name())))
        };
        let candidates: Vec<Square> = match d.designator {
            Designator::File(f) => {
                let list = on_file(self, side, kind, board_file(red, f));
                if list.is_empty() {
                    return Err(missing(format!("no {who} {} on file {f}", kind.name())));
                }
                if kind == PieceKind::Pawn && (list.len() == 3 || list.len() == 5) {
                    vec![list[list.len() / 2]]
                } else {
                    list
                }
            }
            Designator::Front | Designator::Rear | Designator::Middle => {
                let list = tandem(None)?;
                let n = list.len();
                let i = match d.designator {
                    Designator::Front if d.wxf && n >= 4 => 1,
                    Designator::Front => 0,
                    Designator::Rear if d.wxf && n >= 4 => n - 2,
                    Designator::Rear => n - 1,
                    _ if n == 3 => 1,
                    _ => {
                        return Err(missing(format!(
                            "no middle {who} {} (needs three on a file)",
                            kind.name()
                        )));
                    }
                };
                pick(&list, i)?
            }
            Designator::Foremost => pick(&tandem(None)?, 0)?,
            Designator::Rearmost => {
                let list = tandem(None)?;
                pick(&list, list.len() - 1)?
            }
            Designator::Ordinal(k) => pick(&tandem(None)?, usize::from(k.max(1) - 1))?,
            Designator::FileSel(f, s) => {
                let list = tandem(Some(f))?;
                let i = match s {
                    Sel::Front => 0,
                    Sel::Rear => list.len() - 1,
                    Sel::Middle if list.len() == 3 => 1,
                    Sel::Middle => {
                        return Err(missing(format!("no middle {who} pawn on file {f}")));
                    }
                };
                pick(&list, i)?
            }
        };
        let mut legal = Vec::new();
        let mut first_error = None;
        for from in candidates {
            match destination(from, kind, red, d.op, d.n) {
                Ok(to) => match check_move(self, from, to) {
                    Ok(()) => legal.push(Move::new(from, to)),
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                },
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match legal.len() {
            1 => Ok(legal[0]),
            0 => Err(MoveError::Illegal {
                text: text.to_string(),
                reason: first_error.unwrap_or(Illegal::OffBoard),
            }),
            _ => {
                let mut candidates: Vec<String> = legal.iter().map(ToString::to_string).collect();
                candidates.sort();
                Err(MoveError::Ambiguous {
                    text: text.to_string(),
                    candidates,
                })
            }
        }
    }
}

/// The destination of a WXF/Chinese move of a `kind` piece from `from`.
fn destination(from: Square, kind: PieceKind, red: bool, op: u8, n: u8) -> Result<Square, Illegal> {
    let f = i32::from(from.file());
    let r = i32::from(from.rank());
    let target_file = i32::from(board_file(red, n));
    let (tf, tr) = if op == b'.' {
        if kind.moves_diagonally() {
            return Err(match kind {
                PieceKind::Advisor => Illegal::AdvisorStep,
                PieceKind::Elephant => Illegal::ElephantStep,
                _ => Illegal::HorseStep,
            });
        }
        (target_file, r)
    } else {
        let dir = if (op == b'+') == red { 1 } else { -1 };
        if kind.moves_diagonally() {
            let adf = (target_file - f).abs();
            let step = match (kind, adf) {
                (PieceKind::Advisor, 1) => 1,
                (PieceKind::Elephant, 2) => 2,
                (PieceKind::Horse, 1) => 2,
                (PieceKind::Horse, 2) => 1,
                (PieceKind::Advisor, _) => return Err(Illegal::AdvisorStep),
                (PieceKind::Elephant, _) => return Err(Illegal::ElephantStep),
                _ => return Err(Illegal::HorseStep),
            };
            (target_file, r + dir * step)
        } else {
            (f, r + dir * i32::from(n))
        }
    };
    if (0..9).contains(&tf) && (0..10).contains(&tr) {
        Ok(Square::new(tf as u8, tr as u8).expect("checked"))
    } else {
        Err(Illegal::OffBoard)
    }
}
