//! [`game_core::Position`] for [`Board`]: legal moves, search moves, ordering hints.

use game_core::{Outcome, Position, Side};

use super::Board;
use crate::error::GomokuError;
use crate::pattern::{Class, Pattern};
use crate::point::{Point, Rule, parse_gomocup};

/// Ordering weight of a point class (own classes count double in [`Board::move_hint`]).
const CLASS_WEIGHT: [i32; 8] = [0, 0, 2_000, 6_000, 5_000, 40_000, 60_000, 200_000];

/// Multiplier of the fitted pattern-code ordering value in [`Board::move_hint`], added to the
/// class ordering: together they rank the moves strong players choose better than either
/// alone, and 5 played best in self-play (`docs/experiments.md`).
const POLICY_WEIGHT: i32 = 5;

impl Board {
    /// Ordering score of `p` for the side to move: its own class and value count double, the
    /// opponent's (blocking) once, plus `POLICY_WEIGHT` times the fitted pattern-code
    /// values of playing there and of taking the point from the opponent
    /// ([`Board::policy_value`]). Range well inside `-1_000_000..=1_000_000`.
    #[inline]
    #[must_use]
    pub fn move_hint(&self, p: Point) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        let own = self.class(p, me);
        let theirs = self.class(p, opp);
        let own_w = if own == Class::Forbidden {
            -100_000
        } else {
            CLASS_WEIGHT[own as usize] * 2
        };
        own_w
            + CLASS_WEIGHT[theirs as usize]
            + self.point_value(p, me) * 2
            + self.point_value(p, opp)
            + POLICY_WEIGHT * self.policy_value(p, me)
    }

    /// Pushes every point of the board with `pred` that the side to move may play, row by row
    /// from the top-left.
    fn push_legal(&self, moves: &mut Vec<Point>, pred: impl Fn(&Board, Point) -> bool) {
        let last = self.size() - 1;
        self.push_legal_in((0, 0), (last, last), moves, pred);
    }

    /// [`Board::push_legal`] within the rectangle of columns `x0..=x1` and rows `y0..=y1`
    /// (inclusive, on the board).
    #[inline]
    fn push_legal_in(
        &self,
        (x0, y0): (usize, usize),
        (x1, y1): (usize, usize),
        moves: &mut Vec<Point>,
        pred: impl Fn(&Board, Point) -> bool,
    ) {
        let black_renju = self.rule() == Rule::Renju && self.side_to_move() == Side::First;
        for y in y0..=y1 {
            let row = Point::new(x0, y).idx();
            for i in row..=row + (x1 - x0) {
                let p = Point(i as u16);
                if self.is_empty(p) && pred(self, p) && !(black_renju && self.is_forbidden(p)) {
                    moves.push(p);
                }
            }
        }
    }

    /// Reads one point in either notation: human `h8` ([`Board::parse_point`]) or Gomocup
    /// `x,y` ([`parse_gomocup`], 0-based, `0,0` top-left), chosen by the comma. Checks only
    /// that the point is on the board, not that it is empty or allowed.
    ///
    /// # Errors
    /// [`GomokuError::BadCoordinate`] or [`GomokuError::OffBoard`] as the notation's parser.
    pub fn parse_coordinates(&self, text: &str) -> Result<Point, GomokuError> {
        let t = text.trim();
        if t.contains(',') {
            parse_gomocup(t, self.size())
        } else {
            self.parse_point(t)
        }
    }

    /// The first point where `side` makes a five, if any.
    #[must_use]
    pub fn five_point(&self, side: Side) -> Option<Point> {
        if !self.has_five_point(side) {
            return None;
        }
        self.points()
            .find(|&p| self.is_empty(p) && self.class(p, side) == Class::Five)
    }
}

impl Position for Board {
    type Move = Point;
    type MoveError = GomokuError;

    #[inline]
    fn side_to_move(&self) -> Side {
        Board::side_to_move(self)
    }

