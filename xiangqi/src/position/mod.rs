//! The position: a 16x16 padded mailbox with piece lists, incremental Zobrist key, a history
//! stack for repetition rules; the legal move generator is [`movegen`].

use std::fmt;

use game_core::zobrist::SplitMix64;
use game_core::{Outcome, Side};

use crate::line;
use crate::pst::{PHASE_WEIGHT, PSQ, PST};
use crate::types::{Move, Piece, PieceKind, Square};

pub(crate) mod legality;
pub(crate) mod movegen;
mod search;
pub(crate) mod see;

/// Board byte of an empty point.
pub(crate) const EMPTY: u8 = 0;
/// Board byte of a point off the board (the padding of the mailbox).
pub(crate) const OFF: u8 = 64;

/// Kind numbers (as `PieceKind as u8`).
pub(crate) const KING: u8 = 0;
pub(crate) const HORSE: u8 = 3;
pub(crate) const ROOK: u8 = 4;
pub(crate) const CANNON: u8 = 5;
pub(crate) const PAWN: u8 = 6;

/// The kind of each of a side's 16 piece slots: king, 2 advisors, 2 elephants, 2 horses,
/// 2 rooks, 2 cannons, 5 pawns. A board byte is `side_tag | slot` with tag 16 (Red) or 32
/// (Black).
pub(crate) const SLOT_KIND: [u8; 16] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6];
/// The first slot of each kind.
pub(crate) const KIND_FIRST_SLOT: [usize; 7] = [0, 1, 3, 5, 7, 9, 11];

const fn in_board(sq: usize) -> bool {
    let f = sq & 15;
    let r = sq >> 4;
    f >= 3 && f <= 11 && r >= 3 && r <= 12
}

const fn build_in_palace() -> [bool; 256] {
    let mut t = [false; 256];
    let mut sq = 0;
    while sq < 256 {
        let f = sq & 15;
        let r = sq >> 4;
        t[sq] = f >= 6 && f <= 8 && ((r >= 3 && r <= 5) || (r >= 10 && r <= 12));
        sq += 1;
    }
    t
}

/// Palace points of both sides (mailbox indices).
pub(crate) const IN_PALACE: [bool; 256] = build_in_palace();

const fn build_empty_board() -> [u8; 256] {
    let mut b = [OFF; 256];
    let mut sq = 0;
    while sq < 256 {
        if in_board(sq) {
            b[sq] = EMPTY;
        }
        sq += 1;
    }
    b
}

const EMPTY_BOARD: [u8; 256] = build_empty_board();

/// Zobrist keys: `(side * 7 + kind) * 256 + square`; the side-to-move key is separate.
static ZOBRIST: [u64; 14 * 256] = SplitMix64::new(0x5869_616e_6751_6921).table();
const ZOBRIST_SIDE: u64 = SplitMix64::new(0x5869_616e_6751_6922).next().0;

/// Zobrist table index base of a board byte (piece index 16..48).
#[inline]
pub(crate) const fn zkind(p: u8) -> usize {
    ((((p >> 5) as usize) * 7) + SLOT_KIND[(p & 15) as usize] as usize) * 256
}

/// The kind number of a board byte holding a piece.
#[inline]
pub(crate) const fn kind_of(p: u8) -> u8 {
    SLOT_KIND[(p & 15) as usize]
}

/// The side index (0 Red, 1 Black) of a board byte holding a piece.
#[inline]
pub(crate) const fn side_of(p: u8) -> usize {
    (p >> 5) as usize
}

/// The default no-capture draw limit in plies (60 moves, Chinese rules).
pub const DEFAULT_NO_CAPTURE_LIMIT: u16 = 120;

/// What one entry of the history remembers about a position and the move that led to it.
///
/// Kept for every position since the root of the position's game (the FEN it was set up
/// from). The move and captured piece let a later perpetual-chase judge replay the cycle.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct State {
    /// Zobrist key of this position.
    pub key: u64,
    /// The move that led here (`Move(0)` for the root and after a null move).
    pub mv: Move,
    /// The board byte captured by `mv` (0 if none).
    pub captured: u8,
    /// True when the side to move here is in check (so the mover of `mv` gave check).
    pub in_check: bool,
    /// Plies since the last capture, null move or set-up: the irreversible-move marker; the
    /// repetition walk never crosses it.
    pub clock: u16,
}

