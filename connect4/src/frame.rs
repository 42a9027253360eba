//! Connect Four in the game frame: [`Rules`] for [`ConnectFour`] and the registry entry
//! [`CONNECT4`]. This file and the registry line are all it takes to give Connect Four every
//! generic command of `qi` (docs/adding-a-game.md walks through it).

use std::sync::atomic::AtomicBool;

use game_core::search::{SearchOptions, Searcher};
use game_core::{Outcome, Side};
use game_frame::{
    BoardView, Budget, Click, Decision, Ending, EngineConfig, FrameError, Game, GameSpec,
    LevelPick, LevelSettings, Progress, Rules, Session, Setup, play_moves, search_turn,
    split_turns, stone,
};

use crate::board::{Column, ConnectFour};
use crate::eval::Evaluator;

/// Connect Four's deepest iteration of levels 1 to 7 (plies). Odd depths: with the shared
/// table (1 1 2 3 4 5 6) a level at an even depth played even with the odd depth below it
/// (steps of 0 and 35 Elo, docs/strength-levels.md), as the side to move's own last ply is
/// what a horizon in Connect Four sees; the levels in between differ in their choice.
pub const LEVEL_DEPTH: [u32; 7] = [1, 1, 3, 3, 5, 7, 9];

/// Connect Four's weakness of levels 1 to 7 (see [`LEVEL_DEPTH`]): at one depth the weaker
/// choice is the step.
pub const LEVEL_WEAKNESS: [i32; 7] = [120, 40, 100, 30, 60, 40, 20];

fn usage(msg: impl Into<String>) -> FrameError {
    FrameError::Usage(msg.into())
}

/// The registered Connect Four game (7 columns x 6 rows).
pub struct Connect4Spec;

/// Connect Four: drop stones into 7 columns of 6 rows, four in a row wins.
pub static CONNECT4: Connect4Spec = Connect4Spec;

impl Connect4Spec {
    /// The game from the setup: the empty 7x6 board, then the moves (one column a character:
    /// `4453`, or `4 4 5 3`).
    fn session(args: &Setup, config: &EngineConfig) -> Result<Session<ConnectFour>, FrameError> {
        let given = [
            ("--fen", args.fen.is_some()),
            ("--rule", args.rule.is_some()),
            ("--size", args.size.is_some()),
            ("--no-capture-plies", args.no_capture_plies.is_some()),
            ("--black", args.black.is_some()),
            ("--white", args.white.is_some()),
            ("--to-move", args.to_move.is_some()),
        ];
        if let Some((flag, _)) = given.iter().find(|(_, on)| *on) {
            return Err(usage(format!(
                "{flag}: does not fit connect4, which is 7 columns x 6 rows with one rule and no \
                 setup: a position is reached by its moves, --moves 4453 (columns 1..7)"
            )));
        }
        let mut game = Session::new(ConnectFour::standard(), config);
        if let Some(m) = &args.moves {
            let tokens: Vec<String> = split_turns(m)
                .iter()
                .flat_map(|t| t.chars().map(String::from))
                .collect();
            play_moves(&mut game, &tokens)?;
        }
        Ok(game)
    }
}

impl GameSpec for Connect4Spec {
    fn name(&self) -> &'static str {
        "connect4"
    }

    fn summary(&self) -> &'static str {
        "Connect Four: drop stones into 7 columns of 6 rows, four in a row wins"
    }

    fn moves_example(&self) -> &'static str {
        "4453"
    }

    fn record_names(&self) -> &'static [&'static str] {
        &["connect four", "connect4"]
    }

    fn record_title(&self) -> &'static str {
        "Connect Four"
    }

    /// Black and White, as the stones are drawn (● and ○; `X` and `O` in plain text).
    fn side_names(&self) -> [&'static str; 2] {
        ["Black", "White"]
    }

    fn build(&self, setup: &Setup, config: &EngineConfig) -> Result<Box<dyn Game>, FrameError> {
        Ok(Box::new(Self::session(setup, config)?))
    }

    fn perft(
        &self,
        setup: &Setup,
        depth: u32,
        divide: bool,
    ) -> Result<Vec<(String, u64)>, FrameError> {
        let mut pos = *Self::session(setup, &EngineConfig::small())?.position();
        Ok(game_frame::perft(&mut pos, depth, divide))
    }

    fn bench(&self) -> (Vec<Setup>, u32) {
        (
            vec![
                Setup::default(),
                Setup::moves("4453"),
                Setup::moves("44433"),
            ],
            12,
        )
    }

    /// A new game; the total signature of `qi bench` stays the three original games'.
    fn in_default_bench(&self) -> bool {
        false
    }
}

impl Rules for ConnectFour {
    type Engine = Searcher<ConnectFour, Evaluator>;

    fn new_engine(config: &EngineConfig) -> Self::Engine {
        Searcher::new(
            Evaluator,
            SearchOptions {
                hash_mib: config.hash_mib,
                threads: config.threads,
                ..SearchOptions::default()
            },
        )
    }

    fn think(
        engine: &mut Self::Engine,
        position: &Self,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress<Column>),
    ) -> Decision<Column> {
        search_turn(engine, position, budget, stop, progress)
    }

    /// Levels: [`LevelSettings::standard`] with a unit of 30 (half a good threat) and Connect
    /// Four's own depths and weaknesses ([`LEVEL_DEPTH`], [`LEVEL_WEAKNESS`]).
    fn level_settings(pick: LevelPick) -> LevelSettings {
        let mut settings = LevelSettings::standard(pick, 30);
        if !pick.level.is_full() {
            let i = usize::from(pick.level.get() - 1);
            settings.depth = Some(LEVEL_DEPTH[i]);
            if let Some(skill) = settings.skill.as_mut() {
                skill.weakness = LEVEL_WEAKNESS[i];
            }
        }
        settings
    }

    fn game_name(&self) -> &'static str {
        "connect4"
    }

    fn record_game(&self) -> &'static str {
        "Connect Four"
    }

    fn move_help(&self) -> String {
        format!(
            "a column: 4 (numbers 1..{} from the left, or letters a..{}); the stone falls to \
             the lowest empty cell",
            self.width(),
            (b'a' + self.width() as u8 - 1) as char
        )
    }

    /// Black and White, as the stones are drawn (see [`Connect4Spec`]'s side names).
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "Black",
            Side::Second => "White",
        }
    }

    fn ending(&self) -> Option<Ending> {
        self.game_end().map(|outcome| Ending {
            outcome,
            reason: match outcome {
                Outcome::Win(_) => "four in a row",
                Outcome::Draw => "the board is full",
            }
            .to_string(),
        })
    }

    /// Columns numbered from 1 on the left, rows from 1 at the bottom; the last stone marked.
    fn board(&self, last: &[Column]) -> BoardView {
        let (w, h) = (self.width(), self.height());
        let files = (1..=w).map(|c| c.to_string()).collect();
        let rows = (1..=h).rev().map(|r| r.to_string()).collect();
        let mut view = BoardView::new(w, h, files, rows);
        view.click = Click::Column;
        for row in 0..h {
            for col in 0..w {
                view.set((col, h - 1 - row), self.stone(col, row).map(stone));
            }
        }
        // The last stone sits on top of its column.
        view.last = last
            .iter()
            .filter_map(|c| {
                let height = self.column_height(c.index());
                (height > 0).then(|| (c.index(), h - height))
            })
            .collect();
        if matches!(self.game_end(), Some(Outcome::Win(_))) {
            view.mark_winning_line(4, false);
        }
        view
    }

    fn start_tags(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}
