//! The legal move generator: pseudo-legal moves piece by piece, each tested for the king's
//! safety on a scratch board only when it could expose the king (the piece stands on the
//! king's file, rank or horse-leg point, the destination is on the king's file or rank, or
//! the side is in check); the sinks that receive the moves; perft.

use super::{EMPTY, IN_PALACE, OFF, Position, attacked};
use crate::line;
use crate::types::Move;

/// Receives generated moves.
pub(crate) trait Sink {
    fn push(&mut self, mv: Move);
}

impl Sink for Vec<Move> {
    #[inline]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// Counts moves without storing them (perft bulk counting).
struct Counter(u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

/// A fixed-capacity move list on the stack (perft).
pub(crate) struct MoveList {
    len: usize,
    moves: [Move; 256],
}

impl MoveList {
    pub(crate) fn new() -> Self {
        MoveList {
            len: 0,
            moves: [Move(0); 256],
        }
    }

    /// The moves pushed so far.
    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl Position {
    /// Generates the legal moves of the side to move into `sink`; only captures when
    /// `CAPTURES` is true. The order (king, rooks, cannons, horses, pawns, advisors,
    /// elephants) is the search's tie order: changing it changes the bench signature.
    #[inline]
    pub(crate) fn generate<S: Sink, const CAPTURES: bool>(&self, sink: &mut S) {
        let mut g = Generator::<S, CAPTURES>::new(self, sink);
        g.king();
        g.rooks();
        g.cannons();
        g.horses();
        g.pawns();
        g.advisors();
        g.elephants();
    }

    /// Every legal move of the side to move, in generation order (empty when the game is over
    /// by checkmate or stalemate).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(128);
        self.generate::<_, false>(&mut v);
        v
    }

    /// Clears `moves` and fills it with every legal move.
    pub fn legal_moves_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate::<_, false>(moves);
    }

    /// Clears `moves` and fills it with every legal capture.
    pub fn legal_captures_into(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate::<_, true>(moves);
    }

    /// The number of legal moves.
    #[must_use]
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate::<_, false>(&mut c);
        c.0
    }

    /// True when the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_move(&self) -> bool {
        self.count_legal_moves() > 0
    }

    /// Perft: the number of leaf positions `depth` plies deep (legal moves only), with bulk
    /// counting at the last ply (the leaves are counted, not played). `perft(0) == 1`.
    pub fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let mut list = MoveList::new();
                self.generate::<_, false>(&mut list);
                let mut n = 0;
                for i in 0..list.len {
                    let mv = list.moves[i];
                    self.play(mv);
                    n += self.perft(depth - 1);
                    self.undo(mv);
                }
                n
            }
        }
    }

    /// Perft without bulk counting: every leaf is played and taken back (for measuring the
    /// cost of play/undo). Same counts as [`perft`](Position::perft).
    pub fn perft_full(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut list = MoveList::new();
        self.generate::<_, false>(&mut list);
        let mut n = 0;
        for i in 0..list.len {
            let mv = list.moves[i];
            self.play(mv);
            n += self.perft_full(depth - 1);
            self.undo(mv);
        }
        n
    }

    /// Perft divided by root move: each legal move with its leaf count at `depth - 1` below it
    /// (`depth >= 1`; depth 0 gives an empty list), sorted by ICCS text.
    pub fn divide(&mut self, depth: u32) -> Vec<(Move, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        let mut out: Vec<(Move, u64)> = self
            .legal_moves()
            .into_iter()
            .map(|mv| {
                self.play(mv);
                let n = self.perft(depth - 1);
                self.undo(mv);
                (mv, n)
            })
            .collect();
        out.sort_by_key(|(mv, _)| mv.to_string());
        out
    }
}

/// One square `d` steps from `sq` on the padded 16x16 board.
#[inline]
fn step(sq: usize, d: isize) -> usize {
    ((sq as isize + d) as usize) & 255
}

/// The orthogonal steps (rook, cannon, king).
const ORTHOGONAL: [isize; 4] = [1, -1, 16, -16];

/// The legal-move generator of one position: a scratch copy of the board on which a move
/// is tried when it could expose the king, the side to move's king, and the sink.
struct Generator<'a, S: Sink, const CAPTURES: bool> {
    position: &'a Position,
    sink: &'a mut S,
    board: [u8; 256],
    side: usize,
    /// The side to move's piece bit (16 Red, 32 Black) and the opponent's.
    own: u8,
    opp: u8,
    king: usize,
    in_check: bool,
}

impl<'a, S: Sink, const CAPTURES: bool> Generator<'a, S, CAPTURES> {
    #[inline]
    fn new(position: &'a Position, sink: &'a mut S) -> Self {
        let side = position.side;
        let own: u8 = 16 << side;
        let king = position.pieces[own as usize] as usize;
        Generator {
            position,
            sink,
            board: position.board,
            side,
            own,
            opp: 32 >> side,
            king,
            in_check: position.state().in_check,
        }
    }

    /// The square of the side to move's piece in `slot` (0: captured).
    #[inline]
    fn square(&self, slot: usize) -> usize {
        self.position.pieces[self.own as usize + slot] as usize
    }

    /// Whether moving the piece on `from` may expose the king whatever its destination: in
    /// check, on the king's file or rank (a pinned rook or cannon screen), or diagonally next
    /// to it (a horse leg).
    #[inline]
    fn danger(&self, from: usize) -> bool {
        let k = self.king;
        self.in_check || (from & 15) == (k & 15) || (from >> 4) == (k >> 4) || {
            let d = from as isize - k as isize;
            d == 15 || d == 17 || d == -15 || d == -17
        }
    }