/// Why a game ended by rule, see [`Position::game_end`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check but has no legal move: it loses (xiangqi rule).
    Stalemate,
    /// A position repeated while one side checked on every move of the cycle: that side loses.
    PerpetualCheck,
    /// A position repeated while one side chased the same enemy piece on every move of the
    /// cycle (checks count as chases), and the other did not: the chaser loses (Asian rules;
    /// the definition is in `chase.rs`).
    PerpetualChase,
    /// A position repeated (three times in a game, once inside a search), no one checking
    /// perpetually (or both): a draw.
    Repetition,
    /// The no-capture limit (by default 120 plies, 60 moves) was reached: a draw.
    NoCaptureLimit,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate (no legal move loses)",
            EndReason::PerpetualCheck => "perpetual check loses",
            EndReason::PerpetualChase => "perpetual chase loses",
            EndReason::Repetition => "draw by repetition",
            EndReason::NoCaptureLimit => "draw: no capture within the move limit",
        })
    }
}

/// A xiangqi position with its game history.
///
/// The board is a 16x16 padded mailbox (9 files x 10 ranks inside a border of off-board
/// points) plus a piece list per side; the Zobrist key and a material + piece-square score are
/// updated incrementally by [`play`](Position::play)/[`undo`](Position::undo). A history stack
/// (preallocated) keeps each position's key, whether its side to move is in check, the move
/// and the capture, so repetition and perpetual-check rules can be judged.
pub struct Position {
    pub(crate) board: [u8; 256],
    /// Square (mailbox index) of each piece byte 16..48, 0 when captured or absent.
    pub(crate) pieces: [u8; 48],
    /// 0 = Red to move, 1 = Black.
    pub(crate) side: usize,
    pub(crate) key: u64,
    /// Material + piece-square score, Red minus Black.
    pub(crate) psq: i32,
    /// Packed (opening, endgame) material + piece-square score of [`crate::Eval`], Red minus
    /// Black.
    pub(crate) pst: i32,
    /// Game phase: the sum of [`PHASE_WEIGHT`] over the pieces on the board.
    pub(crate) phase: i32,
    /// Occupancy of each rank: bit `file` set when the point holds a piece.
    pub(crate) occ_rank: [u16; 10],
    /// Occupancy of each file: bit `rank` set when the point holds a piece.
    pub(crate) occ_file: [u16; 9],
    pub(crate) history: Vec<State>,
    /// Full-move number of the set-up position (FEN field 6).
    pub(crate) start_fullmove: u32,
    /// Side to move at set-up (for the full-move number).
    pub(crate) start_side: usize,
    pub(crate) no_capture_limit: u16,
}

/// Checks of each side that count towards the no-capture limit (AXF rules: later ones do not).
pub const COUNTED_CHECKS: u16 = 10;

/// History entries preallocated per position.
const HISTORY_CAPACITY: usize = 1024;

impl Clone for Position {
    fn clone(&self) -> Self {
        let mut history = Vec::with_capacity(HISTORY_CAPACITY.max(self.history.len() * 2));
        history.extend_from_slice(&self.history);
        Position {
            board: self.board,
            pieces: self.pieces,
            side: self.side,
            key: self.key,
            psq: self.psq,
            pst: self.pst,
            phase: self.phase,
            occ_rank: self.occ_rank,
            occ_file: self.occ_file,
            history,
            start_fullmove: self.start_fullmove,
            start_side: self.start_side,
            no_capture_limit: self.no_capture_limit,
        }
    }
}

