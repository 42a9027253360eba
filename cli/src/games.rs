//! The real games behind the frame: gomoku and renju, connect6, xiangqi. Each implements
//! [`Rules`]; [`build`] turns command-line options into a [`Game`].

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;

use game_core::search::Searcher;
use game_core::{Position, Side};

use crate::CliError;
use crate::args::{GameKind, PositionArgs, RuleArg};
use crate::commands::Protocol;
use crate::game::{
    Budget, Decision, Ending, EngineConfig, Game, Progress, Rules, Session, Style, paint,
    search_turn,
};

fn usage(msg: impl Into<String>) -> CliError {
    CliError::Usage(msg.into())
}

/// Splits a move list into its words, one a turn: `j10 j9l11`, `1. h8 2. i9` (move numbers
/// `12.` dropped; spaces, commas and semicolons separate).
fn split_turns(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|token| {
            // A move number `12.`.
            let number = token.ends_with('.')
                && token
                    .trim_end_matches('.')
                    .chars()
                    .all(|c| c.is_ascii_digit());
            !token.is_empty() && !number
        })
        .collect()
}

/// Splits a stone-game move list into single points: `h8g7f6`, `j10 j9l11`, `1. h8 2. i9`.
/// Tokens that are not coordinate runs are kept whole, so the move reader reports them.
fn split_points(text: &str) -> Vec<String> {
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

/// `'token': error`, without repeating the token when the error already starts with it.
pub fn quoted(token: &str, error: &str) -> String {
    if error.starts_with(&format!("'{token}'")) {
        error.to_string()
    } else {
        format!("'{token}': {error}")
    }
}

/// A move number such as `12.` or `12...`.
fn is_move_number(t: &str) -> bool {
    t.ends_with('.') && t.trim_end_matches('.').chars().all(|c| c.is_ascii_digit())
}

/// Plays `--moves` on a fresh session.
fn apply_moves(game: &mut dyn Game, moves: Vec<String>) -> Result<(), CliError> {
    for (i, token) in moves.iter().enumerate() {
        game.play_text(token)
            .map_err(|e| usage(format!("--moves: move {}: {}", i + 1, quoted(token, &e))))?;
    }
    Ok(())
}

/// Builds a game from the position options.
///
/// # Errors
/// [`CliError::Usage`] for options that do not fit the game or do not read (a bad FEN, a
/// point off the board, an illegal move in `--moves`).
pub fn build(
    kind: GameKind,
    args: &PositionArgs,
    config: &EngineConfig,
) -> Result<Box<dyn Game>, CliError> {
    match kind {
        GameKind::Gomoku | GameKind::Renju => Ok(Box::new(gomoku_game::build(kind, args, config)?)),
        GameKind::Connect6 => Ok(Box::new(connect6_game::build(args, config)?)),
        GameKind::Xiangqi => Ok(Box::new(xiangqi_game::build(args, config)?)),
    }
}

/// Runs `qi selfplay` for `kind` from the position the options give.
///
/// # Errors
/// As [`build`], and [`crate::selfplay::run`]'s.
pub fn selfplay(
    kind: GameKind,
    args: &PositionArgs,
    settings: &crate::selfplay::Settings,
    out: &mut (dyn Write + Send),
) -> Result<crate::selfplay::Summary, CliError> {
    let small = EngineConfig::small();
    match kind {
        GameKind::Gomoku | GameKind::Renju => {
            let start = gomoku_game::build(kind, args, &small)?.position().clone();
            crate::selfplay::run(&start, settings, out)
        }
        GameKind::Connect6 => {
            let start = connect6_game::build(args, &small)?.position().clone();
            crate::selfplay::run(&start, settings, out)
        }
        GameKind::Xiangqi => {
            let start = xiangqi_game::build(args, &small)?.position().clone();
            crate::selfplay::run(&start, settings, out)
        }
    }
}

/// The leaf counts below each root move at `depth` plies (one entry `("", n)` without
/// `divide`, where only the total is needed).
///
/// # Errors
/// As [`build`].
pub fn perft(
    kind: GameKind,
    args: &PositionArgs,
    depth: u32,
    divide: bool,
) -> Result<Vec<(String, u64)>, CliError> {
    match kind {
        GameKind::Gomoku | GameKind::Renju => {
            let mut board = gomoku_game::build(kind, args, &EngineConfig::small())?
                .position()
                .clone();
            Ok(generic_perft(&mut board, depth, divide))
        }
        GameKind::Connect6 => {
            let mut pos = connect6_game::build(args, &EngineConfig::small())?
                .position()
                .clone();
            Ok(generic_perft(&mut pos, depth, divide))
        }
        GameKind::Xiangqi => {
            let mut pos = xiangqi_game::build(args, &EngineConfig::small())?
                .position()
                .clone();
            if divide && depth > 0 {
                Ok(pos
                    .divide(depth)
                    .into_iter()
                    .map(|(m, n)| (m.to_string(), n))
                    .collect())
            } else {
                Ok(vec![(String::new(), pos.perft(depth))])
            }
        }
    }
}

fn generic_perft<P: Position>(pos: &mut P, depth: u32, divide: bool) -> Vec<(String, u64)> {
    fn count<P: Position>(pos: &mut P, depth: u32, bufs: &mut [Vec<P::Move>]) -> u64 {
        if depth == 0 {
            return 1;
        }
        let (buf, rest) = bufs.split_first_mut().expect("a buffer per ply");
        if pos.generate_moves(buf).is_some() {
            return 0;
        }
        if depth == 1 {
            return buf.len() as u64;
        }
        let moves = std::mem::take(buf);
        let mut n = 0;
        for &mv in &moves {
            pos.play(mv);
            n += count(pos, depth - 1, rest);
            pos.undo(mv);
        }
        *buf = moves;
        n
    }
    let mut bufs: Vec<Vec<P::Move>> = (0..=depth).map(|_| Vec::new()).collect();
    if !divide || depth == 0 {
        return vec![(String::new(), count(pos, depth, &mut bufs))];
    }
    let mut roots = Vec::new();
    if pos.generate_moves(&mut roots).is_some() {
        return Vec::new();
    }
    let mut out: Vec<(String, u64)> = roots
        .into_iter()
        .map(|mv| {
            let text = pos.format_move(mv);
            pos.play(mv);
            let n = count(pos, depth - 1, &mut bufs);
            pos.undo(mv);
            (text, n)
        })
        .collect();
    out.sort_by_cached_key(|(t, _)| crate::game::natural_key(t));
    out
}

/// The games `qi bench` runs with no game named.
pub const BENCH_GAMES: [GameKind; 3] = [GameKind::Gomoku, GameKind::Connect6, GameKind::Xiangqi];

/// The bench positions of a game and their fixed depth.
#[must_use]
pub fn bench_positions(kind: GameKind) -> (Vec<PositionArgs>, u32) {
    let moves = |m: &str| PositionArgs {
        moves: Some(m.to_string()),
        ..PositionArgs::default()
    };
    match kind {
        GameKind::Gomoku => (
            vec![
                moves("h8"),
                moves("h8i9h9"),
                moves("h8i9h9h10i8g8"),
                moves("h8h9i9g7j10k11i7"),
            ],
            6,
        ),
        GameKind::Renju => (
            vec![moves("h8"), moves("h8i9h9"), moves("h8i9h9h10i8g8")],
            6,
        ),
        GameKind::Connect6 => (
            vec![
                moves("j10"),
                moves("j10 i9k11"),
                moves("j10 i9k11 j9j11"),
                moves("j10 k10k9 i9i11 h10l10"),
            ],
            4,
        ),
        // The xiangqi crate's own benchmark (same positions, depth, table and thread as
        // `xiangqi::bench::run`, so the node counts agree).
        GameKind::Xiangqi => (
            xiangqi::bench::BENCH_FENS
                .iter()
                .map(|fen| PositionArgs {
                    fen: Some((*fen).to_string()),
                    ..PositionArgs::default()
                })
                .collect(),
            xiangqi::bench::DEFAULT_DEPTH,
        ),
    }
}

/// Hands `input` and `output` to a protocol loop.
///
/// # Errors
/// I/O errors of the streams.
pub fn serve(
    protocol: Protocol,
    input: Box<dyn BufRead + '_>,
    output: impl Write + Send + 'static,
) -> Result<(), CliError> {
    match protocol {
        Protocol::Connect6 => connect6::connectmore::run(input, output)?,
        Protocol::Gomocup => gomoku::gomocup::run(input, output)?,
        Protocol::Ucci => xiangqi::ucci::run(input, output)?,
        Protocol::Uci => xiangqi::uci::run(input, output)?,
    }
    Ok(())
}

/// The character between two cells of a board row: `(` opens a marked cell, `)` closes one,
/// `|` sits between two marked cells.
fn mark_separator(left_marked: bool, marked: bool) -> char {
    match (left_marked, marked) {
        (true, true) => '|',
        (false, true) => '(',
        (true, false) => ')',
        (false, false) => ' ',
    }
}

/// Draws a square stone board. `cell(col, row)` with row 0 at the top; `label(row)` the row
/// number printed; `marks` the last turn's points as (col, row); `hints` points drawn with
/// the hint character (renju forbidden points).
fn render_stones(
    size: usize,
    cell: impl Fn(usize, usize) -> Option<Side>,
    label: impl Fn(usize) -> usize,
    marks: &[(usize, usize)],
    hints: &[(usize, usize)],
    style: &Style,
) -> String {
    let letters: String = (0..size)
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    let mut out = format!("   {letters}\n");
    let (black, white, empty, hint) = if style.unicode {
        ('●', '○', '·', '×')
    } else {
        ('X', 'O', '.', 'x')
    };
    for y in 0..size {
        let mut line = format!("{:>2} ", label(y));
        for x in 0..size {
            let marked = marks.contains(&(x, y));
            let sep = mark_separator(x > 0 && marks.contains(&(x - 1, y)), marked);
            line.push_str(&paint(style.color && sep != ' ', "1;33", &sep.to_string()));
            let text = match cell(x, y) {
                Some(Side::First) => paint(
                    style.color,
                    if marked { "1;31" } else { "1" },
                    &black.to_string(),
                ),
                Some(Side::Second) => paint(
                    style.color,
                    if marked { "1;31" } else { "1" },
                    &white.to_string(),
                ),
                None if hints.contains(&(x, y)) => paint(style.color, "35", &hint.to_string()),
                None => paint(style.color, "2", &empty.to_string()),
            };
            line.push_str(&text);
        }
        let end = if marks.contains(&(size - 1, y)) {
            ')'
        } else {
            ' '
        };
        line.push_str(&paint(style.color && end != ' ', "1;33", &end.to_string()));
        line.push_str(&format!(" {}\n", label(y)));
        out.push_str(&line);
    }
    out.push_str(&format!("   {letters}\n"));
    out
}

/// Gomoku and renju.
mod gomoku_game {
    use super::*;
    use gomoku::{Board, Engine, EngineLimits, GomokuError, Point, Rule};
    use std::time::Instant;

    /// The start position from the options (setup stones; `--moves` are played later).
    fn start(kind: GameKind, args: &PositionArgs) -> Result<Board, CliError> {
        if args.fen.is_some() {
            return Err(usage(
                "--fen is for xiangqi; gomoku positions use --moves or --black/--white stones",
            ));
        }
        let rule = match (kind, args.rule) {
            (GameKind::Renju, None | Some(RuleArg::Renju)) => Rule::Renju,
            (GameKind::Renju, Some(r)) => {
                return Err(usage(format!(
                    "renju is gomoku 15x15 under renju rules; --rule {} does not fit (use gomoku \
                     --rule {})",
                    rule_name(r),
                    rule_name(r)
                )));
            }
            (_, None | Some(RuleArg::Freestyle)) => Rule::Freestyle,
            (_, Some(RuleArg::Standard)) => Rule::Standard,
            (_, Some(RuleArg::Renju)) => Rule::Renju,
        };
        if kind == GameKind::Renju {
            if let Some(n) = args.size.filter(|&n| n != 15) {
                return Err(usage(format!(
                    "renju is gomoku 15x15 under renju rules; --size {n} does not fit (use \
                     gomoku --rule renju --size {n})"
                )));
            }
        }
        let size = args.size.unwrap_or(gomoku::DEFAULT_SIZE);
        let mut board = Board::new(size, rule).map_err(|e| usage(format!("--size: {e}")))?;
        if args.black.is_some() || args.white.is_some() || args.to_move.is_some() {
            let stones = |flag: &str, text: &Option<String>| -> Result<Vec<Point>, CliError> {
                match text {
                    None => Ok(Vec::new()),
                    Some(t) => board
                        .parse_points(t)
                        .map_err(|e| usage(format!("--{flag}: {e}"))),
                }
            };
            let black = stones("black", &args.black)?;
            let white = stones("white", &args.white)?;
            // Counts no game reaches need the side to move said outright.
            let reachable = black.len() == white.len() || black.len() == white.len() + 1;
            if args.to_move.is_none() && !reachable {
                return Err(usage(format!(
                    "cannot tell the side to move from {} black and {} white stones (a gomoku \
                     game has Black level with White or one stone ahead): give --to-move \
                     black|white",
                    black.len(),
                    white.len()
                )));
            }
            let to_move = args.to_move.as_deref().map(|s| {
                if s == "white" {
                    Side::Second
                } else {
                    Side::First
                }
            });
            board = Board::from_stones(size, rule, &black, &white, to_move)
                .map_err(|e| usage(format!("--black/--white: {e}")))?;
        }
        Ok(board)
    }

    fn rule_name(r: RuleArg) -> &'static str {
        match r {
            RuleArg::Freestyle => "freestyle",
            RuleArg::Standard => "standard",
            RuleArg::Renju => "renju",
        }
    }

    pub fn build(
        kind: GameKind,
        args: &PositionArgs,
        config: &EngineConfig,
    ) -> Result<Session<Board>, CliError> {
        let mut game = Session::new(start(kind, args)?, config);
        if let Some(m) = &args.moves {
            apply_moves(&mut game, split_points(m))?;
        }
        Ok(game)
    }

    impl Rules for Board {
        type Engine = Engine;

        fn new_engine(config: &EngineConfig) -> Engine {
            let mut engine = Engine::new(config.hash_mib);
            engine.set_threads(config.threads);
            engine
        }

        /// The gomoku engine: five, forced block, VCF, VCF defence, VCT, then the shared
        /// search.
        fn think(
            engine: &mut Engine,
            position: &Self,
            budget: &Budget,
            stop: &AtomicBool,
            progress: &mut dyn FnMut(&Progress<Point>),
        ) -> Decision<Point> {
            let limits = EngineLimits {
                depth: budget.depth,
                nodes: budget.nodes,
                ..budget.time.map(EngineLimits::time).unwrap_or_default()
            };
            let start = Instant::now();
            let result = engine.think(position, &limits, stop, |p| {
                progress(&Progress {
                    depth: p.depth,
                    score: p.score,
                    nodes: p.nodes,
                    time_ms: p.time_ms,
                    pv: p.pv.clone(),
                });
            });
            Decision {
                turn: result.best_move.into_iter().collect(),
                score: result.score,
                depth: result.depth,
                nodes: result.nodes,
                time_ms: start.elapsed().as_millis() as u64,
                pv: if result.pv.is_empty() {
                    result.best_move.into_iter().collect()
                } else {
                    result.pv
                },
            }
        }

        fn game_name(&self) -> &'static str {
            if self.rule() == Rule::Renju && self.size() == 15 {
                "renju"
            } else {
                "gomoku"
            }
        }

        fn record_game(&self) -> &'static str {
            "Gomoku"
        }

        fn move_help(&self) -> String {
            let mut text = format!(
                "a point: h8 (column letter a..{} from the left, row number from the bottom)",
                (b'a' + self.size() as u8 - 1) as char
            );
            if self.rule() == Rule::Renju {
                text.push_str(
                    "\nOn this renju board × (x with --ascii) marks Black's forbidden points (double \
                     three, double four,\noverline): Black may play one, and loses at once.",
                );
            }
            text
        }

        fn side_name(side: Side) -> &'static str {
            match side {
                Side::First => "Black",
                Side::Second => "White",
            }
        }

        fn ending(&self) -> Option<Ending> {
            self.game_end().map(|(outcome, reason)| Ending {
                outcome,
                reason: reason.to_string(),
            })
        }

        fn render(&self, last: &[Point], style: &Style) -> String {
            let size = self.size();
            let marks: Vec<(usize, usize)> = last.iter().map(|p| (p.x(), p.y())).collect();
            let hints: Vec<(usize, usize)> = if self.rule() == Rule::Renju
                && self.side_to_move() == Side::First
                && self.game_end().is_none()
            {
                self.forbidden_points()
                    .iter()
                    .map(|(p, _)| (p.x(), p.y()))
                    .collect()
            } else {
                Vec::new()
            };
            let mut text = render_stones(
                size,
                |x, y| self.stone_at(x, y),
                |y| size - y,
                &marks,
                &hints,
                style,
            );
            if !hints.is_empty() {
                text.push_str(if style.unicode {
                    "(× forbidden for Black under renju)\n"
                } else {
                    "(x forbidden for Black under renju)\n"
                });
            }
            text
        }

        /// A forbidden Black move under renju is read (and then loses), not refused.
        fn parse_turn(&self, text: &str) -> Result<Vec<Point>, String> {
            match self.parse_move(text) {
                Ok(p) => Ok(vec![p]),
                Err(GomokuError::Forbidden { .. }) => {
                    let p = self.parse_point(text).map_err(|e| e.to_string())?;
                    Ok(vec![p])
                }
                Err(e) => Err(e.to_string()),
            }
        }

        fn play_input(&mut self, mv: Point) {
            // Checked already by parse_turn; a forbidden move ends the game.
            let _ = self.play_checked(mv);
        }

        fn start_tags(&self) -> Vec<(&'static str, String)> {
            let mut tags = vec![
                ("Rule", self.rule().to_string()),
                ("Size", self.size().to_string()),
            ];
            let mut black = Vec::new();
            let mut white = Vec::new();
            for p in self.points() {
                match self.stone(p) {
                    Some(Side::First) => black.push(self.format_point(p)),
                    Some(Side::Second) => white.push(self.format_point(p)),
                    None => {}
                }
            }
            if !black.is_empty() || !white.is_empty() {
                tags.push(("SetupBlack", black.join(" ")));
                tags.push(("SetupWhite", white.join(" ")));
                let side = if self.side_to_move() == Side::First {
                    "black"
                } else {
                    "white"
                };
                tags.push(("ToMove", side.to_string()));
            }
            tags
        }
    }
}

