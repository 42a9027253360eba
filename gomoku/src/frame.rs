//! Gomoku and renju in the game frame: [`Rules`] for [`Board`], and the registry entries
//! [`GOMOKU`] (any rule and size) and [`RENJU`] (15x15 under renju rules).

use std::io::{self, BufRead, Write};
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use game_core::zobrist::SplitMix64;
use game_core::{Position, Side};
use game_frame::opening_rule::OpeningRule;
use game_frame::selfplay::{self, Settings, Summary};
use game_frame::{
    BoardView, Budget, Decision, Ending, EngineConfig, FrameError, Game, GameSpec, LevelPick,
    LevelSettings, Opening, Progress, Protocol, Rules, Session, Setup, play_moves, split_points,
    stone, tuning,
};

use crate::board::{Board, EndReason};
use crate::engine::Engine;
use crate::error::GomokuError;
use crate::point::{DEFAULT_SIZE, MAX_SIZE, MIN_SIZE, Point, Rule};
use game_core::search::Limits;

fn usage(msg: impl Into<String>) -> FrameError {
    FrameError::Usage(msg.into())
}

/// The rule named by `--rule`.
fn parse_rule(text: &str) -> Result<Rule, FrameError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "freestyle" => Ok(Rule::Freestyle),
        "standard" => Ok(Rule::Standard),
        "renju" => Ok(Rule::Renju),
        _ => Err(usage(format!(
            "--rule: unknown rule '{text}': expected freestyle, standard or renju"
        ))),
    }
}

/// A registered gomoku variant: `gomoku` (any rule, any size) or `renju` (15x15 renju).
pub struct GomokuSpec {
    renju: bool,
}

/// Gomoku: freestyle by default, `--rule` and `--size` choose.
pub static GOMOKU: GomokuSpec = GomokuSpec { renju: false };

/// Renju: gomoku 15x15 under renju rules.
pub static RENJU: GomokuSpec = GomokuSpec { renju: true };

impl GomokuSpec {
    /// The start position from the setup (setup stones; the moves are played later).
    fn start(&self, args: &Setup) -> Result<Board, FrameError> {
        if args.fen.is_some() {
            return Err(usage(
                "--fen is for xiangqi; gomoku positions use --moves or --black/--white stones",
            ));
        }
        if args.no_capture_plies.is_some() {
            return Err(usage(
                "--no-capture-plies is for xiangqi (the stone games capture nothing)",
            ));
        }
        let asked = args.rule.as_deref().map(parse_rule).transpose()?;
        let rule = match (self.renju, asked) {
            (true, None | Some(Rule::Renju)) => Rule::Renju,
            (true, Some(r)) => {
                return Err(usage(format!(
                    "renju is gomoku 15x15 under renju rules; --rule {r} does not fit (use gomoku \
                     --rule {r})"
                )));
            }
            (false, r) => r.unwrap_or(Rule::Freestyle),
        };
        if self.renju {
            if let Some(n) = args.size.filter(|&n| n != 15) {
                return Err(usage(format!(
                    "renju is gomoku 15x15 under renju rules; --size {n} does not fit (use \
                     gomoku --rule renju --size {n})"
                )));
            }
        }
        let size = args.size.unwrap_or(DEFAULT_SIZE);
        let mut board = Board::new(size, rule).map_err(|e| usage(format!("--size: {e}")))?;
        if args.to_move.is_some() && args.black.is_none() && args.white.is_none() {
            return Err(usage(
                "--to-move is the side to move of a stone setup (--black/--white stones); \
                 from the empty board or after --moves the side to move follows from the moves",
            ));
        }
        if args.black.is_some() || args.white.is_some() || args.to_move.is_some() {
            let stones = |flag: &str, text: &Option<String>| -> Result<Vec<Point>, FrameError> {
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
            let to_move = args
                .to_move
                .as_deref()
                .map(game_frame::stone_side)
                .transpose()
                .map_err(usage)?;
            board = Board::from_stones(size, rule, &black, &white, to_move)
                .map_err(|e| usage(format!("--black/--white: {e}")))?;
        }
        Ok(board)
    }

    /// The game from the setup: its start, then its moves.
    fn session(&self, args: &Setup, config: &EngineConfig) -> Result<Session<Board>, FrameError> {
        let mut game = Session::new(self.start(args)?, config);
        if let Some(m) = &args.moves {
            play_moves(&mut game, &split_points(m))?;
        }
        Ok(game)
    }
}

/// Gomoku's depth of levels 1 to 7. In gomoku depth is what makes a level: over 30 games a
/// pair, levels at the same depth played even whatever their weakness (depth 2 at weakness
/// 110 against 70: 16-13-1; depth 4 at 70 against 45: 14-16), one ply more won 120 to 280
/// Elo (docs/strength-levels.md).
pub const LEVEL_DEPTH: [u32; 7] = [1, 1, 2, 3, 4, 5, 6];

/// Gomoku's weakness of levels 1 to 7 (see [`LEVEL_DEPTH`]).
pub const LEVEL_WEAKNESS: [i32; 7] = [120, 60, 80, 70, 60, 45, 30];

/// Gomoku's unit of levels 1 to 7 (evaluation units; an open three is about 200): level 1
/// forgives deficits of up to an open three and a half, the others half an open three.
pub const LEVEL_UNIT: [i32; 7] = [300, 100, 100, 100, 100, 100, 100];

fn serve_gomocup(input: Box<dyn BufRead + '_>, output: Box<dyn Write + Send>) -> io::Result<()> {
    crate::protocol::gomocup::run(input, output)
}

impl GameSpec for GomokuSpec {
    fn name(&self) -> &'static str {
        if self.renju { "renju" } else { "gomoku" }
    }