impl PartialEq for Position {
    /// Same pieces on the same points and the same side to move (history is ignored).
    fn eq(&self, other: &Self) -> bool {
        let code = |p: u8| {
            if p == EMPTY || p == OFF {
                p
            } else {
                (p & 0x30) | kind_of(p)
            }
        };
        self.side == other.side
            && self
                .board
                .iter()
                .zip(other.board.iter())
                .all(|(&a, &b)| code(a) == code(b))
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

/// True when the king of side `side` on `k` is attacked on `board`: by a rook or the other
/// king along an open line (flying general), a cannon over exactly one screen, a horse whose
/// leg is free, or a pawn in front or beside.
#[inline]
pub(crate) fn attacked(board: &[u8; 256], k: usize, side: usize) -> bool {
    // Points are stepped in `u8` (wrapping) so that indexing the 256-point board needs no
    // bounds check; the padding stops every walk before it could wrap.
    let at = |sq: u8| board[sq as usize];
    let k = k as u8;
    let opp: u8 = 32 >> side;
    for d in [1u8, 255, 16, 240] {
        let mut s = k.wrapping_add(d);
        let mut p = at(s);
        while p == EMPTY {
            s = s.wrapping_add(d);
            p = at(s);
        }
        if p == OFF {
            continue;
        }
        if p & opp != 0 {
            let kind = kind_of(p);
            if kind == ROOK || kind == KING {
                return true;
            }
        }
        s = s.wrapping_add(d);
        p = at(s);
        while p == EMPTY {
            s = s.wrapping_add(d);
            p = at(s);
        }
        if p & opp != 0 && kind_of(p) == CANNON {
            return true;
        }
    }
    attacked_by_horse_or_pawn(board, k, side)
}

/// The horse and pawn part of [`attacked`].
#[inline]
fn attacked_by_horse_or_pawn(board: &[u8; 256], k: u8, side: usize) -> bool {
    let at = |sq: u8| board[sq as usize];
    let opp: u8 = 32 >> side;
    // Horses: every leg of a horse attacking the king is a diagonal neighbour of the king.
    for (leg, a, b) in [
        (17u8, 18u8, 33u8),
        (15, 14, 31),
        (241, 242, 225),
        (239, 238, 223),
    ] {
        if at(k.wrapping_add(leg)) == EMPTY {
            let pa = at(k.wrapping_add(a));
            let pb = at(k.wrapping_add(b));
            if (pa & opp != 0 && kind_of(pa) == HORSE) || (pb & opp != 0 && kind_of(pb) == HORSE) {
                return true;
            }
        }
    }
    // Pawns: an enemy pawn in front of the king (from the king's side's view) or beside it.
    let fwd: u8 = if side == 0 { 16 } else { 240 };
    for d in [fwd, 1, 255] {
        let p = at(k.wrapping_add(d));
        if p & opp != 0 && kind_of(p) == PAWN {
            return true;
        }
    }
    false
}

impl Position {
    /// The four lines from (`file`, `rank`) on this position's occupancy: along the rank
    /// right and left, along the file up and down, each with its (base, stride)
    /// ([`line::lines_of`]).
    #[inline(always)]
    pub(crate) fn lines(&self, file: u32, rank: u32) -> [(line::Line, (u32, u32)); 4] {
        line::lines_of(&self.occ_rank, &self.occ_file, file, rank)
    }

    /// An empty board (no kings; not a valid position until pieces are placed).
    pub(crate) fn empty(side: usize, clock: u16, fullmove: u32) -> Position {
        let mut history = Vec::with_capacity(HISTORY_CAPACITY);
        history.push(State {
            clock,
            ..State::default()
        });
        Position {
            board: EMPTY_BOARD,
            pieces: [0; 48],
            side,
            key: if side == 1 { ZOBRIST_SIDE } else { 0 },
            psq: 0,
            pst: 0,
            phase: 0,
            occ_rank: [0; 10],
            occ_file: [0; 9],
            history,
            start_fullmove: fullmove,
            start_side: side,
            no_capture_limit: DEFAULT_NO_CAPTURE_LIMIT,
        }
    }

    /// Puts `piece` on the empty point `sq` in the first free slot of its kind; false when the
    /// side has no free slot (more pieces than the set holds).
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) -> bool {
        let side = piece.side.index();
        let tag = 16u8 << side;
        let kind = piece.kind as usize;
        let first = KIND_FIRST_SLOT[kind];
        let last = first + piece.kind.max_count();
        for slot in first..last {
            let p = tag | slot as u8;
            if self.pieces[p as usize] == 0 {
                self.pieces[p as usize] = sq.0;
                self.board[sq.raw()] = p;
                self.toggle_occupancy(sq.raw());
                self.key ^= ZOBRIST[zkind(p) + sq.raw()];
                self.psq += PSQ[side][kind][sq.raw()];
                self.pst += PST[side][kind][sq.raw()];
                self.phase += PHASE_WEIGHT[kind];
                return true;
            }
        }
        false
    }

    /// Finishes a set-up: records the root state (key, check).
    pub(crate) fn finish_setup(&mut self) {
        let in_check = self.compute_in_check();
        let st = self.history.last_mut().expect("root state");
        st.key = self.key;
        st.in_check = in_check;
    }

    /// The piece on the point at `file` (0..9, `a`..`i` from Red's left) and `rank` (0..10,
    /// from Red's back rank), or `None` for an empty point or coordinates off the board.
    #[must_use]
    pub fn piece_at(&self, file: u8, rank: u8) -> Option<Piece> {
        Square::new(file, rank).and_then(|sq| self.piece_on(sq))
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        let p = self.board[sq.raw()];
        if p == EMPTY || p == OFF {
            return None;
        }
        Some(Piece {
            kind: PieceKind::ALL[kind_of(p) as usize],
            side: if side_of(p) == 0 {
                Side::First
            } else {
                Side::Second
            },
        })
    }

    /// The side to move: `Side::First` is Red.
    #[inline]
    #[must_use]
    pub fn side(&self) -> Side {
        if self.side == 0 {
            Side::First
        } else {
            Side::Second
        }
    }

    /// The king's point of `side`.
    #[must_use]
    pub fn king_square(&self, side: Side) -> Square {
        Square(self.pieces[16 << side.index()])
    }

    #[inline]
    pub(crate) fn state(&self) -> &State {
        self.history.last().expect("history never empty")
    }

    /// Plies since the last capture (or since set-up, counting the FEN half-move clock).
    #[must_use]
    pub fn halfmove_clock(&self) -> u16 {
        self.state().clock
    }

    /// The full-move number (FEN field 6): starts at the set-up value, +1 after each Black move.
    #[must_use]
    pub fn fullmove_number(&self) -> u32 {
        let plies = (self.history.len() - 1) as u32;
        self.start_fullmove
            .saturating_add((plies + self.start_side as u32) / 2)
    }

    /// The no-capture draw limit in plies (default [`DEFAULT_NO_CAPTURE_LIMIT`] = 120, Chinese
    /// rules); 0 means no limit.
    #[must_use]
    pub fn no_capture_limit(&self) -> u16 {
        self.no_capture_limit
    }

    /// Sets the no-capture draw limit in plies; 0 switches the rule off.
    pub fn set_no_capture_limit(&mut self, plies: u16) {
        self.no_capture_limit = plies;
    }

    /// True when the side to move is in check (kept from the last [`play`](Position::play)).
    #[inline]
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.state().in_check
    }

