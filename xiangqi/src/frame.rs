//! Xiangqi in the game frame: [`Rules`] for [`Position`] and the registry entry [`XIANGQI`].

use std::io::{self, BufRead, Write};
use std::sync::atomic::AtomicBool;

use game_core::Side;
use game_core::search::Searcher;
use game_core::zobrist::SplitMix64;
use game_frame::selfplay::{self, Settings, Summary};
use game_frame::{
    BoardView, Budget, Click, Decision, Ending, EngineConfig, FrameError, Game, GameSpec,
    LevelPick, LevelSettings, Opening, Piece, Progress, Protocol, Region, River, Rules, Session,
    Setup, play_moves, search_turn, tuning,
};

use crate::position::{EndReason, Position};
use crate::types::{Move, PieceKind};
use crate::{Eval, START_FEN, bench};

fn usage(msg: impl Into<String>) -> FrameError {
    FrameError::Usage(msg.into())
}

/// The registered xiangqi game.
pub struct XiangqiSpec;

/// Xiangqi (Chinese chess).
pub static XIANGQI: XiangqiSpec = XiangqiSpec;

impl XiangqiSpec {
    /// The start position from the setup (`--fen`; the moves are played later).
    fn start(args: &Setup) -> Result<Position, FrameError> {
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
        let mut pos = match &args.fen {
            None => Position::startpos(),
            Some(fen) => Position::from_fen(fen).map_err(|e| usage(format!("--fen: {e}")))?,
        };
        if let Some(plies) = args.no_capture_plies {
            pos.set_no_capture_limit(plies);
        }
        Ok(pos)
    }

    /// The game from the setup: its start, then its moves (spaces or commas between them,
    /// move numbers `12.` skipped).
    fn session(args: &Setup, config: &EngineConfig) -> Result<Session<Position>, FrameError> {
        let mut game = Session::new(Self::start(args)?, config);
        if let Some(m) = &args.moves {
            let tokens: Vec<String> = m
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !(t.is_empty() || game_frame::setup::is_move_number(t)))
                .map(str::to_string)
                .collect();
            play_moves(&mut game, &tokens)?;
        }
        Ok(game)
    }
}

fn serve_ucci(input: Box<dyn BufRead + '_>, output: Box<dyn Write + Send>) -> io::Result<()> {
    crate::protocol::ucci::run(input, output)
}

fn serve_uci(input: Box<dyn BufRead + '_>, output: Box<dyn Write + Send>) -> io::Result<()> {
    crate::protocol::uci::run(input, output)
}

