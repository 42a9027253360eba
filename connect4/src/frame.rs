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

    fn record_names(&self) -> &'static [&'static str] {
        &["connect four", "connect4"]
    }

    fn record_title(&self) -> &'static str {
        "Connect Four"
    }

    fn side_names(&self) -> [&'static str; 2] {
        ["X", "O"]
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

    /// Levels: [`LevelSettings::standard`] with a unit of 30, half a good threat.
    fn level_settings(pick: LevelPick) -> LevelSettings {
        LevelSettings::standard(pick, 30)
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

    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "X",
            Side::Second => "O",
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
        view
    }

    fn start_tags(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}