    /// Number of moves played since set-up.
    #[must_use]
    pub fn plies_played(&self) -> usize {
        self.history.len() - 1
    }

    /// The moves played since set-up, oldest first (null moves of a search are skipped).
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history[1..]
            .iter()
            .map(|s| s.mv)
            .filter(|mv| mv.0 != 0)
    }

    pub(crate) fn compute_in_check(&self) -> bool {
        let k = self.pieces[16 << self.side];
        if k == 0 {
            return false;
        }
        // Lines from the occupancy bits: a rook or the other king first on a line, a cannon
        // second; then horses and pawns as in `attacked`.
        let opp: u8 = 32 >> self.side;
        let (file, rank) = line::coords(k);
        for (l, geo) in self.lines(file, rank) {
            if l.first == line::NONE {
                continue;
            }
            let p = self.board[line::at(geo, l.first)];
            if p & opp != 0 && matches!(kind_of(p), ROOK | KING) {
                return true;
            }
            if l.second != line::NONE {
                let p = self.board[line::at(geo, l.second)];
                if p & opp != 0 && kind_of(p) == CANNON {
                    return true;
                }
            }
        }
        attacked_by_horse_or_pawn(&self.board, k, self.side)
    }

    /// [`compute_in_check`](Position::compute_in_check) by walking the board (for tests).
    #[cfg(test)]
    pub(crate) fn in_check_by_walking(&self) -> bool {
        let k = self.pieces[16 << self.side] as usize;
        k != 0 && attacked(&self.board, k, self.side)
    }

    /// The Zobrist key computed from scratch (for tests of the incremental key).
    #[must_use]
    pub fn key_from_scratch(&self) -> u64 {
        let mut key = if self.side == 1 { ZOBRIST_SIDE } else { 0 };
        for sq in 0..256 {
            let p = self.board[sq];
            if p != EMPTY && p != OFF {
                key ^= ZOBRIST[zkind(p) + sq];
            }
        }
        key
    }

    /// Plays `mv`, which must be legal (from [`legal_moves`](Position::legal_moves) or a
    /// successful parse); an illegal move corrupts the position.
    pub fn play(&mut self, mv: Move) {
        let from = (mv.0 >> 8) as usize;
        let to = (mv.0 & 0xff) as usize;
        let p = self.board[from];
        let cap = self.board[to];
        let side = self.side;
        let kind = kind_of(p) as usize;
        self.board[to] = p;
        self.board[from] = EMPTY;
        self.toggle_occupancy(from);
        if cap == EMPTY {
            self.toggle_occupancy(to);
        }
        self.pieces[p as usize] = to as u8;
        let zk = zkind(p);
        let mut key = self.key ^ ZOBRIST_SIDE ^ ZOBRIST[zk + from] ^ ZOBRIST[zk + to];
        let table = &PSQ[side][kind];
        let mut psq = self.psq + table[to] - table[from];
        let pst_table = &PST[side][kind];
        let mut pst = self.pst + pst_table[to] - pst_table[from];
        let clock;
        if cap != EMPTY {
            self.pieces[cap as usize] = 0;
            key ^= ZOBRIST[zkind(cap) + to];
            let ck = kind_of(cap) as usize;
            psq -= PSQ[side ^ 1][ck][to];
            pst -= PST[side ^ 1][ck][to];
            self.phase -= PHASE_WEIGHT[ck];
            clock = 0;
        } else {
            clock = self.state().clock.saturating_add(1);
        }
        self.key = key;
        self.psq = psq;
        self.pst = pst;
        self.side = side ^ 1;
        let in_check = self.compute_in_check();
        self.history.push(State {
            key,
            mv,
            captured: cap,
            in_check,
            clock,
        });
    }

    /// Flips the occupancy bits of the mailbox point `sq`.
    #[inline]
    fn toggle_occupancy(&mut self, sq: usize) {
        let file = (sq & 15).wrapping_sub(3);
        let rank = (sq >> 4).wrapping_sub(3);
        if file < 9 && rank < 10 {
            self.occ_rank[rank] ^= 1 << file;
            self.occ_file[file] ^= 1 << rank;
        }
    }

    /// Takes back `mv`, the last move played.
    pub fn undo(&mut self, mv: Move) {
        let st = self.history.pop().expect("undo without a move");
        debug_assert_eq!(st.mv, mv);
        let from = (mv.0 >> 8) as usize;
        let to = (mv.0 & 0xff) as usize;
        let p = self.board[to];
        let cap = st.captured;
        self.board[from] = p;
        self.board[to] = cap;
        self.toggle_occupancy(from);
        if cap == EMPTY {
            self.toggle_occupancy(to);
        }
        self.pieces[p as usize] = from as u8;
        self.side ^= 1;
        let kind = kind_of(p) as usize;
        let table = &PSQ[self.side][kind];
        self.psq += table[from] - table[to];
        let pst_table = &PST[self.side][kind];
        self.pst += pst_table[from] - pst_table[to];
        if cap != EMPTY {
            self.pieces[cap as usize] = to as u8;
            let ck = kind_of(cap) as usize;
            self.psq += PSQ[self.side ^ 1][ck][to];
            self.pst += PST[self.side ^ 1][ck][to];
            self.phase += PHASE_WEIGHT[ck];
        }
        self.key = self.state().key;
    }

    /// Passes the turn (search only): flips the side and resets the repetition window.
    pub fn play_null(&mut self) {
        self.side ^= 1;
        self.key ^= ZOBRIST_SIDE;
        self.history.push(State {
            key: self.key,
            mv: Move(0),
            captured: 0,
            in_check: false,
            clock: 0,
        });
    }

    /// Takes back [`play_null`](Position::play_null).
    pub fn undo_null(&mut self) {
        self.history.pop();
        self.side ^= 1;
        self.key ^= ZOBRIST_SIDE;
    }

    /// The game's end by rule, if it is over: no legal move (checkmate or stalemate: the side
    /// to move loses), a position occurring for the third time (perpetual check loses, then
    /// perpetual chase, else a draw), or the no-capture limit (draw). Judged as an arbiter
    /// would, not as a search does.
    #[must_use]
    pub fn game_end(&self) -> Option<(Outcome, EndReason)> {
        if !self.has_legal_move() {
            let reason = if self.is_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some((Outcome::Win(self.side().opponent()), reason));
        }
        if let Some(len) = self.repeated_cycle(0) {
            return Some(self.clone().judge_cycle(len));
        }
        self.no_capture_end()
    }

    /// Repetition (perpetual check, perpetual chase) and the no-capture limit, judged with a
    /// repetition needing one repeat after the point `plies_from_root` plies back, or two at
    /// or before it. Judging a chase plays the cycle back and forth; the position is left as
    /// it was.
    pub(crate) fn rule_end(&mut self, plies_from_root: usize) -> Option<(Outcome, EndReason)> {
        if let Some(len) = self.repeated_cycle(plies_from_root) {
            return Some(self.judge_cycle(len));
        }
        self.no_capture_end()
    }

    /// The no-capture draw, unless the side to move is checkmated at that moment. Checks
    /// beyond the tenth of each side since the last capture do not count towards the limit
    /// (AXF rules; `shared/docs/xiangqi.md`).
    pub(crate) fn no_capture_end(&self) -> Option<(Outcome, EndReason)> {
        let st = self.state();
        if self.no_capture_limit > 0
            && st.clock >= self.no_capture_limit
            && st.clock - self.uncounted_checks() >= self.no_capture_limit
            && (!st.in_check || self.has_legal_move())
        {
            return Some((Outcome::Draw, EndReason::NoCaptureLimit));
        }
        None
    }

    /// Checks since the last capture beyond the first [`COUNTED_CHECKS`] of each side (only
    /// moves in this position's history are seen, not those before its set-up).
    fn uncounted_checks(&self) -> u16 {
        let h = &self.history;
        let n = h.len() - 1;
        let window = (h[n].clock as usize).min(n);
        let mut checks = [0u16; 2];
        // The move that led to h[n - i] was made by the side not to move there.
        for i in 0..window {
            if h[n - i].in_check {
                checks[i % 2] += 1;
            }
        }
        checks
            .iter()
            .map(|&c| c.saturating_sub(COUNTED_CHECKS))
            .sum()
    }

    /// The length in plies of the repetition cycle that ends the game here, if the current
    /// position repeats one within the reversible window: once after the point
    /// `plies_from_root` plies back suffices, at or before it the position must have occurred
    /// twice (three times in all).
    fn repeated_cycle(&self, plies_from_root: usize) -> Option<usize> {
        let h = &self.history;
        let n = h.len() - 1;
        let cur = &h[n];
        let window = (cur.clock as usize).min(n);
        if window < 4 {
            return None;
        }
        let mut first: Option<usize> = None;
        let mut count = 0;
        let mut i = 4;
        while i <= window {
            if h[n - i].key == cur.key {
                count += 1;
                if first.is_none() {
                    first = Some(i);
                }
                if i < plies_from_root || count >= 2 {
                    break;
                }
            }
            i += 2;
        }
        let i = first?;
        (i < plies_from_root || count >= 2).then_some(i)
    }

    /// The packed (opening, endgame) material + piece-square score of [`crate::Eval`]
    /// computed from scratch with the game phase (for tests of the incremental update).
    #[cfg(test)]
    pub(crate) fn occupancy_from_scratch(&self) -> ([u16; 10], [u16; 9]) {
        let mut ranks = [0u16; 10];
        let mut files = [0u16; 9];
        for sq in Square::all() {
            if self.board[sq.raw()] != EMPTY {
                ranks[sq.rank() as usize] |= 1 << sq.file();
                files[sq.file() as usize] |= 1 << sq.rank();
            }
        }
        (ranks, files)
    }

    #[cfg(test)]
    pub(crate) fn pst_from_scratch(&self) -> (i32, i32) {
        let (mut pst, mut phase) = (0, 0);
        for (sq, &p) in self.board.iter().enumerate() {
            if p != EMPTY && p != OFF {
                let kind = kind_of(p) as usize;
                pst += PST[side_of(p)][kind][sq];
                phase += PHASE_WEIGHT[kind];
            }
        }
        (pst, phase)
    }

    /// The game phase: 32 with every rook, horse and cannon on the board, down to 0 with none
    /// (rook 4, horse and cannon 2 each).
    #[must_use]
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// Material + piece-square score from Red's point of view (incremental).
    #[must_use]
    pub fn material_psq(&self) -> i32 {
        self.psq
    }
}

