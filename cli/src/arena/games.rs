//! The referee's view of the three games: the variant of a match, openings (from a file or
//! random), the game in progress judged by qi's own rules, and the game record.

use std::fmt::Write as _;

use game_core::zobrist::SplitMix64;
use game_core::{Outcome, Side};

use connect6::Connect6;
use connect6::notation::{Point as C6Point, format_connectmore, parse_connectmore};

/// The game of a match (`qi match GAME`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchGame {
    /// Gomoku (Gomocup protocol), freestyle by default (`--rule`), 15x15 by default (`--size`).
    Gomoku,
    /// Gomoku on 15x15 under renju rules (Gomocup protocol, `INFO rule 4`).
    Renju,
    /// Connect6 on 19x19 (ConnectMore protocol).
    Connect6,
    /// Xiangqi (UCCI by default, or UCI with ranks 0..9).
    Xiangqi,
}

/// The game, board size and rule of a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The game.
    pub game: MatchGame,
    /// Board side (gomoku 5..=26, connect6 19, xiangqi 9 — unused).
    pub size: usize,
    /// Gomoku rule.
    pub rule: gomoku::Rule,
    /// Xiangqi: plies without a capture that draw the game (Chinese rules: 120, 60 moves;
    /// ElephantEye claims at 100); 0 turns the rule off.
    pub no_capture_plies: u16,
}

impl Variant {
    /// The side names: Red/Black for xiangqi, Black/White for the stone games.
    #[must_use]
    pub fn side_name(&self, side: Side) -> &'static str {
        match (self.game, side) {
            (MatchGame::Xiangqi, Side::First) => "Red",
            (MatchGame::Xiangqi, Side::Second) => "Black",
            (_, Side::First) => "Black",
            (_, Side::Second) => "White",
        }
    }

    /// The game's name in records.
    #[must_use]
    pub fn title(&self) -> &'static str {
        match self.game {
            MatchGame::Xiangqi => "Chinese Chess",
            MatchGame::Connect6 => "Connect6",
            MatchGame::Renju => "Renju",
            MatchGame::Gomoku => match self.rule {
                gomoku::Rule::Renju => "Renju",
                _ => "Gomoku",
            },
        }
    }
}

/// Where a pair of games starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    /// Xiangqi: a FEN and ICCS moves from it.
    Xiangqi {
        /// The start position.
        fen: String,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// Gomoku: stones in move order, Black first, as Gomocup `(x, y)` (0-based, top-left).
    Gomoku(Vec<(usize, usize)>),
    /// Connect6: a LittleGolem move list (`j10 j9l11`).
    Connect6(String),
}

impl Opening {
    /// A short text for progress lines and records.
    #[must_use]
    pub fn label(&self, variant: &Variant) -> String {
        match self {
            Opening::Xiangqi { fen, moves } => {
                if fen == xiangqi::START_FEN {
                    if moves.is_empty() {
                        "startpos".to_string()
                    } else {
                        moves.join(" ")
                    }
                } else if moves.is_empty() {
                    fen.clone()
                } else {
                    format!("{fen} moves {}", moves.join(" "))
                }
            }
            Opening::Gomoku(stones) => {
                let b = gomoku::Board::new(variant.size, variant.rule).expect("size checked");
                stones
                    .iter()
                    .map(|&(x, y)| b.format_point(gomoku::Point::new(x, y)))
                    .collect()
            }
            Opening::Connect6(m) => m.clone(),
        }
    }
}

/// Reads an opening file: one opening a line, `#` comments and empty lines skipped. Xiangqi:
/// a FEN (optionally followed by `moves ...`) or ICCS moves from the start; gomoku: Gomocup
/// offsets from the centre `dx,dy, dx,dy, ...` (y down, centre = floor(N/2)) or a position
/// string `h8g7f6`; connect6: a LittleGolem move list `j10 j9l11`. Every opening is checked
/// by replaying it.
///
/// # Errors
/// A message naming the line number, the text and what is wrong.
pub fn read_openings(text: &str, file: &str, variant: &Variant) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_opening(line, variant)
            .map_err(|e| format!("{file}:{}: bad opening '{line}': {e}", i + 1))?;
        Game::start(variant, &opening)
            .map_err(|e| format!("{file}:{}: bad opening '{line}': {e}", i + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{file}: no openings in the file"));
    }
    Ok(out)
}