/// Connect6.
mod connect6_game {
    use super::*;
    use connect6::engine::{Engine, EngineLimits};
    use connect6::notation::parse_littlegolem;
    use connect6::{Cell, Connect6, MoveError, Point, Stone};

    /// The start position from the options (setup stones; `--moves` are played later).
    fn start(args: &PositionArgs) -> Result<Connect6, CliError> {
        if args.fen.is_some() {
            return Err(usage(
                "--fen is for xiangqi; connect6 positions use --moves or --black/--white stones",
            ));
        }
        if args.rule.is_some() {
            return Err(usage(
                "--rule is for gomoku; connect6 has one rule (six or more in a row wins)",
            ));
        }
        let size = args.size.unwrap_or(connect6::DEFAULT_SIZE);
        let empty = Connect6::new(size).map_err(|e| usage(format!("--size: {e}")))?;
        if args.black.is_none() && args.white.is_none() && args.to_move.is_none() {
            return Ok(empty);
        }
        let stones = |flag: &str, text: &Option<String>| -> Result<Vec<Point>, CliError> {
            match text.as_deref().map(str::trim) {
                None | Some("") => Ok(Vec::new()),
                Some(t) => parse_littlegolem(t, size).map_err(|e| usage(format!("--{flag}: {e}"))),
            }
        };
        let black = stones("black", &args.black)?;
        let white = stones("white", &args.white)?;
        let to_move = match args.to_move.as_deref() {
            Some("white") => Side::Second,
            Some(_) => Side::First,
            None => Connect6::side_from_counts(black.len(), white.len()).ok_or_else(|| {
                usage(format!(
                    "cannot tell the side to move from {} black and {} white stones (at the \
                     start of a turn Black has an odd number of stones, one more or one fewer \
                     than White): give --to-move black|white",
                    black.len(),
                    white.len()
                ))
            })?,
        };
        Connect6::from_stones(size, &black, &white, to_move)
            .map_err(|e| usage(format!("--black/--white: {e}")))
    }