impl fmt::Display for Position {
    /// A plain text board: rank 9 at the top, FEN letters for pieces (uppercase Red), `.` for
    /// empty points, file letters below, then the side to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..10u8).rev() {
            write!(f, "{rank} ")?;
            for file in 0..9u8 {
                let c = self.piece_at(file, rank).map_or('.', Piece::fen_char);
                if file > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "  a b c d e f g h i")?;
        write!(
            f,
            "{} to move",
            if self.side == 0 { "Red" } else { "Black" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position whose history is a 4-ply cycle with the given "gave check" flags for the
    /// moves 1..=4 (move 4 was made by the side not to move now). The moves themselves are
    /// blank, so only cycles that a check decides can be judged (a chase is replayed).
    fn cycle(checks: [bool; 4]) -> Position {
        let mut p = Position::startpos();
        let k0 = p.key;
        for (i, &c) in checks.iter().enumerate() {
            let key = if i == 3 { k0 } else { 1000 + i as u64 };
            p.history.push(State {
                key,
                mv: Move(0),
                captured: 0,
                in_check: c,
                clock: i as u16 + 1,
            });
        }
        p
    }

    #[test]
    fn perpetual_check_judgement() {
        // Red to move now; moves 2 and 4 were Black's, 1 and 3 Red's.
        let me = Side::First;
        assert_eq!(
            cycle([false, true, false, true]).rule_end(5),
            Some((Outcome::Win(me), EndReason::PerpetualCheck))
        );
        assert_eq!(
            cycle([true, false, true, false]).rule_end(5),
            Some((Outcome::Win(me.opponent()), EndReason::PerpetualCheck))
        );
        assert_eq!(
            cycle([true, true, true, true]).rule_end(5),
            Some((Outcome::Draw, EndReason::Repetition))
        );
        assert_eq!(
            cycle([true, true, true, true]).rule_end(4),
            None,
            "needs a second repetition"
        );
    }

    #[test]
    fn evaluation_is_symmetric() {
        use game_core::Evaluate;
        let p = Position::startpos();
        assert_eq!(p.material_psq(), 0);
        let b = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(crate::MaterialEval.evaluate(&p), 0);
        assert_eq!(crate::MaterialEval.evaluate(&b), 0);
        let up = Position::from_fen(
            "rnbakab1r/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        assert!(crate::MaterialEval.evaluate(&up) > 90);
    }
}