    fn generate_moves(&self, moves: &mut Vec<Point>) -> Option<Outcome> {
        moves.clear();
        if let Some((outcome, _)) = self.game_end() {
            return Some(outcome);
        }
        self.push_legal(moves, |_, _| true);
        if moves.is_empty() {
            // Every empty point is forbidden for Black: Black cannot move and loses.
            return Some(Outcome::Win(Side::Second));
        }
        None
    }

    fn generate_search_moves(&self, moves: &mut Vec<Point>) -> Option<Outcome> {
        moves.clear();
        if let Some((outcome, _)) = self.game_end() {
            return Some(outcome);
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        if let Some(p) = self.five_point(me) {
            moves.push(p);
            return None;
        }
        if self.has_five_point(opp) {
            self.push_legal(moves, |b, p| b.class(p, opp) == Class::Five);
            if moves.is_empty() {
                // Renju: every block is forbidden to Black, whose game is lost; one move
                // shows it (the five follows), so the search need not try every point.
                self.push_legal(moves, |_, _| true);
                moves.truncate(1);
            }
            if !moves.is_empty() {
                return None;
            }
        } else {
            let open = self.class_count(me, Class::OpenFour);
            if open > 0 {
                self.push_legal(moves, |b, p| b.class(p, me) == Class::OpenFour);
                if !moves.is_empty() {
                    moves.truncate(1);
                    return None;
                }
            }
            if self.class_count(opp, Class::OpenFour) > 0 {
                // The opponent threatens an open four (or a double four) next move: only our
                // fours and the points of its would-be fours can answer (including points
                // forbidden to a renju Black opponent: White may still take them).
                self.push_legal(moves, |b, p| b.four_point(p, opp) || b.makes_four(p, me));
                if !moves.is_empty() {
                    return None;
                }
            }
            if self.class_count(opp, Class::FourThree) > 0 {
                // The opponent threatens a four-three: only our fours and the points that may
                // break it (Rapfi's DEFEND_B4F3 stage; a counter-threat without a four is lost).
                let cells = self.four_three_defence_cells(opp);
                let marked = |i: usize| cells[i / 64] >> (i % 64) & 1 != 0;
                self.push_legal(moves, |b, p| marked(p.idx()) || b.makes_four(p, me));
                if !moves.is_empty() {
                    return None;
                }
            }
            self.push_legal(moves, |b, p| b.near(p) > 0);
            if !moves.is_empty() {
                return None;
            }
        }
        if self.stone_count() == 0 {
            let c = self.size() / 2;
            moves.push(Point::new(c, c));
            return None;
        }
        self.generate_moves(moves)
    }

    #[inline]
    fn play(&mut self, mv: Point) {
        Board::play(self, mv);
    }

    #[inline]
    fn undo(&mut self, mv: Point) {
        Board::undo(self, mv);
    }

    #[inline]
    fn key(&self) -> u64 {
        Board::key(self)
    }

    /// Reads `h8` (or Gomocup `x,y`) and checks the move is legal here.
    fn parse_move(&self, text: &str) -> Result<Point, GomokuError> {
        let p = self.parse_coordinates(text)?;
        if self.game_end().is_some() {
            return Err(GomokuError::GameOver);
        }
        if !self.is_empty(p) {
            return Err(GomokuError::Occupied {
                text: self.format_point(p),
            });
        }
        if self.side_to_move() == Side::First {
            if let Some(kind) = self.forbidden_kind(p) {
                return Err(GomokuError::Forbidden {
                    text: self.format_point(p),
                    kind,
                });
            }
        }
        Ok(p)
    }

    fn format_move(&self, mv: Point) -> String {
        self.format_point(mv)
    }

    #[inline]
    fn order_hint(&self, mv: Point) -> i32 {
        self.move_hint(mv)
    }

    #[inline]
    fn is_tactical(&self, mv: Point) -> bool {
        self.makes_four(mv, self.side_to_move())
    }

    /// One ply less for a quiet move that makes or blocks an open three (a point of class
    /// [`Class::Three`] or better for either side), one ply more for a move that makes no
    /// open two and blocks none (every line pattern of both sides below [`Pattern::F2`]):
    /// Rapfi's policy-based reduction, keyed on the point classes.
    #[inline]
    fn reduction_adjustment(&self, mv: Point) -> i32 {
        let me = self.side_to_move();
        let opp = me.opponent();
        if self.class(mv, me) >= Class::Three || self.class(mv, opp) >= Class::Three {
            -1
        } else if self.best_pattern(mv, me) < Pattern::F2
            && self.best_pattern(mv, opp) < Pattern::F2
        {
            1
        } else {
            0
        }
    }

    /// Quiescence with fours: at the horizon the side to move may stand pat or play its fours
    /// (a VCF as quiescence: only forcing moves past the horizon).
    const QUIESCENCE: bool = true;

    /// Our fours, narrowed like Rapfi's quiescence: only those near our own last stone (two
    /// points in a square, four along its lines), since a VCF goes on where it started; all
    /// of them when we have no stone yet (`docs/experiments.md`: better than all fours).
    fn generate_tactical(&self, moves: &mut Vec<Point>) -> Option<Outcome> {
        moves.clear();
        if let Some((outcome, _)) = self.game_end() {
            return Some(outcome);
        }
        let me = self.side_to_move();
        if let Some(p) = self.five_point(me) {
            moves.push(p);
            return None;
        }
        let h = self.history();
        match h.len().checked_sub(2).map(|i| h[i]) {
            Some(last) => {
                let (x, y, r, edge) = (last.x(), last.y(), VCF_LINE, self.size() - 1);
                self.push_legal_in(
                    (x.saturating_sub(r), y.saturating_sub(r)),
                    ((x + r).min(edge), (y + r).min(edge)),
                    moves,
                    |b, p| in_vcf_range(last, p) && b.makes_four(p, me),
                );
            }
            None => self.push_legal(moves, |b, p| b.makes_four(p, me)),
        }
        None
    }

    /// Late-move reductions: quiet moves far down the ordering rarely matter in gomoku.
    const LATE_MOVE_REDUCTIONS: bool = true;

    /// Rapfi's quick win check on the point classes: a five to play wins at once (1 ply); two
    /// opponent five points lose (2); an open four (or a winning double four) to play wins in
    /// 3 when the opponent has no five point; a four-three or a double three wins in 5 when
    /// the opponent has no point that makes a four or five (its forced or free reply then
    /// threatens nothing, and one stone cannot stop two lines crossing at our stone). Not for
    /// renju Black's four-three and double three (forbidden or fake threes need the full
    /// check); its open four only on a point that is not forbidden.
    #[inline]
    fn forced_result(&self) -> Option<i32> {
        if self.game_end().is_some() {
            return None;
        }
        let me = self.side_to_move();
        let opp = me.opponent();
        if self.has_five_point(me) {
            return Some(1);
        }
        match self.class_count(opp, Class::Five) {
            0 => {}
            1 => return None,
            _ => return Some(-2),
        }
        let renju_black = self.rule() == Rule::Renju && me == Side::First;
        if self.class_count(me, Class::OpenFour) > 0
            && (!renju_black
                || self.points().any(|p| {
                    self.is_empty(p)
                        && self.class(p, me) == Class::OpenFour
                        && !self.is_forbidden(p)
                }))
        {
            return Some(3);
        }
        if renju_black
            || self.class_count(opp, Class::Four) > 0
            || self.class_count(opp, Class::FourThree) > 0
            || self.class_count(opp, Class::OpenFour) > 0
        {
            return None;
        }
        (self.class_count(me, Class::FourThree) > 0 || self.class_count(me, Class::DoubleThree) > 0)
            .then_some(5)
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.has_five_point(self.side_to_move().opponent())
    }
}

/// Reach of the VCF neighbourhood along the lines ([`in_vcf_range`]).
const VCF_LINE: usize = 4;

/// Whether `p` lies within two points of `centre` in a square or four along its lines
/// (Rapfi's VCF neighbourhood, square 2 / line [`VCF_LINE`]).
#[inline]
fn in_vcf_range(centre: Point, p: Point) -> bool {
    let dx = (centre.x() as i32 - p.x() as i32).abs();
    let dy = (centre.y() as i32 - p.y() as i32).abs();
    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= VCF_LINE as i32)
}
