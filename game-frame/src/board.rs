//! A board described as data ([`BoardView`]): what a front end draws, whatever the game.
//! The terminal renderer ([`crate::render`](mod@crate::render)) and the web page draw every game from it; no
//! game draws itself.

use game_core::Side;

/// A piece or a stone on a cell.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Whose it is.
    pub side: Side,
    /// What it is, in English (`stone`, `rook`, `cannon`).
    pub name: &'static str,
    /// Its letter for plain text (`X`/`O` stones; FEN letters, upper case for the first side).
    pub letter: char,
    /// Its symbol for Unicode displays (`●`/`○`; Chinese characters for xiangqi).
    pub symbol: char,
}

/// A cell of the board: `file` from the left, `row` from the top, as the first side sees the
/// board (the first side at the bottom).
pub type Cell = (usize, usize);

/// How a click on the board names a move, so that a graphical front end can send it as text
/// (the game then reads it as a person's move: refused with the reason when illegal).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Click {
    /// A click on a point places a stone there: the move is the point's file label followed
    /// by its row label (`h8`, `j10`). A connect6 turn is two such clicks, played one by one.
    Point,
    /// A click anywhere in a file drops a stone into it: the move is the file label (`4`).
    Column,
    /// A click on a piece, then one on its target: the move is both cells' names, each file
    /// label then row label (xiangqi ICCS `h2e2`).
    FromTo,
}

/// A rectangle of cells (xiangqi's palaces): the top-left cell and the bottom-right one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// Top-left cell.
    pub from: Cell,
    /// Bottom-right cell (inclusive).
    pub to: Cell,
}

/// A river across the board between two rows (xiangqi's 楚河 汉界).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct River {
    /// The number of rows above it, as the first side sees the board (xiangqi: 5).
    pub rows_above: usize,
    /// Its two names, left half and right half (`楚河`, `汉界`).
    pub names: [String; 2],
}

/// The board at one moment, as data: its size, the pieces on its cells, coordinate labels, the
/// marks a player needs (last turn, forbidden points, a king in check) and the board's lines.
/// Every cell is an intersection of the grid (go-like boards and xiangqi alike).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// Number of files (columns).
    pub files: usize,
    /// Number of rows.
    pub rows: usize,
    /// `files * rows` cells, row by row from the top, each row from the left.
    pub cells: Vec<Option<Piece>>,
    /// The label of each file, left to right (`a`, `b`, ... or `1`, `2`, ...).
    pub file_labels: Vec<String>,
    /// The label of each row, top to bottom (`15` ... `1`; xiangqi `9` ... `0`).
    pub row_labels: Vec<String>,
    /// The cells the last turn changed (stones placed; a move's from and to squares).
    pub last: Vec<Cell>,
    /// Empty cells with a warning mark (renju: Black's forbidden points).
    pub hints: Vec<Cell>,
    /// What a hint mark means, for a legend (`forbidden for Black under renju`).
    pub hint_meaning: Option<String>,
    /// Cells of a king in check.
    pub checks: Vec<Cell>,
    /// The cells of the line that won the game (five, six or four in a row), if one did
    /// ([`BoardView::mark_winning_line`]).
    pub winning: Vec<Cell>,
    /// A river across the board (xiangqi), if it has one.
    pub river: Option<River>,
    /// Palaces drawn with diagonals (xiangqi).
    pub palaces: Vec<Region>,
    /// Whether the symbols are wide (two terminal columns: Chinese characters).
    pub wide_symbols: bool,
    /// Whether the first side's pieces are drawn in red (xiangqi's Red); otherwise the last
    /// turn's stones are.
    pub red_first_side: bool,
    /// Whether the board may be shown from the second side (xiangqi); stone boards look the
    /// same from both sides.
    pub flippable: bool,
    /// Lines of text shown under the board (`White places 2 stones this turn.`).
    pub notes: Vec<String>,
    /// How a click names a move ([`Click::Point`] unless the game says otherwise).
    pub click: Click,
}

impl BoardView {
    /// An empty board of `files` x `rows` with the labels given and nothing else set.
    ///
    /// # Panics
    /// If the label counts do not match the size.
    #[must_use]
    pub fn new(
        files: usize,
        rows: usize,
        file_labels: Vec<String>,
        row_labels: Vec<String>,
    ) -> Self {
        assert_eq!(file_labels.len(), files, "one label a file");
        assert_eq!(row_labels.len(), rows, "one label a row");
        BoardView {
            files,
            rows,
            cells: vec![None; files * rows],
            file_labels,
            row_labels,
            last: Vec::new(),
            hints: Vec::new(),
            hint_meaning: None,
            checks: Vec::new(),
            winning: Vec::new(),
            river: None,
            palaces: Vec::new(),
            wide_symbols: false,
            red_first_side: false,
            flippable: false,
            notes: Vec::new(),
            click: Click::Point,
        }
    }