    pub fn build(
        args: &PositionArgs,
        config: &EngineConfig,
    ) -> Result<Session<Connect6>, CliError> {
        let mut game = Session::new(start(args)?, config);
        if let Some(m) = &args.moves {
            // Each word is one whole turn (`j10 j9l11 k10k11`); only the last may be the first
            // stone of a turn, for a position in the middle of one.
            let words = split_turns(m);
            for (i, &word) in words.iter().enumerate() {
                let side = game.position().to_move();
                game.play_text(word)
                    .map_err(|e| usage(format!("--moves: move {}: {}", i + 1, quoted(word, &e))))?;
                let pos = game.position();
                if i + 1 < words.len() && pos.game_end().is_none() && pos.to_move() == side {
                    return Err(usage(format!(
                        "--moves: move {}: '{word}' is one stone of {}'s two-stone turn: write \
                         a turn's stones together, like j9l11 (only the last word may be a \
                         single stone, for a position in the middle of a turn)",
                        i + 1,
                        connect6::side_name(side)
                    )));
                }
            }
        }
        Ok(game)
    }

    impl Rules for Connect6 {
        type Engine = Engine;

        fn new_engine(config: &EngineConfig) -> Engine {
            Engine::new(config.hash_mib)
        }

        fn think(
            engine: &mut Engine,
            position: &Self,
            budget: &Budget,
            _stop: &AtomicBool,
            progress: &mut dyn FnMut(&Progress<Stone>),
        ) -> Decision<Stone> {
            let limits = EngineLimits {
                depth: budget.depth,
                time: budget.time,
                nodes: budget.nodes,
            };
            let stones = |points: &[Point]| -> Vec<Stone> {
                points
                    .iter()
                    .filter_map(|&p| position.stone_at(p))
                    .collect()
            };
            let analysis = engine.think_with(position, &limits, |a| {
                progress(&Progress {
                    depth: a.depth,
                    score: a.score,
                    nodes: a.nodes,
                    time_ms: a.time.as_millis() as u64,
                    pv: stones(&a.pv),
                });
            });
            match analysis {
                Some(a) => Decision {
                    turn: stones(&a.turn),
                    score: a.score,
                    depth: a.depth,
                    nodes: a.nodes,
                    time_ms: a.time.as_millis() as u64,
                    pv: stones(&a.pv),
                },
                None => Decision {
                    turn: Vec::new(),
                    score: 0,
                    depth: 0,
                    nodes: 0,
                    time_ms: 0,
                    pv: Vec::new(),
                },
            }
        }