fn parse_opening(line: &str, variant: &Variant) -> Result<Opening, String> {
    match variant.game {
        MatchGame::Xiangqi => {
            let (fen, moves) = if line.contains('/') {
                match line.split_once(" moves ") {
                    Some((f, m)) => (f.trim().to_string(), m),
                    None => (line.to_string(), ""),
                }
            } else {
                let m = line.strip_prefix("startpos").unwrap_or(line);
                let m = m.trim().strip_prefix("moves").unwrap_or(m);
                (xiangqi::START_FEN.to_string(), m)
            };
            Ok(Opening::Xiangqi {
                fen,
                moves: moves.split_whitespace().map(str::to_string).collect(),
            })
        }
        MatchGame::Gomoku | MatchGame::Renju => {
            if line.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
                let numbers: Result<Vec<i64>, _> = line
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::parse::<i64>)
                    .collect();
                let numbers =
                    numbers.map_err(|_| "expected offsets like 0,0, 1,-1, -1,1".to_string())?;
                if numbers.len() % 2 != 0 {
                    return Err("an odd number of offsets: expected dx,dy pairs".to_string());
                }
                let c = (variant.size / 2) as i64;
                let n = variant.size as i64;
                let mut stones = Vec::new();
                for pair in numbers.chunks(2) {
                    let (x, y) = (c + pair[0], c + pair[1]);
                    if x < 0 || y < 0 || x >= n || y >= n {
                        return Err(format!(
                            "offset {},{} is off the {n}x{n} board",
                            pair[0], pair[1]
                        ));
                    }
                    stones.push((x as usize, y as usize));
                }
                Ok(Opening::Gomoku(stones))
            } else {
                let b =
                    gomoku::Board::new(variant.size, variant.rule).map_err(|e| e.to_string())?;
                let points = b.parse_points(line).map_err(|e| e.to_string())?;
                Ok(Opening::Gomoku(
                    points.iter().map(|p| (p.x(), p.y())).collect(),
                ))
            }
        }
        MatchGame::Connect6 => Ok(Opening::Connect6(line.to_string())),
    }
}

/// A seeded random short opening: xiangqi 4 random quiet plies from the start; gomoku 3
/// stones (Black, White, Black) within 2 points of the centre; connect6 Black's first stone
/// within 1 point of the centre and White's two stones within 2. Never a finished game.
#[must_use]
pub fn random_opening(variant: &Variant, seed: u64) -> Opening {
    let mut rng = SplitMix64::new(seed);
    let mut next = |n: usize| -> usize {
        let (v, r) = rng.next();
        rng = r;
        (v % n as u64) as usize
    };
    match variant.game {
        MatchGame::Xiangqi => loop {
            let mut pos = xiangqi::Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..4 {
                let quiet: Vec<xiangqi::Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| pos.piece_on(m.to()).is_none())
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                let mv = quiet[next(quiet.len())];
                pos.play(mv);
                moves.push(mv.to_string());
            }
            if moves.len() == 4 && pos.game_end().is_none() {
                return Opening::Xiangqi {
                    fen: xiangqi::START_FEN.to_string(),
                    moves,
                };
            }
        },
        MatchGame::Gomoku | MatchGame::Renju => loop {
            let c = variant.size / 2;
            let r = 2.min(c);
            let mut b = gomoku::Board::new(variant.size, variant.rule).expect("size checked");
            let mut stones = Vec::new();
            for _ in 0..3 {
                let x = c - r + next(2 * r + 1);
                let y = c - r + next(2 * r + 1);
                let p = gomoku::Point::new(x, y);
                if !b.is_legal(p) {
                    break;
                }
                b.play(p);
                stones.push((x, y));
            }
            if stones.len() == 3 && b.game_end().is_none() {
                return Opening::Gomoku(stones);
            }
        },
        MatchGame::Connect6 => loop {
            let c = variant.size / 2;
            let mut pick = |r: usize| {
                C6Point::new(
                    (c - r + next(2 * r + 1)) as u8,
                    (c - r + next(2 * r + 1)) as u8,
                )
            };
            let first = pick(1);
            let (a, b) = (pick(2), pick(2));
            if a == b || a == first || b == first {
                continue;
            }
            return Opening::Connect6(format!(
                "{} {}{}",
                first.to_littlegolem(),
                a.to_littlegolem(),
                b.to_littlegolem()
            ));
        },
    }
}

