//! The board: stones, rules, incremental line patterns, point classes, Zobrist key, forbidden
//! points and the end of the game.

use std::fmt;

use game_core::zobrist::SplitMix64;
use game_core::{Outcome, Side};

use crate::class_table::{ClassEntry, class_table};
use crate::error::GomokuError;
use crate::forbidden::ForbiddenKind;
use crate::pattern::{CLASSES, Class, LineRule, POW3, Pattern, ValueKind, line_table};
use crate::point::{
    CELLS, DEFAULT_SIZE, DIRS, MAX_SIZE, MIN_SIZE, Point, Rule, STRIDE, parse_coord_prefix,
};
use crate::weights::WEIGHTS;

mod search;

const EMPTY: u8 = 0;
const WALL: u8 = 3;

/// Cell colour of a side's stone: 1 Black (first), 2 White (second).
#[inline]
const fn stone(side: usize) -> u8 {
    side as u8 + 1
}

static ZOBRIST: [u64; 2 * CELLS + 1] = SplitMix64::new(0x676f_6d6f_6b75).table();

/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Exactly five in a row (or five where five or more wins).
    Five,
    /// Six or more in a row, winning where five or more wins (freestyle; White under renju).
    Overline,
    /// Black played a forbidden point under renju and lost.
    Forbidden(ForbiddenKind),
    /// The board is full with no winner.
    BoardFull,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::Five => f.write_str("five in a row"),
            EndReason::Overline => f.write_str("six or more in a row"),
            EndReason::Forbidden(kind) => write!(f, "forbidden move ({kind})"),
            EndReason::BoardFull => f.write_str("the board is full"),
        }
    }
}

/// Per point incremental data.
#[derive(Copy, Clone, Default)]
#[repr(C, align(32))]
struct PointData {
    /// Base-3 line keys per direction and per side view.
    key: [[u16; 2]; 4],
    /// The four direction patterns packed 4 bits each, per side.
    comb: [u16; 2],
    /// Evaluation value per side (from the class table).
    value: [i16; 2],
    /// Class per side.
    class: [u8; 2],
}