        fn game_name(&self) -> &'static str {
            "connect6"
        }

        fn record_game(&self) -> &'static str {
            "Connect6"
        }

        fn move_help(&self) -> String {
            "two points: j9 l11 or j9l11 (Black's first turn is one point, j10)".to_string()
        }

        fn side_name(side: Side) -> &'static str {
            connect6::side_name(side)
        }

        fn ending(&self) -> Option<Ending> {
            self.game_end().map(|(outcome, reason)| Ending {
                outcome,
                reason: reason.to_string(),
            })
        }

        fn render(&self, last: &[Stone], style: &Style) -> String {
            let size = self.size();
            let marks: Vec<(usize, usize)> = last
                .iter()
                .map(|s| {
                    let p = s.point(size);
                    (p.x as usize, size - 1 - p.y as usize)
                })
                .collect();
            let mut text = render_stones(
                size,
                |x, y| match self.cell(Point::new(x as u8, (size - 1 - y) as u8)) {
                    Some(Cell::Black) => Some(Side::First),
                    Some(Cell::White) => Some(Side::Second),
                    _ => None,
                },
                |y| size - y,
                &marks,
                &[],
                style,
            );
            if self.game_end().is_none() {
                let n = self.stones_left();
                text.push_str(&format!(
                    "{} places {} stone{} this turn.\n",
                    connect6::side_name(self.to_move()),
                    n,
                    if n == 1 { "" } else { "s" }
                ));
            }
            text
        }

        /// A whole turn (`j9l11`, `j9 l11`, ConnectMore `JKKJ`) or its first stone.
        fn parse_turn(&self, text: &str) -> Result<Vec<Stone>, String> {
            match Connect6::parse_turn(self, text) {
                Ok(points) => Ok(points.iter().filter_map(|&p| self.stone_at(p)).collect()),
                Err(MoveError::WrongStoneCount {
                    expected: 2,
                    found: 1,
                    ..
                }) => self
                    .parse_move(text)
                    .map(|s| vec![s])
                    .map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            }
        }

        /// Own turns to the forced result: a connect6 turn is two stones (the first may be one).
        fn mate_moves(&self, plies: i32) -> i32 {
            let k = i32::from(self.stones_left());
            if plies > 0 {
                if plies <= k {
                    1
                } else {
                    1 + (plies - k - 2 + 3) / 4
                }
            } else {
                let p = -plies;
                // The opponent's winning stone is ply p: how many of its turns that is.
                -(((p - k - 1).max(0)) / 4 + 1)
            }
        }

        fn start_tags(&self) -> Vec<(&'static str, String)> {
            let mut tags = vec![("Size", self.size().to_string())];
            let (black, white) = self.setup_stones();
            if !black.is_empty() || !white.is_empty() {
                let join = |ps: &[Point]| {
                    ps.iter()
                        .map(|p| p.to_littlegolem())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                tags.push(("SetupBlack", join(black)));
                tags.push(("SetupWhite", join(white)));
                let side = if self.to_move() == Side::First {
                    "black"
                } else {
                    "white"
                };
                tags.push(("ToMove", side.to_string()));
            }
            tags
        }
    }
}