/// A game in progress, judged by qi's rules.
#[derive(Clone)]
pub enum Board {
    /// Xiangqi: the start FEN, the position with its history, the moves from the FEN.
    Xiangqi {
        /// The FEN the game (with its opening) starts from.
        fen: String,
        /// The current position.
        pos: Box<xiangqi::Position>,
        /// Every move from `fen`, opening included.
        moves: Vec<xiangqi::Move>,
    },
    /// Gomoku / renju: the board holds the whole history.
    Gomoku(Box<gomoku::Board>),
    /// Connect6 from the empty board.
    Connect6(Box<Connect6>),
}

/// A game in progress: the board, how many of its moves the opening made, and the engines'
/// move count.
#[derive(Clone)]
pub struct Game {
    /// The game's variant.
    pub variant: Variant,
    /// The board.
    pub board: Board,
    /// Moves (connect6: turns) that belong to the opening.
    pub opening_moves: usize,
    /// Moves (turns) the engines played.
    pub plies: usize,
}

impl Game {
    /// The game after the opening.
    ///
    /// # Errors
    /// A message when the opening does not replay legally or already ended the game.
    pub fn start(variant: &Variant, opening: &Opening) -> Result<Game, String> {
        let (board, n) = match opening {
            Opening::Xiangqi { fen, moves } => {
                let mut pos = xiangqi::Position::from_fen(fen).map_err(|e| e.to_string())?;
                pos.set_no_capture_limit(variant.no_capture_plies);
                let mut played = Vec::new();
                for m in moves {
                    if pos.game_end().is_some() {
                        return Err(format!("the game is over before {m}"));
                    }
                    let mv = pos.parse_iccs(m).map_err(|e| e.to_string())?;
                    pos.play(mv);
                    played.push(mv);
                }
                let n = played.len();
                (
                    Board::Xiangqi {
                        fen: pos_fen_start(fen),
                        pos: Box::new(pos),
                        moves: played,
                    },
                    n,
                )
            }
            Opening::Gomoku(stones) => {
                let mut b =
                    gomoku::Board::new(variant.size, variant.rule).map_err(|e| e.to_string())?;
                for &(x, y) in stones {
                    let p = gomoku::Point::try_new(x, y).ok_or("point off every board")?;
                    if b.game_end().is_some() {
                        return Err(format!("the game is over before {}", b.format_point(p)));
                    }
                    b.try_play(p).map_err(|e| e.to_string())?;
                }
                (Board::Gomoku(Box::new(b)), stones.len())
            }
            Opening::Connect6(moves) => {
                let pos = Connect6::from_moves(variant.size, moves).map_err(|e| e.to_string())?;
                if pos.stones_left() == 1 && !pos.history().is_empty() {
                    return Err("the opening ends in the middle of a turn".to_string());
                }
                let n = pos.turns().len();
                (Board::Connect6(Box::new(pos)), n)
            }
        };
        let game = Game {
            variant: *variant,
            board,
            opening_moves: n,
            plies: 0,
        };
        if let Some((_, why)) = game.end() {
            return Err(format!("the opening ends the game ({why})"));
        }
        Ok(game)
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        match &self.board {
            Board::Xiangqi { pos, .. } => pos.side(),
            Board::Gomoku(b) => b.side_to_move(),
            Board::Connect6(p) => p.to_move(),
        }
    }