/// A gomoku / renju board with its rule, the side to move and the move history.
///
/// Square, `size` 5 to 26. Points are [`Point`]s (Gomocup `x,y` from the top-left); human
/// notation `h8` (column letter from `a`, no letter skipped, row 1 at the bottom). Every empty
/// point keeps, per side and per direction, the line pattern a stone there would make, updated
/// incrementally on [`place`](Board::place)/[`remove`](Board::remove), and the point class
/// combining its four directions.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    colors: Box<[u8; CELLS]>,
    data: Box<[PointData; CELLS]>,
    counts: [[u16; CLASSES]; 2],
    value: [i32; 2],
    /// Stone counts of every 5-cell window, per direction and first cell: Black in the low
    /// nibble, White in the high one (`0x55` for windows that leave the board: mixed, worth
    /// nothing).
    windows: Box<[u8]>,
    /// Number of stones in the candidate area of each cell (two points in a square, three
    /// along the lines).
    near: Box<[u8; CELLS]>,
    /// Sum of the window values, Black's view: every five-cell window holding one colour only,
    /// scored by its shape (the classic window evaluation, e.g. the post "C++五子棋AI", 2022).
    window_score: i32,
    key: u64,
    side: Side,
    history: Vec<Point>,
    empties: usize,
    end: Option<(Outcome, EndReason)>,
    /// Length of the history when the game ended (an undo below it reopens the game).
    end_ply: usize,
    lines: [&'static [u8]; 2],
    classes: [&'static [ClassEntry]; 2],
}

impl Board {
    /// An empty board of `size` x `size` under `rule`, Black to move.
    ///
    /// # Errors
    /// [`GomokuError::BadSize`] unless `5 <= size <= 26`.
    pub fn new(size: usize, rule: Rule) -> Result<Board, GomokuError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GomokuError::BadSize(size));
        }
        let lr = match rule {
            Rule::Freestyle => [LineRule::Free, LineRule::Free],
            Rule::Standard => [LineRule::Exact, LineRule::Exact],
            Rule::Renju => [LineRule::RenjuBlack, LineRule::Free],
        };
        let mut board = Board {
            size,
            rule,
            colors: Box::new([WALL; CELLS]),
            data: Box::new([PointData::default(); CELLS]),
            counts: [[0; CLASSES]; 2],
            value: [0; 2],
            windows: vec![0x55u8; 4 * CELLS].into_boxed_slice(),
            near: Box::new([0; CELLS]),
            window_score: 0,
            key: 0,
            side: Side::First,
            history: Vec::with_capacity(size * size),
            empties: size * size,
            end: None,
            end_ply: 0,
            lines: [line_table(lr[0]), line_table(lr[1])],
            classes: [
                class_table(ValueKind::of(rule, Side::First)),
                class_table(ValueKind::of(rule, Side::Second)),
            ],
        };
        for y in 0..size {
            for x in 0..size {
                board.colors[Point::new(x, y).idx()] = EMPTY;
            }
        }
        let all: Vec<usize> = board.points_idx().collect();
        for &i in &all {
            for d in 0..4 {
                if (0..5).all(|j| board.colors[i + j * DIRS[d]] == EMPTY) {
                    board.windows[d * CELLS + i] = 0;
                }
            }
        }
        for i in all {
            for d in 0..4 {
                for s in 0..2 {
                    board.data[i].key[d][s] = board.scan_key(i, d, s) as u16;
                }
            }
            board.refresh_point(i);
            for s in 0..2 {
                let e = board.data[i];
                board.counts[s][e.class[s] as usize] += 1;
                board.value[s] += e.value[s] as i32;
            }
        }
        Ok(board)
    }

    /// The default board: 15x15 freestyle.
    #[must_use]
    pub fn default_board() -> Board {
        Board::new(DEFAULT_SIZE, Rule::Freestyle).expect("default size is valid")
    }

    /// A board after the moves of a position string like `h8g7f6` (Black first, alternating).
    ///
    /// # Errors
    /// Unreadable or off-board coordinates, an occupied point, a move after the game ended. Under
    /// renju a forbidden Black move is played and ends the game (see [`Board::play_checked`]).
    pub fn from_moves(size: usize, rule: Rule, moves: &str) -> Result<Board, GomokuError> {
        let mut board = Board::new(size, rule)?;
        for p in board.parse_points(moves)? {
            board.play_checked(p)?;
        }
        Ok(board)
    }

    /// A board with the given stone sets and side to move (`None`: Black if the counts are
    /// equal, else White). No win is checked for the stones themselves (see [`Board::game_end`]
    /// for what the position already shows).
    ///
    /// # Errors
    /// [`GomokuError::BadSize`]; [`GomokuError::OffBoard`] for a point outside the board;
    /// [`GomokuError::BadPosition`] for a point given twice.
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Point],
        white: &[Point],
        to_move: Option<Side>,
    ) -> Result<Board, GomokuError> {
        let mut board = Board::new(size, rule)?;
        for (side, set) in [(Side::First, black), (Side::Second, white)] {
            for &p in set {
                if !board.on_board(p) {
                    return Err(GomokuError::OffBoard {
                        text: format!("{},{}", p.x(), p.y()),
                        size,
                    });
                }
                if !board.is_empty(p) {
                    return Err(GomokuError::BadPosition(format!(
                        "{} given twice",
                        board.format_point(p)
                    )));
                }
                board.place(p, side);
            }
        }
        board.side = to_move.unwrap_or(if black.len() == white.len() {
            Side::First
        } else {
            Side::Second
        });
        if board.side == Side::Second {
            board.key ^= ZOBRIST[2 * CELLS];
        }
        board.history.clear();
        board.end = board.scan_end();
        Ok(board)
    }

    /// Looks for a finished game in the stones alone (a five, a full board).
    fn scan_end(&self) -> Option<(Outcome, EndReason)> {
        for p in self.points() {
            if let Some(s) = self.stone(p) {
                for d in 0..4 {
                    let len = self.run_len(p, d, s.index());
                    if self.is_win_len(len, s) {
                        let reason = if len > 5 {
                            EndReason::Overline
                        } else {
                            EndReason::Five
                        };
                        return Some((Outcome::Win(s), reason));
                    }
                }
            }
        }
        (self.empties == 0).then_some((Outcome::Draw, EndReason::BoardFull))
    }

    fn is_win_len(&self, len: usize, side: Side) -> bool {
        match (self.rule, side) {
            (Rule::Freestyle, _) | (Rule::Renju, Side::Second) => len >= 5,
            _ => len == 5,
        }
    }

    fn run_len(&self, p: Point, d: usize, s: usize) -> usize {
        let c = stone(s);
        let dd = DIRS[d];
        let mut n = 1;
        let mut i = p.idx();
        while self.colors[i + dd] == c {
            n += 1;
            i += dd;
        }
        i = p.idx();
        while self.colors[i - dd] == c {
            n += 1;
            i -= dd;
        }
        n
    }

    // ----- accessors -----

    /// Board size (the board is `size` x `size`).
    #[inline]
    #[must_use]
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule set.
    #[inline]
    #[must_use]
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The side to move (`Side::First` = Black).
    #[inline]
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The moves played since the start (or since [`Board::from_stones`]).
    #[must_use]
    pub fn history(&self) -> &[Point] {
        &self.history
    }

    /// Number of stones on the board.
    #[must_use]
    pub fn stone_count(&self) -> usize {
        self.size * self.size - self.empties
    }

    /// True if `p` lies on this board.
    #[inline]
    #[must_use]
    pub fn on_board(&self, p: Point) -> bool {
        p.x() < self.size && p.y() < self.size
    }

    /// The stone on `p` (`None` for empty or off-board), for drawing.
    #[inline]
    #[must_use]
    pub fn stone(&self, p: Point) -> Option<Side> {
        match self.colors[p.idx()] {
            1 => Some(Side::First),
            2 => Some(Side::Second),
            _ => None,
        }
    }

    /// The stone at column `x`, row `y` (Gomocup coordinates, `y = 0` at the top); `None` for
    /// empty or off-board.
    #[must_use]
    pub fn stone_at(&self, x: usize, y: usize) -> Option<Side> {
        Point::try_new(x, y).and_then(|p| self.stone(p))
    }

    /// True if `p` is on the board and empty.
    #[inline]
    #[must_use]
    pub fn is_empty(&self, p: Point) -> bool {
        self.colors[p.idx()] == EMPTY
    }

    /// All points of the board, row by row from the top-left.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| Point::new(x, y)))
    }

    fn points_idx(&self) -> impl Iterator<Item = usize> + '_ {
        self.points().map(Point::idx)
    }

    /// The 64-bit Zobrist key (stones and side to move).
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from the stones and the side to move alone (the incremental
    /// [`Board::key`] must equal it; conformance tests compare them).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = 0;
        for p in self.points() {
            if let Some(s) = self.stone(p) {
                key ^= ZOBRIST[s.index() * CELLS + p.idx()];
            }
        }
        if self.side == Side::Second {
            key ^= ZOBRIST[2 * CELLS];
        }
        key
    }

    /// The line pattern a stone of `side` placed on the empty point `p` makes along direction
    /// `dir` (0 horizontal, 1 vertical, 2 diagonal, 3 anti-diagonal). Meaningless for occupied points.
    #[inline]
    #[must_use]
    pub fn pattern(&self, p: Point, side: Side, dir: usize) -> Pattern {
        Pattern::from_u8(((self.data[p.idx()].comb[side.index()] >> (4 * dir)) & 15) as u8)
    }

    /// The strongest of the four line patterns a stone of `side` placed on the empty point `p`
    /// would make (the largest [`Pattern`] value). Meaningless for occupied points.
    #[inline]
    #[must_use]
    pub fn best_pattern(&self, p: Point, side: Side) -> Pattern {
        let c = self.data[p.idx()].comb[side.index()];
        let best = (0..4).map(|d| (c >> (4 * d)) & 15).max().unwrap_or(0);
        Pattern::from_u8(best as u8)
    }

    /// The class of the empty point `p` for `side` (the four directions combined).
    #[inline]
    #[must_use]
    pub fn class(&self, p: Point, side: Side) -> Class {
        class_from(self.data[p.idx()].class[side.index()])
    }

    /// The evaluation value of the empty point `p` for `side`.
    #[inline]
    #[must_use]
    pub fn point_value(&self, p: Point, side: Side) -> i32 {
        self.data[p.idx()].value[side.index()] as i32
    }

    /// The ordering value of the empty point `p` for `side` to play there: its `own` value for
    /// `side` plus its `block` value for the opponent ([`crate::policy`]). Meaningless for
    /// occupied points.
    #[inline]
    #[must_use]
    pub fn policy_value(&self, p: Point, side: Side) -> i32 {
        let d = &self.data[p.idx()];
        let (s, o) = (side.index(), side.opponent().index());
        let own = self.classes[s][d.comb[s] as usize].own;
        let block = self.classes[o][d.comb[o] as usize].block;
        i32::from(own) + i32::from(block)
    }

    /// The number of empty points of class `class` for `side`.
    #[inline]
    #[must_use]
    pub fn class_count(&self, side: Side, class: Class) -> u32 {
        self.counts[side.index()][class as usize] as u32
    }

    /// Sum of the values of all empty points for `side` (the evaluation's raw material).
    #[inline]
    #[must_use]
    pub fn total_value(&self, side: Side) -> i32 {
        self.value[side.index()]
    }

    /// True when `side` can make a five with one stone (it has a four on the board).
    #[inline]
    #[must_use]
    pub fn has_five_point(&self, side: Side) -> bool {
        self.counts[side.index()][Class::Five as usize] > 0
    }

    /// True when a stone on the empty `p` makes at least one four (or five) for `side`.
    #[inline]
    #[must_use]
    pub fn makes_four(&self, p: Point, side: Side) -> bool {
        let c = self.data[p.idx()].comb[side.index()];
        (0..4).any(|d| {
            let x = (c >> (4 * d)) & 15;
            x == Pattern::B4 as u16 || x == Pattern::F4 as u16 || x == Pattern::F5 as u16
        })
    }

    /// True when `side`'s stone on the empty `p` would make a four along some line, counting
    /// renju's double four on one line: the points of `side`'s potential fours, which the
    /// other side may take to defend even where `side` itself may not play (a forbidden point).
    #[inline]
    #[must_use]
    pub fn four_point(&self, p: Point, side: Side) -> bool {
        let c = self.data[p.idx()].comb[side.index()];
        (0..4).any(|d| (c >> (4 * d)) & 15 >= Pattern::B4 as u16)
    }

    /// The cells that may defend against `side`'s four-three points: each such point and the
    /// cells within five of it along its four and three lines (a line pattern reads five cells
    /// on each side), as a bit set over padded indices ([`Point::idx`]). A superset of the
    /// points whose stone stops every four-three of `side`.
    #[must_use]
    pub(crate) fn four_three_defence_cells(&self, side: Side) -> [u64; CELLS.div_ceil(64)] {
        let mut cells = [0u64; CELLS.div_ceil(64)];
        let mut mark = |i: usize| cells[i / 64] |= 1 << (i % 64);
        for p in self.points() {
            if !self.is_empty(p) || self.class(p, side) != Class::FourThree {
                continue;
            }
            let i = p.idx();
            mark(i);
            for (d, &step) in DIRS.iter().enumerate() {
                if self.pattern(p, side, d) < Pattern::F3 {
                    continue;
                }
                for k in 1..=5 {
                    for q in [i + k * step, i - k * step] {
                        if self.colors[q] == EMPTY {
                            mark(q);
                        }
                    }
                }
            }
        }
        cells
    }

    /// Number of stones within the candidate area of `p` (two points in a square, three along lines).
    #[inline]
    pub(crate) fn near(&self, p: Point) -> u8 {
        self.near[p.idx()]
    }

    // ----- incremental update -----

    fn scan_key(&self, i: usize, d: usize, s: usize) -> usize {
        scan_key_colors(&self.colors[..], i, d, s)
    }

    /// Recomputes the patterns, class and value of the point `i` from its keys (no counts).
    fn refresh_point(&mut self, i: usize) {
        for s in 0..2 {
            let mut comb = 0u16;
            for d in 0..4 {
                comb |= (self.lines[s][self.data[i].key[d][s] as usize] as u16) << (4 * d);
            }
            let e = self.classes[s][comb as usize];
            let pd = &mut self.data[i];
            pd.comb[s] = comb;
            pd.class[s] = e.class;
            pd.value[s] = e.value;
        }
    }

    #[inline(always)]
    fn update_dir(&mut self, q: usize, d: usize, add: [u16; 2], sub: bool) {
        debug_assert!(q < CELLS && d < 4);
        // SAFETY: `q = i ± k·DIRS[d]` for an on-board point `i` and `k <= 5` lies inside the
        // padded array (PAD = 5 cells on every side); line keys stay below 3^10 = LINE_KEYS
        // (each of the ten digits is 0, 1 or 2); combined pattern keys are u16 and the class
        // tables have 2^16 entries; classes are below CLASSES.
        unsafe {
            let pd = self.data.get_unchecked_mut(q);
            let key = pd.key.get_unchecked_mut(d);
            if sub {
                key[0] -= add[0];
                key[1] -= add[1];
            } else {
                key[0] += add[0];
                key[1] += add[1];
            }
            let key = *key;
            if *self.colors.get_unchecked(q) != EMPTY {
                return;
            }
            let shift = 4 * d;
            for s in 0..2 {
                debug_assert!((key[s] as usize) < crate::pattern::LINE_KEYS);
                let pat = *self.lines[s].get_unchecked(key[s] as usize) as u16;
                let old = pd.comb[s];
                let comb = (old & !(15 << shift)) | (pat << shift);
                if comb != old {
                    pd.comb[s] = comb;
                    let e = *self.classes[s].get_unchecked(comb as usize);
                    let counts = self.counts.get_unchecked_mut(s);
                    *counts.get_unchecked_mut(pd.class[s] as usize) -= 1;
                    *counts.get_unchecked_mut(e.class as usize) += 1;
                    self.value[s] += e.value as i32 - pd.value[s] as i32;
                    pd.class[s] = e.class;
                    pd.value[s] = e.value;
                }
            }
        }
    }

    /// Puts a stone of `side` on the empty point `p` and updates patterns and the key. Does not
    /// change the side to move, the history or the end of the game (see [`Board::play`]).
    ///
    /// # Panics
    /// May panic or corrupt the board if `p` is not an empty point of the board.
    pub fn place(&mut self, p: Point, side: Side) {
        let i = p.idx();
        debug_assert!(self.colors[i] == EMPTY);
        let s = side.index();
        for t in 0..2 {
            let pd = self.data[i];
            self.counts[t][pd.class[t] as usize] -= 1;
            self.value[t] -= pd.value[t] as i32;
        }
        self.colors[i] = stone(s);
        self.empties -= 1;
        self.key ^= ZOBRIST[s * CELLS + i];
        let (a, b) = if s == 0 { (1u16, 2u16) } else { (2, 1) };
        for d in 0..4 {
            let dd = DIRS[d];
            for k in 1..=5 {
                let pw = POW3[4 + k];
                self.update_dir(i - k * dd, d, [a * pw, b * pw], false);
                let pw = POW3[5 - k];
                self.update_dir(i + k * dd, d, [a * pw, b * pw], false);
            }
        }
        self.update_near(i, true);
        self.update_windows(i, s, true);
    }

    /// Removes the stone on `p` (placed by [`Board::place`]), the exact inverse of `place`.
    ///
    /// # Panics
    /// May panic or corrupt the board if `p` holds no stone.
    pub fn remove(&mut self, p: Point) {
        let i = p.idx();
        let s = (self.colors[i] - 1) as usize;
        self.colors[i] = EMPTY;
        self.empties += 1;
        self.key ^= ZOBRIST[s * CELLS + i];
        let (a, b) = if s == 0 { (1u16, 2u16) } else { (2, 1) };
        for d in 0..4 {
            let dd = DIRS[d];
            for k in 1..=5 {
                let pw = POW3[4 + k];
                self.update_dir(i - k * dd, d, [a * pw, b * pw], true);
                let pw = POW3[5 - k];
                self.update_dir(i + k * dd, d, [a * pw, b * pw], true);
            }
        }
        self.update_near(i, false);
        self.update_windows(i, s, false);
        self.refresh_point(i);
        for t in 0..2 {
            let pd = self.data[i];
            self.counts[t][pd.class[t] as usize] += 1;
            self.value[t] += pd.value[t] as i32;
        }
    }

    #[inline(always)]
    fn update_windows(&mut self, i: usize, s: usize, add: bool) {
        let (table, step): (&[i16; 256], u8) = match (s, add) {
            (0, true) => (&WINDOW_DELTA[0], 1),
            (_, true) => (&WINDOW_DELTA[1], 16),
            (0, false) => (&WINDOW_DELTA[2], 1u8.wrapping_neg()),
            (_, false) => (&WINDOW_DELTA[3], 16u8.wrapping_neg()),
        };
        let mut delta = 0i32;
        for d in 0..4 {
            let dd = DIRS[d];
            let base = d * CELLS + i;
            for k in 0..5 {
                debug_assert!(base - k * dd < self.windows.len());
                // SAFETY: the window's first cell `i - k·dd` (k <= 4) is inside the padded
                // array, so the index is below 4·CELLS = windows.len().
                let w = unsafe { self.windows.get_unchecked_mut(base - k * dd) };
                delta += table[*w as usize] as i32;
                *w = w.wrapping_add(step);
            }
        }
        self.window_score += delta;
    }

    /// Source 000's window score from `side`'s view: every 5-cell window holding stones of one
    /// colour only, valued by their number, own windows positive. Zero-sum.
    #[inline]
    #[must_use]
    pub fn window_score(&self, side: Side) -> i32 {
        if side == Side::First {
            self.window_score
        } else {
            -self.window_score
        }
    }

    #[inline(always)]
    fn update_near(&mut self, i: usize, add: bool) {
        const OFFS: [isize; 32] = {
            let mut o = [0isize; 32];
            let mut n = 0;
            let s = STRIDE as isize;
            let mut dy = -2;
            while dy <= 2 {
                let mut dx = -2;
                while dx <= 2 {
                    if dx != 0 || dy != 0 {
                        o[n] = dy * s + dx;
                        n += 1;
                    }
                    dx += 1;
                }
                dy += 1;
            }
            let l = [
                3,
                -3,
                3 * s,
                -3 * s,
                3 * s + 3,
                -3 * s - 3,
                3 * s - 3,
                -3 * s + 3,
            ];
            let mut j = 0;
            while j < 8 {
                o[n] = l[j];
                n += 1;
                j += 1;
            }
            o
        };
        for o in OFFS {
            let q = (i as isize + o) as usize;
            debug_assert!(q < CELLS);
            // SAFETY: offsets are at most 3 cells from an on-board point, inside the padding.
            let n = unsafe { self.near.get_unchecked_mut(q) };
            if add {
                *n += 1;
            } else {
                *n -= 1;
            }
        }
    }

    // ----- moves -----

    /// The end of the game, if it has ended: the outcome and why.
    #[must_use]
    pub fn game_end(&self) -> Option<(Outcome, EndReason)> {
        self.end
    }

    /// Plays `p` for the side to move: places the stone, records it, detects a five (by the
    /// rule) and a full board, and passes the turn.
    ///
    /// # Panics
    /// May panic or corrupt the board if `p` is not an empty point of the board. Does not check
    /// renju's forbidden points: use [`Board::play_checked`] for input.
    pub fn play(&mut self, p: Point) {
        let s = self.side;
        let wins = self.data[p.idx()].class[s.index()] == Class::Five as u8;
        self.place(p, s);
        self.history.push(p);
        // Stones after the end (a replayed record) leave the first ending standing.
        if self.end.is_none() && (wins || self.empties == 0) {
            self.end_ply = self.history.len();
            self.end = Some(if wins {
                let long = (0..4).any(|d| self.run_len(p, d, s.index()) > 5);
                let reason = if long {
                    EndReason::Overline
                } else {
                    EndReason::Five
                };
                (Outcome::Win(s), reason)
            } else {
                (Outcome::Draw, EndReason::BoardFull)
            });
        }
        self.side = s.opponent();
        self.key ^= ZOBRIST[2 * CELLS];
    }

    /// Takes back the last move, which must be `p`.
    ///
    /// # Panics
    /// If no move was played.
    pub fn undo(&mut self, p: Point) {
        let last = self.history.pop().expect("undo without a move");
        debug_assert_eq!(last, p);
        self.remove(last);
        if self.history.len() < self.end_ply {
            self.end = None;
        }
        self.side = self.side.opponent();
        self.key ^= ZOBRIST[2 * CELLS];
    }

    /// Passes the turn without a stone (a null move: "what if the opponent moved now"); a
    /// second `pass` undoes it. Not a legal gomoku move, only an analysis tool.
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.key ^= ZOBRIST[2 * CELLS];
    }

    /// Takes back the last move, if any, and returns it.
    pub fn undo_last(&mut self) -> Option<Point> {
        let p = *self.history.last()?;
        self.undo(p);
        Some(p)
    }

    /// Checks and plays a move from a person or a protocol. A forbidden Black move under renju
    /// is played and loses: the game ends with White winning by
    /// [`EndReason::Forbidden`]. Returns the end of the game if this move ended it.
    ///
    /// # Errors
    /// [`GomokuError::OffBoard`], [`GomokuError::Occupied`], [`GomokuError::GameOver`]; the
    /// board is unchanged then.
    pub fn play_checked(&mut self, p: Point) -> Result<Option<(Outcome, EndReason)>, GomokuError> {
        if self.end.is_some() {
            return Err(GomokuError::GameOver);
        }
        if !self.on_board(p) {
            return Err(GomokuError::OffBoard {
                text: format!("{},{}", p.x(), p.y()),
                size: self.size,
            });
        }
        if !self.is_empty(p) {
            return Err(GomokuError::Occupied {
                text: self.format_point(p),
            });
        }
        let foul = if self.side == Side::First {
            self.forbidden_kind(p)
        } else {
            None
        };
        self.play(p);
        if let Some(kind) = foul {
            if self.end.is_none() || self.end_ply == self.history.len() {
                self.end = Some((Outcome::Win(Side::Second), EndReason::Forbidden(kind)));
                self.end_ply = self.history.len();
            }
        }
        Ok(self.end)
    }

    /// Like [`Board::play_checked`] but refuses a forbidden move instead of losing with it.
    ///
    /// # Errors
    /// As `play_checked`, plus [`GomokuError::Forbidden`].
    pub fn try_play(&mut self, p: Point) -> Result<Option<(Outcome, EndReason)>, GomokuError> {
        if self.on_board(p) && self.is_empty(p) && self.side == Side::First && self.end.is_none() {
            if let Some(kind) = self.forbidden_kind(p) {
                return Err(GomokuError::Forbidden {
                    text: self.format_point(p),
                    kind,
                });
            }
        }
        self.play_checked(p)
    }

    // ----- renju forbidden points -----

    /// Why the empty point `p` is forbidden for Black, if it is (renju only; `None` under the
    /// other rules, for occupied points, and when the stone makes a five: five comes first).
    /// Double threes count only real threes, checked recursively (RIF rules 9.2-9.3).
    #[must_use]
    pub fn forbidden_kind(&self, p: Point) -> Option<ForbiddenKind> {
        if self.rule != Rule::Renju || !self.on_board(p) || !self.is_empty(p) {
            return None;
        }
        match class_from(self.data[p.idx()].class[0]) {
            Class::Forbidden => {
                let has_ol = (0..4).any(|d| self.pattern(p, Side::First, d) == Pattern::Overline);
                Some(if has_ol {
                    ForbiddenKind::Overline
                } else {
                    ForbiddenKind::DoubleFour
                })
            }
            Class::DoubleThree => {
                let mut colors = *self.colors;
                forbidden_at(&mut colors, p.idx(), self.lines[0])
            }
            _ => None,
        }
    }

    /// True if `p` is forbidden for Black (see [`Board::forbidden_kind`]).
    #[inline]
    #[must_use]
    pub fn is_forbidden(&self, p: Point) -> bool {
        self.rule == Rule::Renju && {
            let c = self.data[p.idx()].class[0];
            (c == Class::Forbidden as u8 || c == Class::DoubleThree as u8)
                && self.forbidden_kind(p).is_some()
        }
    }

    /// True if the side to move may play `p`: an empty point of the board, not forbidden for Black.
    #[inline]
    #[must_use]
    pub fn is_legal(&self, p: Point) -> bool {
        self.on_board(p) && self.is_empty(p) && !(self.side == Side::First && self.is_forbidden(p))
    }

    /// All forbidden points for Black on the board, row by row from the top (renju only).
    #[must_use]
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        self.points()
            .filter_map(|p| self.forbidden_kind(p).map(|k| (p, k)))
            .collect()
    }

    // ----- notation -----

    /// `p` in human notation (`h8`: column letter from `a`, row 1 at the bottom).
    #[must_use]
    pub fn format_point(&self, p: Point) -> String {
        format!("{}{}", (b'a' + p.x() as u8) as char, self.size - p.y())
    }

    /// Parses one human coordinate like `h8`.
    ///
    /// # Errors
    /// [`GomokuError::BadCoordinate`] for unreadable text, [`GomokuError::OffBoard`] outside the board.
    pub fn parse_point(&self, text: &str) -> Result<Point, GomokuError> {
        let t = text.trim();
        let (p, n) = parse_coord_prefix(t, self.size)?;
        if n != t.len() {
            return Err(GomokuError::BadCoordinate {
                text: t.to_string(),
                size: self.size,
            });
        }
        Ok(p)
    }

    /// Parses a position string (`h8g7f6`, spaces and commas allowed between moves).
    ///
    /// # Errors
    /// As [`Board::parse_point`], for the first bad coordinate.
    pub fn parse_points(&self, text: &str) -> Result<Vec<Point>, GomokuError> {
        let mut out = Vec::new();
        let mut rest = text.trim();
        while !rest.is_empty() {
            let (p, n) = parse_coord_prefix(rest, self.size)?;
            out.push(p);
            rest = rest[n..].trim_start_matches([' ', ',', '\t']);
        }
        Ok(out)
    }

    /// The moves played as a position string (`h8g7f6`).
    #[must_use]
    pub fn move_string(&self) -> String {
        self.history.iter().map(|&p| self.format_point(p)).collect()
    }
}