impl GameSpec for XiangqiSpec {
    fn name(&self) -> &'static str {
        "xiangqi"
    }

    fn summary(&self) -> &'static str {
        "Chinese chess"
    }

    fn moves_example(&self) -> &'static str {
        "h2e2 h9g7"
    }

    fn record_names(&self) -> &'static [&'static str] {
        &["chinese chess", "xiangqi"]
    }

    fn record_title(&self) -> &'static str {
        "Chinese Chess"
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["Red", "Black"]
    }

    fn build(&self, setup: &Setup, config: &EngineConfig) -> Result<Box<dyn Game>, FrameError> {
        Ok(Box::new(Self::session(setup, config)?))
    }

    /// The crate's own perft (legal moves by make and unmake, checks tested once per move).
    fn perft(
        &self,
        setup: &Setup,
        depth: u32,
        divide: bool,
    ) -> Result<Vec<(String, u64)>, FrameError> {
        let mut pos = Self::session(setup, &EngineConfig::small())?
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

    /// The crate's own benchmark (same positions and depth as [`bench::run`], so the node
    /// counts agree).
    fn bench(&self) -> (Vec<Setup>, u32) {
        (
            bench::BENCH_FENS
                .iter()
                .map(|fen| Setup::fen(fen))
                .collect(),
            bench::DEFAULT_DEPTH,
        )
    }

    fn random_plies(&self) -> usize {
        8
    }

    fn selfplay(
        &self,
        setup: &Setup,
        settings: &Settings,
        out: &mut (dyn Write + Send),
    ) -> Result<Summary, FrameError> {
        let start = Self::session(setup, &EngineConfig::small())?
            .position()
            .clone();
        selfplay::run(&start, settings, out)
    }

    fn tune(&self, settings: &tuning::Settings) -> Result<(), FrameError> {
        tuning::run::<Position>(settings)
    }

    fn protocols(&self) -> &'static [Protocol] {
        &[
            Protocol {
                command: "ucci",
                serve: serve_ucci,
                level_line: |l| format!("setoption level {l}"),
            },
            Protocol {
                command: "uci",
                serve: serve_uci,
                level_line: |l| format!("setoption name Level value {l}"),
            },
        ]
    }

    fn referee_protocols(&self) -> &'static [&'static str] {
        &["ucci", "uci"]
    }

    /// A FEN, optionally followed by `moves ...`, or ICCS moves from the start
    /// (`startpos moves h2e2`, `h2e2 h9g7`).
    fn opening(&self, line: &str, base: &Setup) -> Result<Opening, FrameError> {
        let (fen, moves) = if line.contains('/') {
            match line.split_once(" moves ") {
                Some((f, m)) => (f.trim().to_string(), m),
                None => (line.to_string(), ""),
            }
        } else {
            let m = line.strip_prefix("startpos").unwrap_or(line);
            let m = m.trim().strip_prefix("moves").unwrap_or(m);
            (START_FEN.to_string(), m)
        };
        let moves: Vec<&str> = moves.split_whitespace().collect();
        Ok(opening_of(base, &fen, &moves))
    }

    /// Four random quiet plies from the start.
    fn random_opening(&self, base: &Setup, seed: u64) -> Opening {
        let mut rng = SplitMix64::new(seed);
        let mut next = |n: usize| -> usize {
            let (v, r) = rng.next();
            rng = r;
            (v % n as u64) as usize
        };
        loop {
            let mut pos = Position::startpos();
            let mut moves = Vec::new();
            for _ in 0..4 {
                let quiet: Vec<Move> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| pos.piece_on(m.to()).is_none())
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                let mv = quiet[next(quiet.len())];
                game_core::Position::play(&mut pos, mv);
                moves.push(mv.to_string());
            }
            if moves.len() == 4 && pos.game_end().is_none() {
                let words: Vec<&str> = moves.iter().map(String::as_str).collect();
                return opening_of(base, START_FEN, &words);
            }
        }
    }
}

/// The opening from `fen` and ICCS `moves`, labelled `startpos`, the moves, or the FEN and
/// its moves.
fn opening_of(base: &Setup, fen: &str, moves: &[&str]) -> Opening {
    let label = if fen == START_FEN {
        if moves.is_empty() {
            "startpos".to_string()
        } else {
            moves.join(" ")
        }
    } else if moves.is_empty() {
        fen.to_string()
    } else {
        format!("{fen} moves {}", moves.join(" "))
    };
    Opening {
        setup: Setup {
            fen: Some(fen.to_string()),
            moves: Some(moves.join(" ")),
            ..base.clone()
        },
        label,
    }
}

/// A piece's English name and its Chinese character: the simplified characters of the
/// Chinese move notation ([`Position::format_chinese`](crate::Position::format_chinese)), so
/// that the board and the move list name a piece alike. Red's king, advisors, elephants and
/// pawns have characters of their own (帅仕相兵, Black 将士象卒); horses, rooks and cannons
/// (马车炮) are told apart by colour, as on mainland boards.
fn names(kind: PieceKind, side: Side) -> (&'static str, char) {
    let red = side == Side::First;
    let pick = |r: char, b: char| if red { r } else { b };
    match kind {
        PieceKind::King => ("king", pick('帅', '将')),
        PieceKind::Advisor => ("advisor", pick('仕', '士')),
        PieceKind::Elephant => ("elephant", pick('相', '象')),
        PieceKind::Horse => ("horse", '马'),
        PieceKind::Rook => ("rook", '车'),
        PieceKind::Cannon => ("cannon", '炮'),
        PieceKind::Pawn => ("pawn", pick('兵', '卒')),
    }
}

impl Rules for Position {
    fn score_in_centipawns(&self) -> bool {
        true
    }

    type Engine = Searcher<Position, Eval>;

    fn new_engine(config: &EngineConfig) -> Self::Engine {
        Searcher::new(Eval, crate::search_options(config.hash_mib, config.threads))
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

    /// Levels: [`LevelSettings::standard`] with a unit of 30, a pawn and a half (a horse is 100).
    fn level_settings(pick: LevelPick) -> LevelSettings {
        LevelSettings::standard(pick, 30)
    }

    fn game_name(&self) -> &'static str {
        "xiangqi"
    }