    /// Pushes the move of a piece other than the king from `from` to `to` when it leaves the
    /// king safe, tested on the board only when it could matter: `danger`, or a destination
    /// on the king's file or rank.
    #[inline]
    fn emit(&mut self, from: usize, to: usize, danger: bool) {
        let k = self.king;
        let safe = !(danger || (to & 15) == (k & 15) || (to >> 4) == (k >> 4)) || {
            let b = &mut self.board;
            let cap = b[to];
            b[to] = b[from];
            b[from] = EMPTY;
            let ok = !attacked(b, k, self.side);
            b[from] = b[to];
            b[to] = cap;
            ok
        };
        if safe {
            self.sink.push(Move::from_raw(from, to));
        }
    }

    /// Whether a piece may land on a point holding `x`: on the board, not its own side's, and
    /// a capture when only captures are generated.
    #[inline]
    fn landing(&self, x: u8) -> bool {
        x != OFF && x & self.own == 0 && (!CAPTURES || x != EMPTY)
    }

    /// The king, one step inside the palace: always tested.
    #[inline]
    fn king(&mut self) {
        let k = self.king;
        for d in ORTHOGONAL {
            let to = step(k, d);
            let t = self.board[to];
            if IN_PALACE[to] && t & self.own == 0 && (!CAPTURES || t != EMPTY) {
                let b = &mut self.board;
                b[to] = b[k];
                b[k] = EMPTY;
                let ok = !attacked(b, to, self.side);
                b[k] = b[to];
                b[to] = t;
                if ok {
                    self.sink.push(Move::from_raw(k, to));
                }
            }
        }
    }

    /// The rooks: along each line to the first piece.
    #[inline]
    fn rooks(&mut self) {
        for slot in 7..9 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            if CAPTURES {
                // The first piece on each line, from the occupancy bits.
                let (file, rank) = line::coords(from as u8);
                for (l, geo) in self.position.lines(file, rank) {
                    if l.first != line::NONE {
                        let to = line::at(geo, l.first);
                        if self.board[to] & self.opp != 0 {
                            self.emit(from, to, danger);
                        }
                    }
                }
                continue;
            }
            for d in ORTHOGONAL {
                let mut to = step(from, d);
                while self.board[to] == EMPTY {
                    self.emit(from, to, danger);
                    to = step(to, d);
                }
                if self.board[to] & self.opp != 0 {
                    self.emit(from, to, danger);
                }
            }
        }
    }

    /// The cannons: along each line to the first piece, capturing over exactly one screen.
    #[inline]
    fn cannons(&mut self) {
        for slot in 9..11 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            if CAPTURES {
                // The second piece on each line (over the screen), from the occupancy bits.
                let (file, rank) = line::coords(from as u8);
                for (l, geo) in self.position.lines(file, rank) {
                    if l.second != line::NONE {
                        let to = line::at(geo, l.second);
                        if self.board[to] & self.opp != 0 {
                            self.emit(from, to, danger);
                        }
                    }
                }
                continue;
            }
            for d in ORTHOGONAL {
                let mut to = step(from, d);
                while self.board[to] == EMPTY {
                    self.emit(from, to, danger);
                    to = step(to, d);
                }
                if self.board[to] == OFF {
                    continue;
                }
                to = step(to, d);
                while self.board[to] == EMPTY {
                    to = step(to, d);
                }
                if self.board[to] & self.opp != 0 {
                    self.emit(from, to, danger);
                }
            }
        }
    }

    /// The horses: one point orthogonally (the leg, which must be empty), then one
    /// diagonally outward.
    #[inline]
    fn horses(&mut self) {
        for slot in 5..7 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            for (leg, t1, t2) in [
                (16isize, 31isize, 33isize),
                (-16, -31, -33),
                (1, 18, -14),
                (-1, -18, 14),
            ] {
                if self.board[step(from, leg)] != EMPTY {
                    continue;
                }
                for t in [t1, t2] {
                    let to = step(from, t);
                    if self.landing(self.board[to]) {
                        self.emit(from, to, danger);
                    }
                }
            }
        }
    }

    /// The pawns: one point forward, and sideways once across the river.
    #[inline]
    fn pawns(&mut self) {
        let forward: isize = if self.side == 0 { 16 } else { -16 };
        for slot in 11..16 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            let crossed = (from >= 0x80) == (self.side == 0);
            let to = step(from, forward);
            if self.landing(self.board[to]) {
                self.emit(from, to, danger);
            }
            if crossed {
                for to in [(from - 1) & 255, (from + 1) & 255] {
                    if self.landing(self.board[to]) {
                        self.emit(from, to, danger);
                    }
                }
            }
        }
    }

    /// The advisors: one point diagonally inside the palace.
    #[inline]
    fn advisors(&mut self) {
        for slot in 1..3 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            for d in [15isize, 17, -15, -17] {
                let to = step(from, d);
                let x = self.board[to];
                if IN_PALACE[to] && x & self.own == 0 && (!CAPTURES || x != EMPTY) {
                    self.emit(from, to, danger);
                }
            }
        }
    }

    /// The elephants: two points diagonally over an empty eye, never across the river.
    #[inline]
    fn elephants(&mut self) {
        for slot in 3..5 {
            let from = self.square(slot);
            if from == 0 {
                continue;
            }
            let danger = self.danger(from);
            for (eye, d) in [(17isize, 34isize), (15, 30), (-15, -30), (-17, -34)] {
                let to = step(from, d);
                if self.landing(self.board[to])
                    && (to ^ from) & 0x80 == 0
                    && self.board[step(from, eye)] == EMPTY
                {
                    self.emit(from, to, danger);
                }
            }
        }
    }
}