/// Value of a window by its stone count (one colour only).
const WINDOW_VALUE: [i32; 7] = [
    0,
    WEIGHTS[W_WINDOW].value,
    WEIGHTS[W_WINDOW + 1].value,
    WEIGHTS[W_WINDOW + 2].value,
    WEIGHTS[W_WINDOW + 3].value,
    WEIGHTS[W_WINDOW + 4].value,
    0,
];

/// Index in [`WEIGHTS`] of the value of a window with one stone; two to five follow.
pub(crate) const W_WINDOW: usize = 17;

/// Value of a window byte (Black's count in the low nibble, White's in the high), Black's view.
const fn window_value(w: u8) -> i32 {
    let (b, wh) = ((w & 15) as usize, (w >> 4) as usize);
    if wh == 0 {
        WINDOW_VALUE[if b > 6 { 6 } else { b }]
    } else if b == 0 {
        -WINDOW_VALUE[if wh > 6 { 6 } else { wh }]
    } else {
        0
    }
}

/// Change of the window value when a stone is added to / removed from a window byte:
/// `[black add, white add, black remove, white remove]`.
static WINDOW_DELTA: [[i16; 256]; 4] = {
    let mut t = [[0i16; 256]; 4];
    let mut w = 0;
    while w < 256 {
        let v = window_value(w as u8);
        let x = w as u8;
        t[0][w] = (window_value(x.wrapping_add(1)) - v) as i16;
        t[1][w] = (window_value(x.wrapping_add(16)) - v) as i16;
        t[2][w] = (window_value(x.wrapping_sub(1)) - v) as i16;
        t[3][w] = (window_value(x.wrapping_sub(16)) - v) as i16;
        w += 1;
    }
    t
};