/// Xiangqi.
mod xiangqi_game {
    use super::*;
    use xiangqi::{EndReason, Eval, Move, PieceKind, Position as Xq};

    /// The start position from the options (`--fen`; `--moves` are played later).
    fn start(args: &PositionArgs) -> Result<Xq, CliError> {
        if args.rule.is_some() || args.size.is_some() {
            return Err(usage(
                "--rule and --size are for the stone games; xiangqi is 9x10 with one rule set",
            ));
        }
        if args.black.is_some() || args.white.is_some() || args.to_move.is_some() {
            return Err(usage(
                "--black/--white/--to-move set up stone games; a xiangqi position is given with --fen",
            ));
        }
        match &args.fen {
            None => Ok(Xq::startpos()),
            Some(fen) => Xq::from_fen(fen).map_err(|e| usage(format!("--fen: {e}"))),
        }
    }

    pub fn build(args: &PositionArgs, config: &EngineConfig) -> Result<Session<Xq>, CliError> {
        let mut game = Session::new(start(args)?, config);
        if let Some(m) = &args.moves {
            let tokens: Vec<String> = m
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !(t.is_empty() || is_move_number(t)))
                .map(str::to_string)
                .collect();
            apply_moves(&mut game, tokens)?;
        }
        Ok(game)
    }

    fn chinese(kind: PieceKind, side: Side) -> char {
        let red = side == Side::First;
        match kind {
            PieceKind::King => {
                if red {
                    '帥'
                } else {
                    '將'
                }
            }
            PieceKind::Advisor => {
                if red {
                    '仕'
                } else {
                    '士'
                }
            }
            PieceKind::Elephant => {
                if red {
                    '相'
                } else {
                    '象'
                }
            }
            PieceKind::Horse => {
                if red {
                    '傌'
                } else {
                    '馬'
                }
            }
            PieceKind::Rook => {
                if red {
                    '俥'
                } else {
                    '車'
                }
            }
            PieceKind::Cannon => {
                if red {
                    '炮'
                } else {
                    '砲'
                }
            }
            PieceKind::Pawn => {
                if red {
                    '兵'
                } else {
                    '卒'
                }
            }
        }
    }

    impl Rules for Xq {
        fn score_in_centipawns(&self) -> bool {
            true
        }

        type Engine = Searcher<Xq, Eval>;

        fn new_engine(config: &EngineConfig) -> Self::Engine {
            Searcher::new(
                Eval,
                xiangqi::search_options(config.hash_mib, config.threads),
            )
        }

        fn think(
            engine: &mut Self::Engine,
            position: &Self,
            budget: &Budget,
            stop: &AtomicBool,
            progress: &mut dyn FnMut(&Progress<Move>),
        ) -> Decision<Move> {
            search_turn(engine, position, budget, stop, progress)
        }

        fn game_name(&self) -> &'static str {
            "xiangqi"
        }

        fn record_game(&self) -> &'static str {
            "Chinese Chess"
        }

        fn move_help(&self) -> String {
            "h2e2 (ICCS: from and to squares), C2.5 (WXF), or the Chinese notation 炮二平五"
                .to_string()
        }

        fn side_name(side: Side) -> &'static str {
            match side {
                Side::First => "Red",
                Side::Second => "Black",
            }
        }

        fn ending(&self) -> Option<Ending> {
            self.game_end().map(|(outcome, reason)| Ending {
                outcome,
                reason: match reason {
                    EndReason::Checkmate => "checkmate",
                    EndReason::Stalemate => "stalemate: no legal move",
                    EndReason::PerpetualCheck => "perpetual check",
                    EndReason::PerpetualChase => "perpetual chase",
                    EndReason::Repetition => "repetition",
                    EndReason::NoCaptureLimit => "60 moves without a capture",
                }
                .to_string(),
            })
        }

        fn render(&self, last: &[Move], style: &Style) -> String {
            let marks: Vec<(u8, u8)> = last
                .iter()
                .flat_map(|m| [m.from(), m.to()])
                .map(|s| (s.file(), s.rank()))
                .collect();
            // Display order: Red at the bottom, or Black at the bottom when flipped.
            let files: Vec<u8> = if style.flipped {
                (0..9).rev().collect()
            } else {
                (0..9).collect()
            };
            let ranks: Vec<u8> = if style.flipped {
                (0..10).collect()
            } else {
                (0..10).rev().collect()
            };
            let letter = |f: u8| (b'a' + f) as char;
            let header: String = if style.unicode {
                files.iter().map(|&f| format!(" {} ", letter(f))).collect()
            } else {
                files.iter().map(|&f| format!(" {}", letter(f))).collect()
            };
            let river_before = if style.flipped { 5 } else { 4 };
            let mut out = format!("  {header}\n");
            for rank in ranks {
                if rank == river_before {
                    out.push_str(if style.unicode {
                        "      楚 河              漢 界\n"
                    } else {
                        "     ~~~~~ river ~~~~~\n"
                    });
                }
                let mut line = format!("{rank} ");
                for (i, &file) in files.iter().enumerate() {
                    let marked = marks.contains(&(file, rank));
                    let before = i > 0 && marks.contains(&(files[i - 1], rank));
                    let sep = mark_separator(before, marked);
                    line.push_str(&paint(style.color && sep != ' ', "1;33", &sep.to_string()));
                    let text = match self.piece_at(file, rank) {
                        Some(p) => {
                            let glyph = if style.unicode {
                                chinese(p.kind, p.side).to_string()
                            } else {
                                p.fen_char().to_string()
                            };
                            let code = if p.side == Side::First { "1;31" } else { "1" };
                            paint(style.color, code, &glyph)
                        }
                        None => paint(style.color, "2", if style.unicode { "＋" } else { "." }),
                    };
                    line.push_str(&text);
                }
                let end = if marks.contains(&(files[8], rank)) {
                    ')'
                } else {
                    ' '
                };
                line.push_str(&paint(style.color && end != ' ', "1;33", &end.to_string()));
                line.push_str(&format!("{rank}\n"));
                out.push_str(&line);
            }
            out.push_str(&format!("  {header}\n"));
            if self.game_end().is_none() && self.is_check() {
                out.push_str(&format!("{} is in check.\n", Self::side_name(self.side())));
            }
            out
        }

        /// ICCS (`h2e2`, `H2-E2`), WXF (`C2.5`, `C2=5`) or Chinese (`炮二平五`).
        fn parse_turn(&self, text: &str) -> Result<Vec<Move>, String> {
            let t = text.trim();
            let b = t.as_bytes();
            let dashed = b.len() == 5
                && b[2] == b'-'
                && b[0].is_ascii_alphabetic()
                && b[3].is_ascii_alphabetic();
            let text = if dashed {
                format!("{}{}", &t[..2], &t[3..]).to_ascii_lowercase()
            } else {
                t.to_string()
            };
            self.parse_any(&text)
                .map(|m| vec![m])
                .map_err(|e| e.to_string())
        }

        fn start_tags(&self) -> Vec<(&'static str, String)> {
            vec![("Format", "ICCS".to_string()), ("FEN", self.to_fen())]
        }

        fn record_turns(_start: &Self, turns: &[Vec<Move>]) -> Vec<String> {
            turns
                .iter()
                .map(|t| t.iter().map(|&m| Xq::format_iccs_dashed(m)).collect())
                .collect()
        }

        fn turn_note(&self, turn: &[Move]) -> Option<String> {
            let mv = *turn.first()?;
            Some(format!(
                "{} {}",
                self.format_wxf(mv),
                self.format_chinese(mv)
            ))
        }

        fn record_comment(start: &Self, turns: &[Vec<Move>]) -> Option<String> {
            if turns.is_empty() {
                return None;
            }
            let mut pos = start.clone();
            let mut words = Vec::new();
            for &mv in turns.iter().flatten() {
                words.push(pos.format_wxf(mv));
                Position::play(&mut pos, mv);
            }
            Some(format!("WXF: {}", words.join(" ")))
        }
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
    }

    #[test]
    fn connect6_mate_distances_in_own_turns() {
        let mut pos = connect6::Connect6::standard();
        let centre = pos.stone_at(connect6::Point::new(9, 9)).unwrap();
        game_core::Position::play(&mut pos, centre);
        // White to move with two stones: winning with the 2nd stone is one turn; after
        // White's 2, Black's 2, White's 2 (6 plies) it is two turns.
        assert_eq!(pos.mate_moves(1), 1);
        assert_eq!(pos.mate_moves(2), 1);
        assert_eq!(pos.mate_moves(5), 2);
        assert_eq!(pos.mate_moves(6), 2);
        assert_eq!(pos.mate_moves(10), 3);
        // Losing: Black's six on ply 3 or 4 is after one White turn.
        assert_eq!(pos.mate_moves(-3), -1);
        assert_eq!(pos.mate_moves(-4), -1);
        assert_eq!(pos.mate_moves(-8), -2);
    }
}