    fn record_game(&self) -> &'static str {
        "Chinese Chess"
    }

    fn move_help(&self) -> String {
        "h2e2 (ICCS: from and to squares), C2.5 (WXF), or the Chinese notation 炮二平五".to_string()
    }

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Red",
            Side::Second => "Black",
        }
    }

    /// The reason names the no-capture limit in force (60 moves by default, `--no-capture-plies`
    /// or a record's tag otherwise).
    fn ending(&self) -> Option<Ending> {
        self.game_end().map(|(outcome, reason)| Ending {
            outcome,
            reason: match reason {
                EndReason::Checkmate => "checkmate".to_string(),
                EndReason::Stalemate => "stalemate: no legal move".to_string(),
                EndReason::PerpetualCheck => "perpetual check".to_string(),
                EndReason::PerpetualChase => "perpetual chase".to_string(),
                EndReason::Repetition => "repetition".to_string(),
                EndReason::NoCaptureLimit => no_capture_text(self.no_capture_limit()),
            },
        })
    }

    /// Files `a`..`i` from Red's left, ranks `9` (top) to `0`; the river below rank 5, the
    /// palaces, the last move's from and to squares, and the king in check.
    fn board(&self, last: &[Move]) -> BoardView {
        let files = (0..9).map(|f| ((b'a' + f) as char).to_string()).collect();
        let rows = (0..10).rev().map(|r: u8| r.to_string()).collect();
        let mut view = BoardView::new(9, 10, files, rows);
        let cell = |file: u8, rank: u8| (usize::from(file), 9 - usize::from(rank));
        for rank in 0..10 {
            for file in 0..9 {
                let piece = self.piece_at(file, rank).map(|p| {
                    let (name, symbol) = names(p.kind, p.side);
                    Piece {
                        side: p.side,
                        name,
                        letter: p.fen_char(),
                        symbol,
                    }
                });
                view.set(cell(file, rank), piece);
            }
        }
        view.last = last
            .iter()
            .flat_map(|m| [m.from(), m.to()])
            .map(|s| cell(s.file(), s.rank()))
            .collect();
        view.river = Some(River {
            rows_above: 5,
            names: ["楚河".to_string(), "汉界".to_string()],
        });
        view.palaces = vec![
            Region {
                from: (3, 0),
                to: (5, 2),
            },
            Region {
                from: (3, 7),
                to: (5, 9),
            },
        ];
        view.wide_symbols = true;
        view.red_first_side = true;
        view.flippable = true;
        view.click = Click::FromTo;
        if self.game_end().is_none() && self.is_check() {
            let king = self.king_square(self.side());
            view.checks = vec![cell(king.file(), king.rank())];
            view.notes
                .push(format!("{} is in check.", Self::side_name(self.side())));
        }
        view
    }

    /// ICCS (`h2e2`, ranks 0..9), the notation of UCCI and of UCI as xiangqi GUIs speak it.
    fn protocol_move(&self, mv: Move, notation: &str) -> Option<String> {
        (notation == "iccs").then(|| mv.to_string())
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

    fn tune_text(&self) -> Option<String> {
        Some(game_core::tune::Tunable::to_text(self))
    }

    fn start_tags(&self) -> Vec<(&'static str, String)> {
        vec![("Format", "ICCS".to_string()), ("FEN", self.to_fen())]
    }

    fn record_turns(_start: &Self, turns: &[Vec<Move>]) -> Vec<String> {
        turns
            .iter()
            .map(|t| t.iter().map(|&m| Position::format_iccs_dashed(m)).collect())
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

    fn turn_notations(&self, turn: &[Move]) -> Vec<(&'static str, String)> {
        turn.first().map_or_else(Vec::new, |&mv| {
            vec![
                ("ICCS", game_core::Position::format_move(self, mv)),
                ("WXF", self.format_wxf(mv)),
                ("Chinese", self.format_chinese(mv)),
            ]
        })
    }

    fn record_comment(start: &Self, turns: &[Vec<Move>]) -> Option<String> {
        if turns.is_empty() {
            return None;
        }
        let mut pos = start.clone();
        let mut words = Vec::new();
        for &mv in turns.iter().flatten() {
            words.push(pos.format_wxf(mv));
            game_core::Position::play(&mut pos, mv);
        }
        Some(format!("WXF: {}", words.join(" ")))
    }
}

/// The ending text of the no-capture rule for a limit of `plies` plies: `60 moves without a
/// capture` for 120 plies; an odd limit is given in plies (`101 plies without a capture`).
fn no_capture_text(plies: u16) -> String {
    if plies % 2 == 0 {
        format!("{} moves without a capture", plies / 2)
    } else {
        format!("{plies} plies without a capture")
    }
}
