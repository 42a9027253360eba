//! Tic-tac-toe for unit tests of the frame and the play loop (test builds only).

use std::sync::atomic::AtomicBool;

use game_core::search::{SearchOptions, Searcher};
use game_core::zobrist::SplitMix64;
use game_core::{Move, Outcome, Position, Score, Side};

use game_frame::{
    BoardView, Budget, Decision, Ending, EngineConfig, Progress, Rules, search_turn, stone,
};

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Square(pub u8);

impl Move for Square {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

const KEYS: [u64; 19] = SplitMix64::new(3).table();
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Debug)]
pub struct TicTacToe {
    cells: [Option<Side>; 9],
    to_move: Side,
    key: u64,
}

impl TicTacToe {
    pub fn new() -> Self {
        TicTacToe {
            cells: [None; 9],
            to_move: Side::First,
            key: 0,
        }
    }
    fn winner(&self) -> Option<Side> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]]?;
            (self.cells[l[1]] == Some(c) && self.cells[l[2]] == Some(c)).then_some(c)
        })
    }
}

#[derive(Debug, thiserror::Error)]
#[error("bad square '{0}': expected a free square 1..9")]
pub struct BadSquare(String);

impl Position for TicTacToe {
    type Move = Square;
    type MoveError = BadSquare;
    fn side_to_move(&self) -> Side {
        self.to_move
    }
    fn generate_moves(&self, moves: &mut Vec<Square>) -> Option<Outcome> {
        moves.clear();
        if let Some(side) = self.winner() {
            return Some(Outcome::Win(side));
        }
        moves.extend(
            (0..9)
                .filter(|&i| self.cells[i as usize].is_none())
                .map(Square),
        );
        moves.is_empty().then_some(Outcome::Draw)
    }
    fn play(&mut self, sq: Square) {
        self.cells[usize::from(sq.0)] = Some(self.to_move);
        self.key ^= KEYS[self.to_move.index() * 9 + usize::from(sq.0)] ^ KEYS[18];
        self.to_move = self.to_move.opponent();
    }
    fn undo(&mut self, sq: Square) {
        self.to_move = self.to_move.opponent();
        self.key ^= KEYS[self.to_move.index() * 9 + usize::from(sq.0)] ^ KEYS[18];
        self.cells[usize::from(sq.0)] = None;
    }
    fn key(&self) -> u64 {
        self.key
    }
    fn parse_move(&self, text: &str) -> Result<Square, BadSquare> {
        match text.trim().parse::<u8>() {
            Ok(n @ 1..=9) if self.cells[usize::from(n - 1)].is_none() => Ok(Square(n - 1)),
            _ => Err(BadSquare(text.trim().to_string())),
        }
    }
    fn format_move(&self, sq: Square) -> String {
        (sq.0 + 1).to_string()
    }
}

fn open_lines(pos: &TicTacToe) -> Score {
    let open = |side: Side| {
        LINES
            .iter()
            .filter(|l| l.iter().all(|&i| pos.cells[i] != Some(side.opponent())))
            .count()
    };
    let me = pos.side_to_move();
    open(me) as Score - open(me.opponent()) as Score
}

type Eval = fn(&TicTacToe) -> Score;

impl Rules for TicTacToe {
    type Engine = Searcher<TicTacToe, Eval>;
    fn new_engine(config: &EngineConfig) -> Self::Engine {
        Searcher::new(
            open_lines as Eval,
            SearchOptions {
                hash_mib: config.hash_mib,
                ..SearchOptions::default()
            },
        )
    }
    fn think(
        engine: &mut Self::Engine,
        position: &Self,
        budget: &Budget,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Progress<Square>),
    ) -> Decision<Square> {
        search_turn(engine, position, budget, stop, progress)
    }
    fn game_name(&self) -> &'static str {
        "tictactoe"
    }
    fn record_game(&self) -> &'static str {
        "Tic-tac-toe"
    }
    fn move_help(&self) -> String {
        "a square 1..9".to_string()
    }
    fn side_name(side: Side) -> &'static str {
        match side {
            Side::First => "X",
            Side::Second => "O",
        }
    }
    fn ending(&self) -> Option<Ending> {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves).map(|outcome| Ending {
            outcome,
            reason: if outcome == Outcome::Draw {
                "board full".to_string()
            } else {
                "three in a row".to_string()
            },
        })
    }
    fn board(&self, last: &[Square]) -> BoardView {
        let labels = |n: usize| (1..=n).map(|i| i.to_string()).collect();
        let mut view = BoardView::new(3, 3, labels(3), labels(3));
        for i in 0..9 {
            view.set((i % 3, i / 3), self.cells[i].map(stone));
        }
        view.last = last
            .iter()
            .map(|s| (s.0 as usize % 3, s.0 as usize / 3))
            .collect();
        view
    }
    fn start_tags(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}