    fn summary(&self) -> &'static str {
        if self.renju {
            "Gomoku on 15x15 under renju rules (Black's forbidden points)"
        } else {
            "Five in a row: freestyle, standard or renju rules, boards 5x5 to 26x26 (default \
             15x15 freestyle)"
        }
    }

    fn sizes(&self) -> Option<(RangeInclusive<usize>, usize)> {
        if self.renju {
            None
        } else {
            Some((MIN_SIZE..=MAX_SIZE, DEFAULT_SIZE))
        }
    }

    fn moves_example(&self) -> &'static str {
        "h8g7f6"
    }

    fn record_names(&self) -> &'static [&'static str] {
        if self.renju { &["renju"] } else { &["gomoku"] }
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }

    fn stone_setups(&self) -> bool {
        true
    }

    fn family(&self) -> &'static str {
        "gomoku"
    }

    fn record_title(&self) -> &'static str {
        if self.renju { "Renju" } else { "Gomoku" }
    }

    fn rules(&self) -> &'static [(&'static str, &'static str)] {
        if self.renju {
            &[]
        } else {
            &[
                (
                    "freestyle",
                    "Five or more in a row wins (Gomocup freestyle)",
                ),
                ("standard", "Exactly five wins; six or more wins for nobody"),
                (
                    "renju",
                    "RIF renju: Black's double-three, double-four and overline are forbidden \
                     and lose",
                ),
            ]
        }
    }

    fn build(&self, setup: &Setup, config: &EngineConfig) -> Result<Box<dyn Game>, FrameError> {
        Ok(Box::new(self.session(setup, config)?))
    }

    fn perft(
        &self,
        setup: &Setup,
        depth: u32,
        divide: bool,
    ) -> Result<Vec<(String, u64)>, FrameError> {
        let mut board = self
            .session(setup, &EngineConfig::small())?
            .position()
            .clone();
        Ok(game_frame::perft(&mut board, depth, divide))
    }

    fn bench(&self) -> (Vec<Setup>, u32) {
        let mut positions = vec![
            Setup::moves("h8"),
            Setup::moves("h8i9h9"),
            Setup::moves("h8i9h9h10i8g8"),
        ];
        if !self.renju {
            positions.push(Setup::moves("h8h9i9g7j10k11i7"));
        }
        (positions, 6)
    }

    /// Renju's positions are gomoku's under another rule: `qi bench` counts gomoku once.
    fn in_default_bench(&self) -> bool {
        !self.renju
    }

    fn selfplay(
        &self,
        setup: &Setup,
        settings: &Settings,
        out: &mut (dyn Write + Send),
    ) -> Result<Summary, FrameError> {
        let start = self
            .session(setup, &EngineConfig::small())?
            .position()
            .clone();
        selfplay::run(&start, settings, out)
    }

    fn tune(&self, settings: &tuning::Settings) -> Result<(), FrameError> {
        tuning::run::<Board>(settings)
    }

    fn tune_policy(&self, settings: &tuning::Settings) -> Result<(), FrameError> {
        tuning::run_policy::<Board>(settings)
    }

    fn protocols(&self) -> &'static [Protocol] {
        &[Protocol {
            command: "gomocup",
            serve: serve_gomocup,
            level_line: |l| format!("INFO level {l}"),
        }]
    }

    fn referee_protocols(&self) -> &'static [&'static str] {
        &["gomocup"]
    }

    /// Gomocup offsets from the centre `dx,dy, dx,dy, ...` (y down, centre = floor(N/2)) or
    /// a position string `h8g7f6`, the stones in move order.
    fn opening(&self, line: &str, base: &Setup) -> Result<Opening, FrameError> {
        let board = self.start(base)?;
        let size = board.size();
        let points: Vec<Point> = if line.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            let numbers: Result<Vec<i64>, _> = line
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::parse::<i64>)
                .collect();
            let numbers = numbers.map_err(|_| usage("expected offsets like 0,0, 1,-1, -1,1"))?;
            if numbers.len() % 2 != 0 {
                return Err(usage("an odd number of offsets: expected dx,dy pairs"));
            }
            let (c, n) = ((size / 2) as i64, size as i64);
            let mut points = Vec::new();
            for pair in numbers.chunks(2) {
                let (x, y) = (c + pair[0], c + pair[1]);
                if x < 0 || y < 0 || x >= n || y >= n {
                    return Err(usage(format!(
                        "offset {},{} is off the {n}x{n} board",
                        pair[0], pair[1]
                    )));
                }
                points.push(Point::new(x as usize, y as usize));
            }
            points
        } else {
            board.parse_points(line).map_err(|e| usage(e.to_string()))?
        };
        let label: String = points.iter().map(|&p| board.format_point(p)).collect();
        Ok(Opening::moves(base, &label))
    }

    /// Three stones (Black, White, Black) within 2 points of the centre, none forbidden.
    fn random_opening(&self, base: &Setup, seed: u64) -> Opening {
        let mut rng = SplitMix64::new(seed);
        let mut next = |n: usize| -> usize {
            let (v, r) = rng.next();
            rng = r;
            (v % n as u64) as usize
        };
        let Ok(start) = self.start(base) else {
            return Opening {
                setup: base.clone(),
                label: String::new(),
            };
        };
        loop {
            let c = start.size() / 2;
            let r = 2.min(c);
            let mut b = start.clone();
            let mut stones = Vec::new();
            for _ in 0..3 {
                let p = Point::new(c - r + next(2 * r + 1), c - r + next(2 * r + 1));
                if !b.is_legal(p) {
                    break;
                }
                b.play(p);
                stones.push(p);
            }
            if stones.len() == 3 && b.game_end().is_none() {
                let label: String = stones.iter().map(|&p| b.format_point(p)).collect();
                return Opening::moves(base, &label);
            }
        }
    }
}