#[inline]
fn class_from(c: u8) -> Class {
    match c {
        1 => Class::Forbidden,
        2 => Class::Three,
        3 => Class::DoubleThree,
        4 => Class::Four,
        5 => Class::FourThree,
        6 => Class::OpenFour,
        7 => Class::Five,
        _ => Class::None,
    }
}

fn scan_key_colors(colors: &[u8], i: usize, d: usize, s: usize) -> usize {
    let dd = DIRS[d];
    let own = stone(s);
    let mut key = 0usize;
    for (digit, pw) in POW3.iter().enumerate() {
        let q = if digit < 5 {
            i - (5 - digit) * dd
        } else {
            i + (digit - 4) * dd
        };
        let c = colors[q];
        let v = if c == EMPTY {
            0
        } else if c == own {
            1
        } else {
            2
        };
        key += v * *pw as usize;
    }
    key
}

/// Forbidden-point test for Black on a bare colour array (renju), recursive on real threes.
fn forbidden_at(colors: &mut [u8; CELLS], i: usize, table: &[u8]) -> Option<ForbiddenKind> {
    let pats: [Pattern; 4] =
        std::array::from_fn(|d| Pattern::from_u8(table[scan_key_colors(&colors[..], i, d, 0)]));
    if pats.contains(&Pattern::F5) {
        return None;
    }
    if pats.contains(&Pattern::Overline) {
        return Some(ForbiddenKind::Overline);
    }
    let fours: usize = pats
        .iter()
        .map(|p| match p {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        })
        .sum();
    if fours >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }
    if pats.iter().filter(|&&p| p == Pattern::F3).count() < 2 {
        return None;
    }
    colors[i] = stone(0);
    let mut real = 0;
    for d in 0..4 {
        if pats[d] != Pattern::F3 {
            continue;
        }
        let dd = DIRS[d];
        let base = scan_key_colors(&colors[..], i, d, 0);
        let mut is_real = false;
        for k in -4isize..=4 {
            if k == 0 {
                continue;
            }
            let q = (i as isize + k * dd as isize) as usize;
            if colors[q] != EMPTY {
                continue;
            }
            let digit = if k < 0 {
                (k + 5) as usize
            } else {
                (k + 4) as usize
            };
            if table[base + POW3[digit] as usize] != Pattern::F4 as u8 {
                continue;
            }
            let makes_five =
                (0..4).any(|e| table[scan_key_colors(&colors[..], q, e, 0)] == Pattern::F5 as u8);
            if !makes_five && forbidden_at(colors, q, table).is_none() {
                is_real = true;
                break;
            }
        }
        if is_real {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    colors[i] = EMPTY;
    (real >= 2).then_some(ForbiddenKind::DoubleThree)
}

impl fmt::Display for Board {
    /// A plain text board: column letters on top and bottom, row numbers (row 1 at the bottom),
    /// `X` Black, `O` White, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters: String = (0..self.size)
            .map(|x| format!(" {}", (b'a' + x as u8) as char))
            .collect();
        writeln!(f, "   {letters}")?;
        for y in 0..self.size {
            write!(f, "{:>2} ", self.size - y)?;
            for x in 0..self.size {
                let c = match self.stone_at(x, y) {
                    Some(Side::First) => 'X',
                    Some(Side::Second) => 'O',
                    None => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f, "  {}", self.size - y)?;
        }
        writeln!(f, "   {letters}")
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}x{} {}, {})",
            self.size,
            self.size,
            self.rule,
            self.move_string()
        )
    }
}