    /// A square stone board of `size` with files `a`.. and rows numbered from the bottom
    /// (`size` at the top, `1` at the bottom), the labels of gomoku and connect6.
    #[must_use]
    pub fn lettered(size: usize) -> Self {
        let files = (0..size)
            .map(|x| ((b'a' + x as u8) as char).to_string())
            .collect();
        let rows = (0..size).map(|y| (size - y).to_string()).collect();
        BoardView::new(size, size, files, rows)
    }

    /// The piece on `cell`, if any.
    #[must_use]
    pub fn piece(&self, (file, row): Cell) -> Option<Piece> {
        self.cells.get(row * self.files + file).copied().flatten()
    }

    /// Marks the line the last turn won with ([`BoardView::winning`]): every run of one
    /// side's pieces through a cell of [`BoardView::last`], along a row, a column or a
    /// diagonal, at least `length` long (exactly `length` when `exact`: renju's Black and
    /// standard gomoku win with five, not more). For games that end as soon as a line is
    /// made; call it when the game ended with a win.
    pub fn mark_winning_line(&mut self, length: usize, exact: bool) {
        const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
        let last = self.last.clone();
        for cell in last {
            let Some(piece) = self.piece(cell) else {
                continue;
            };
            for (dx, dy) in DIRECTIONS {
                let mut run = vec![cell];
                for sign in [1, -1] {
                    let mut at = cell;
                    while let Some(next) = self.step(at, sign * dx, sign * dy)
                        && self.piece(next).is_some_and(|p| p.side == piece.side)
                    {
                        run.push(next);
                        at = next;
                    }
                }
                let wins = if exact {
                    run.len() == length
                } else {
                    run.len() >= length
                };
                if wins {
                    for c in run {
                        if !self.winning.contains(&c) {
                            self.winning.push(c);
                        }
                    }
                }
            }
        }
        self.winning.sort_unstable();
    }

    /// The cell one step of `(dx, dy)` from `cell`, if on the board.
    fn step(&self, (file, row): Cell, dx: isize, dy: isize) -> Option<Cell> {
        let file = file.checked_add_signed(dx).filter(|&f| f < self.files)?;
        let row = row.checked_add_signed(dy).filter(|&r| r < self.rows)?;
        Some((file, row))
    }

    /// Puts `piece` on `cell`.
    ///
    /// # Panics
    /// If the cell is off the board.
    pub fn set(&mut self, (file, row): Cell, piece: Option<Piece>) {
        assert!(file < self.files && row < self.rows, "cell on the board");
        self.cells[row * self.files + file] = piece;
    }
}

/// A stone of `side`: `●`/`X` for the first side (Black), `○`/`O` for the second (White).
#[must_use]
pub fn stone(side: Side) -> Piece {
    match side {
        Side::First => Piece {
            side,
            name: "stone",
            letter: 'X',
            symbol: '●',
        },
        Side::Second => Piece {
            side,
            name: "stone",
            letter: 'O',
            symbol: '○',
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 7x7 board with `first` stones for the first side and `second` for the second.
    fn board(first: &[Cell], second: &[Cell]) -> BoardView {
        let mut view = BoardView::lettered(7);
        for &c in first {
            view.set(c, Some(stone(Side::First)));
        }
        for &c in second {
            view.set(c, Some(stone(Side::Second)));
        }
        view
    }

    #[test]
    fn the_winning_line_runs_through_the_last_stone() {
        // A diagonal five ending on the last stone, a broken row beside it.
        let five = [(0, 6), (1, 5), (2, 4), (3, 3), (4, 2)];
        let mut view = board(&five, &[(5, 1), (1, 6), (2, 6)]);
        view.last = vec![(2, 4)];
        view.mark_winning_line(5, true);
        let mut want = five.to_vec();
        want.sort_unstable();
        assert_eq!(view.winning, want);
        // Six stones: an overline wins where more than five wins, not where exactly five.
        let six = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)];
        let mut view = board(&six, &[]);
        view.last = vec![(5, 0)];
        view.mark_winning_line(5, true);
        assert!(view.winning.is_empty());
        view.mark_winning_line(5, false);
        assert_eq!(view.winning, six);
        // A turn of two stones (connect6): the line through either; another side's stone
        // breaks a run.
        let mut view = board(&[(0, 3), (1, 3), (2, 3), (4, 3)], &[(3, 4)]);
        view.last = vec![(3, 4), (4, 3)];
        view.mark_winning_line(4, false);
        assert!(view.winning.is_empty());
        view.set((3, 3), Some(stone(Side::First)));
        view.last = vec![(3, 3)];
        view.mark_winning_line(4, false);
        assert_eq!(view.winning, [(0, 3), (1, 3), (2, 3), (3, 3), (4, 3)]);
    }
}