impl Rules for Board {
    type Engine = Engine;

    fn new_engine(config: &EngineConfig) -> Engine {
        let mut engine = Engine::new(config.hash_mib);
        engine.set_threads(config.threads);
        engine
    }

    /// The gomoku engine: five, forced block, VCF, VCF defence, VCT, then the shared search.
    fn think(
        engine: &mut Engine,
        position: &Self,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress<Point>),
    ) -> Decision<Point> {
        let mut limits = Limits {
            depth: budget.depth,
            nodes: budget.nodes,
            ..budget.time.map(Limits::time).unwrap_or_default()
        };
        if let (None, Some(clock)) = (budget.time, &budget.clock) {
            let empty = position.size() * position.size() - position.stone_count();
            let (soft, hard) = crate::protocol::gomocup::clock_budget(clock, empty);
            limits.soft_time = Some(soft);
            limits.hard_time = Some(hard);
        }
        let start = Instant::now();
        let result = engine.think_at(position, &limits, budget.multipv, budget.level, stop, |p| {
            progress(&Progress {
                depth: p.depth,
                score: p.score,
                nodes: p.nodes,
                time_ms: p.time_ms,
                pv: p.pv.clone(),
            });
        });
        let (best, score, pv) = (result.best_move, result.score, result.pv);
        Decision {
            turn: best.into_iter().collect(),
            score,
            depth: result.depth,
            nodes: result.nodes,
            time_ms: start.elapsed().as_millis() as u64,
            pv: if pv.is_empty() {
                best.into_iter().collect()
            } else {
                pv
            },
            lines: result.lines,
            reason: None,
        }
    }

    /// Black's forbidden points under renju (RIF rules, articles 9.2-9.4): the rules make
    /// such a move lose at once; a person is told the rule instead.
    fn foul(&self, turn: &[Point]) -> Option<String> {
        let &[p] = turn else { return None };
        if self.rule() != Rule::Renju || self.side_to_move() != Side::First {
            return None;
        }
        let kind = self.forbidden_kind(p)?;
        Some(format!(
            "{} is forbidden for Black under renju ({kind}): it would lose the game at once; \
             play another point",
            self.format_point(p)
        ))
    }

    /// Swap2 (freestyle and standard), Taraguchi-10 and the RIF rule (renju), and renju's
    /// centre start ([`crate::opening`]).
    fn opening_rules(&self) -> Vec<(&'static str, &'static str)> {
        crate::opening::rules_for(self.rule())
    }

    fn opening_rule(&self, name: &str) -> Option<Box<dyn OpeningRule<Self>>> {
        crate::opening::boxed(self, name)
    }

    /// Gomoku levels: [`LevelSettings::standard`] with a unit of 100 (half an open three)
    /// and gomoku's own depths, weaknesses and units ([`LEVEL_DEPTH`], [`LEVEL_WEAKNESS`],
    /// [`LEVEL_UNIT`]): below
    /// level 5 no VCF or VCT search, a five and the block of a four still seen.
    fn level_settings(pick: LevelPick) -> LevelSettings {
        let mut settings = LevelSettings::standard(pick, 100);
        if !pick.level.is_full() {
            let i = usize::from(pick.level.get() - 1);
            settings.depth = Some(LEVEL_DEPTH[i]);
            if let Some(skill) = settings.skill.as_mut() {
                skill.weakness = LEVEL_WEAKNESS[i];
                skill.unit = LEVEL_UNIT[i];
            }
        }
        settings
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
                 three, double four,\noverline): the rules make one lose at once, so qi refuses \
                 it and names the rule.",
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

    /// The stones, the last one marked, and under renju Black's forbidden points when Black
    /// is to move.
    fn board(&self, last: &[Point]) -> BoardView {
        let size = self.size();
        let mut view = BoardView::lettered(size);
        for y in 0..size {
            for x in 0..size {
                view.set((x, y), self.stone_at(x, y).map(stone));
            }
        }
        view.last = last.iter().map(|p| (p.x(), p.y())).collect();
        if self.rule() == Rule::Renju
            && self.side_to_move() == Side::First
            && self.game_end().is_none()
        {
            view.hints = self
                .forbidden_points()
                .iter()
                .map(|(p, _)| (p.x(), p.y()))
                .collect();
            view.hint_meaning = Some("forbidden for Black under renju".to_string());
        }
        match self.game_end() {
            Some((_, EndReason::Five)) => view.mark_winning_line(5, true),
            Some((_, EndReason::Overline)) => view.mark_winning_line(6, false),
            _ => {}
        }
        view
    }

    /// A forbidden Black move under renju, in either notation (`h8` or Gomocup `x,y`), is read
    /// (and then loses), not refused.
    fn parse_turn(&self, text: &str) -> Result<Vec<Point>, String> {
        match self.parse_move(text) {
            Ok(p) => Ok(vec![p]),
            Err(GomokuError::Forbidden { .. }) => {
                let p = self.parse_coordinates(text).map_err(|e| e.to_string())?;
                Ok(vec![p])
            }
            Err(e) => Err(e.to_string()),
        }
    }

    /// Gomocup coordinates `x,y` (0-based, `0,0` top-left).
    fn protocol_move(&self, mv: Point, notation: &str) -> Option<String> {
        (notation == "gomocup").then(|| format!("{},{}", mv.x(), mv.y()))
    }

    fn play_input(&mut self, mv: Point) {
        // Checked already by parse_turn; a forbidden move ends the game.
        let _ = self.play_checked(mv);
    }

    fn tune_text(&self) -> Option<String> {
        Some(game_core::tune::Tunable::to_text(self))
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