#[cfg(test)]
pub(crate) fn check_consistency(b: &Board) {
    let mut fresh = Board::new(b.size, b.rule).unwrap();
    for p in b.points() {
        if let Some(s) = b.stone(p) {
            fresh.place(p, s);
        }
    }
    for i in b.points_idx() {
        for d in 0..4 {
            for s in 0..2 {
                assert_eq!(
                    b.data[i].key[d][s] as usize,
                    b.scan_key(i, d, s),
                    "key at {i}"
                );
            }
        }
        if b.colors[i] == EMPTY {
            assert_eq!(b.data[i].comb, fresh.data[i].comb);
            assert_eq!(b.near[i], fresh.near[i]);
        }
    }
    assert_eq!(b.counts, fresh.counts);
    assert_eq!(b.value, fresh.value);
    assert_eq!(b.window_score, fresh.window_score);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(state: &mut u64) -> usize {
        *state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*state >> 33) as usize
    }

    #[test]
    fn incremental_patterns_match_a_fresh_board() {
        let mut seed = 7u64;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for size in [5, 9, 15, 20, 26] {
                let mut b = Board::new(size, rule).unwrap();
                let empty_key = b.key();
                let mut placed = Vec::new();
                for step in 0..(size * size * 2) {
                    if placed.len() < size * size && (lcg(&mut seed) % 4 != 0 || placed.is_empty())
                    {
                        let p = Point::new(lcg(&mut seed) % size, lcg(&mut seed) % size);
                        if b.is_empty(p) {
                            let side = if lcg(&mut seed) % 2 == 0 {
                                Side::First
                            } else {
                                Side::Second
                            };
                            b.place(p, side);
                            placed.push(p);
                        }
                    } else {
                        let p = placed.swap_remove(lcg(&mut seed) % placed.len());
                        b.remove(p);
                    }
                    if step % 37 == 0 {
                        check_consistency(&b);
                    }
                }
                for p in placed.drain(..) {
                    b.remove(p);
                }
                check_consistency(&b);
                assert_eq!(b.key(), empty_key);
            }
        }
    }
}