    /// The end of the game by rule: the outcome and a reason.
    #[must_use]
    pub fn end(&self) -> Option<(Outcome, String)> {
        match &self.board {
            Board::Xiangqi { pos, .. } => pos.game_end().map(|(o, r)| (o, r.to_string())),
            Board::Gomoku(b) => b.game_end().map(|(o, r)| (o, r.to_string())),
            Board::Connect6(p) => p.game_end().map(|(o, r)| (o, r.to_string())),
        }
    }

    /// Checks and plays an engine's move given in its protocol's notation: ICCS (`h2e2`,
    /// ranks 0..9) for xiangqi, Gomocup `x,y` for gomoku, ConnectMore letters (`JKKJ`) for
    /// connect6. Returns the move in the game's notation.
    ///
    /// # Errors
    /// Why the move is unreadable or illegal; the game is unchanged then.
    pub fn play_engine_move(&mut self, text: &str) -> Result<String, String> {
        let t = text.trim();
        let played = match &mut self.board {
            Board::Xiangqi { pos, moves, .. } => {
                let mv = pos.parse_iccs(t).map_err(|e| e.to_string())?;
                pos.play(mv);
                moves.push(mv);
                mv.to_string()
            }
            Board::Gomoku(b) => {
                let p = gomoku::parse_gomocup(t, b.size()).map_err(|e| e.to_string())?;
                let name = b.format_point(p);
                b.play_checked(p).map_err(|e| e.to_string())?;
                name
            }
            Board::Connect6(pos) => {
                let points = parse_connectmore(t, pos.size()).map_err(|e| e.to_string())?;
                // A turn whose first stone makes six may end there.
                if points.len() == 1 && pos.stones_this_turn() == 2 {
                    let mut trial = (**pos).clone();
                    trial.play_point(points[0]).map_err(|e| e.to_string())?;
                    if trial.game_end().is_none() {
                        pos.check_turn(&points).map_err(|e| e.to_string())?;
                    }
                    **pos = trial;
                } else {
                    pos.play_turn(&points).map_err(|e| e.to_string())?;
                }
                connect6::notation::format_littlegolem(&points)
            }
        };
        self.plies += 1;
        Ok(played)
    }

    /// Xiangqi: the start FEN and the ICCS moves from it.
    #[must_use]
    pub fn xiangqi_moves(&self) -> Option<(&str, Vec<String>)> {
        match &self.board {
            Board::Xiangqi { fen, moves, .. } => Some((
                fen.as_str(),
                moves.iter().map(ToString::to_string).collect(),
            )),
            _ => None,
        }
    }

    /// Gomoku: the stones in move order as Gomocup `(x, y)`.
    #[must_use]
    pub fn gomoku_moves(&self) -> Option<Vec<(usize, usize)>> {
        match &self.board {
            Board::Gomoku(b) => Some(b.history().iter().map(|p| (p.x(), p.y())).collect()),
            _ => None,
        }
    }

    /// Connect6: the turns in ConnectMore letters (`JJ`, `JKKJ`), with their colour.
    #[must_use]
    pub fn connect6_turns(&self) -> Option<Vec<(Side, String)>> {
        match &self.board {
            Board::Connect6(p) => Some(
                p.turns()
                    .iter()
                    .map(|(s, pts)| (*s, format_connectmore(pts)))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// The moves after the start in the game's notation, space separated.
    #[must_use]
    fn move_text(&self) -> String {
        match &self.board {
            Board::Xiangqi { moves, .. } => {
                let mut s = String::new();
                let first_side = match &self.board {
                    Board::Xiangqi { fen, .. } => {
                        if fen.split_whitespace().nth(1).is_some_and(|f| f == "b") {
                            Side::Second
                        } else {
                            Side::First
                        }
                    }
                    _ => Side::First,
                };
                let mut number = 1;
                for (i, m) in moves.iter().enumerate() {
                    let red = (i % 2 == 0) == (first_side == Side::First);
                    if red {
                        let _ = write!(s, "{number}. {m} ");
                    } else {
                        if i == 0 {
                            let _ = write!(s, "{number}... ");
                        }
                        let _ = write!(s, "{m} ");
                        number += 1;
                    }
                }
                s.trim_end().to_string()
            }
            Board::Gomoku(b) => b
                .history()
                .iter()
                .map(|&p| b.format_point(p))
                .collect::<Vec<_>>()
                .join(" "),
            Board::Connect6(p) => p.moves_littlegolem(),
        }
    }

    /// The game record: PGN-style tags (xiangqi `[Game "Chinese Chess"]`, ICCS moves; stone
    /// games `[Game "Gomoku"]` etc. with the move list in human notation), the result and
    /// why the game ended.
    #[must_use]
    pub fn record(&self, info: &RecordInfo) -> String {
        let mut s = String::new();
        let tag = |s: &mut String, k: &str, v: &str| {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(s, "[{k} \"{v}\"]");
        };
        tag(&mut s, "Game", self.variant.title());
        tag(&mut s, "Event", "qi match");
        tag(&mut s, "Site", "?");
        tag(&mut s, "Date", &info.date);
        tag(&mut s, "Round", &info.round.to_string());
        tag(&mut s, self.variant.side_name(Side::First), &info.names[0]);
        tag(&mut s, self.variant.side_name(Side::Second), &info.names[1]);
        tag(&mut s, "Result", &info.result);
        match &self.board {
            Board::Xiangqi { fen, .. } => {
                tag(&mut s, "FEN", fen);
                tag(&mut s, "Format", "ICCS");
            }
            Board::Gomoku(b) => {
                tag(&mut s, "Size", &b.size().to_string());
                tag(&mut s, "Rule", &b.rule().to_string());
            }
            Board::Connect6(p) => tag(&mut s, "Size", &p.size().to_string()),
        }
        tag(&mut s, "Opening", &info.opening);
        tag(&mut s, "OpeningMoves", &self.opening_moves.to_string());
        tag(&mut s, "Termination", &info.reason);
        tag(&mut s, "TimeControl", &info.time_control);
        s.push('\n');
        let moves = self.move_text();
        if !moves.is_empty() {
            s.push_str(&moves);
            s.push(' ');
        }
        let _ = writeln!(s, "{{{}}} {}", info.reason, info.result);
        s.push('\n');
        s
    }
}

/// The FEN a game starts from (the opening's FEN as given, normalised by the parser).
fn pos_fen_start(fen: &str) -> String {
    xiangqi::Position::from_fen(fen).map_or_else(|_| fen.to_string(), |p| p.to_fen())
}

/// What a record says besides the moves.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// `YYYY.MM.DD`.
    pub date: String,
    /// Game number, from 1.
    pub round: usize,
    /// The engines' names, first side first.
    pub names: [String; 2],
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// Why the game ended.
    pub reason: String,
    /// The opening's text.
    pub opening: String,
    /// The time control as given.
    pub time_control: String,
}

/// Today's date `YYYY.MM.DD` (UTC) from the system clock (civil-from-days, H. Hinnant).
#[must_use]
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(game: MatchGame, size: usize, rule: gomoku::Rule) -> Variant {
        Variant {
            game,
            size,
            rule,
            no_capture_plies: xiangqi::DEFAULT_NO_CAPTURE_LIMIT,
        }
    }

    #[test]
    fn openings_parse() {
        let g = variant(MatchGame::Gomoku, 15, gomoku::Rule::Freestyle);
        let o = read_openings("# c\n0,0, 1,1, -1,0\nh8g7f6\n", "f", &g).unwrap();
        assert_eq!(o[0], Opening::Gomoku(vec![(7, 7), (8, 8), (6, 7)]));
        assert_eq!(o[1], Opening::Gomoku(vec![(7, 7), (6, 8), (5, 9)]));
        assert_eq!(o[1].label(&g), "h8g7f6");
        assert!(read_openings("0,0, 0,0\n", "f", &g).is_err());
        assert!(read_openings("0,0, 9,9\n", "f", &g).is_err());
        assert!(read_openings("\n", "f", &g).is_err());
        let x = variant(MatchGame::Xiangqi, 9, gomoku::Rule::Freestyle);
        let o = read_openings(
            "h2e2 h9g7\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2\n",
            "f",
            &x,
        )
        .unwrap();
        let g0 = Game::start(&x, &o[0]).unwrap();
        assert_eq!(g0.side_to_move(), Side::First);
        assert_eq!(g0.opening_moves, 2);
        assert_eq!(Game::start(&x, &o[1]).unwrap().side_to_move(), Side::Second);
        let err = read_openings("h2e3\n", "book.txt", &x).unwrap_err();
        assert!(err.starts_with("book.txt:1: bad opening 'h2e3'"), "{err}");
        let c = variant(MatchGame::Connect6, 19, gomoku::Rule::Freestyle);
        let o = read_openings("j10 j9l11\n", "f", &c).unwrap();
        let g = Game::start(&c, &o[0]).unwrap();
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(
            g.connect6_turns().unwrap(),
            vec![
                (Side::First, "JJ".to_string()),
                (Side::Second, "JILK".to_string())
            ]
        );
        assert!(read_openings("j10 j9\n", "f", &c).is_err());
    }

    #[test]
    fn random_openings_are_legal_and_seeded() {
        for game in [
            MatchGame::Xiangqi,
            MatchGame::Gomoku,
            MatchGame::Renju,
            MatchGame::Connect6,
        ] {
            let v = variant(
                game,
                if game == MatchGame::Connect6 { 19 } else { 9 },
                gomoku::Rule::Renju,
            );
            for seed in 0..20 {
                let o = random_opening(&v, seed);
                assert_eq!(o, random_opening(&v, seed));
                let g = Game::start(&v, &o).unwrap();
                assert!(g.end().is_none());
            }
            assert_ne!(random_opening(&v, 1), random_opening(&v, 2));
        }
    }

    #[test]
    fn engine_moves_checked() {
        let v = variant(MatchGame::Gomoku, 9, gomoku::Rule::Freestyle);
        let mut g = Game::start(&v, &Opening::Gomoku(vec![(4, 4)])).unwrap();
        assert!(g.play_engine_move("4,4").unwrap_err().contains("occupied"));
        assert!(g.play_engine_move("9,0").is_err());
        assert!(g.play_engine_move("zz").is_err());
        assert_eq!(g.play_engine_move("3,3").unwrap(), "d6");
        assert_eq!(g.plies, 1);
        let c = variant(MatchGame::Connect6, 19, gomoku::Rule::Freestyle);
        let mut g = Game::start(&c, &Opening::Connect6(String::new())).unwrap();
        assert!(g.play_engine_move("JJKK").is_err());
        assert_eq!(g.play_engine_move("JJ").unwrap(), "j10");
        assert!(g.play_engine_move("JJKK").is_err());
        assert!(g.play_engine_move("KK").is_err());
        assert_eq!(g.play_engine_move("KKLL").unwrap(), "k11l12");
    }

    /// The no-capture rule draws at the configured count, judged by the referee before the
    /// engine to move is asked (ElephantEye answers `nobestmove` at 100 plies).
    #[test]
    fn the_no_capture_count_is_configurable() {
        // Kings and a rook each, 99 plies without a capture: one quiet move reaches 100.
        let opening = Opening::Xiangqi {
            fen: "3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 99 80".to_string(),
            moves: vec![],
        };
        for (plies, drawn) in [(100, true), (120, false), (0, false)] {
            let v = Variant {
                no_capture_plies: plies,
                ..variant(MatchGame::Xiangqi, 9, gomoku::Rule::Freestyle)
            };
            let mut g = Game::start(&v, &opening).unwrap();
            assert!(g.end().is_none());
            g.play_engine_move("a0b0").unwrap();
            assert_eq!(
                g.end().map(|(o, _)| o),
                drawn.then_some(Outcome::Draw),
                "{plies} plies"
            );
        }
    }

    #[test]
    fn dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
