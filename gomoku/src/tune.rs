//! The gomoku evaluation as a linear function of [`WEIGHTS`], for Texel tuning
//! ([`game_core::tune`]).
//!
//! Features, from the side to move's view (the opponent's count negatively):
//! - `pattern.*`: for every empty point that is not forbidden to the side, one count per
//!   direction of the line pattern a stone there would make (coefficient 1);
//! - `class.*`: points of class four-three, double three (not Black under renju), open four and
//!   five, and points whose directions cooperate (coefficient 1);
//! - `window.n`: five-cell windows on the board holding `n` stones of one colour and none of
//!   the other (coefficient `POINT_DIVISOR`);
//! - `threat.*`: the tempo terms of [`Board::threat_score`] (coefficient `POINT_DIVISOR`).
//!
//! The evaluation is `(Σ weight · feature) / POINT_DIVISOR` rounded toward zero, clamped to
//! `±MAX_PATTERN_SCORE`, wherever [`Board::evaluate`] does not return a won or lost score.

use game_core::tune::{Features, PolicyTunable, Tunable, Weight};
use game_core::{Score, Side};

use crate::board::{Board, W_WINDOW};
use crate::eval::{POINT_DIVISOR, W_THREAT};
use crate::pattern::{
    Class, Pattern, ValueKind, W_COOPERATION, W_PATTERN, class_weight, cooperates, pcode_weight,
};
use crate::point::{Point, Rule};
use crate::policy::{POLICY_SCALE, block_weight, own_weight};
use crate::policy_weights::WEIGHTS as POLICY_WEIGHTS;
use crate::weights::WEIGHTS;

/// Which [`Board::evaluate`] cases are linear: not a five to play, not two opposing fives, not
/// an open four against no four.
fn linear(board: &Board) -> bool {
    let me = board.side_to_move();
    let opp = me.opponent();
    !board.has_five_point(me)
        && board.class_count(opp, Class::Five) < 2
        && !(board.class_count(opp, Class::Five) == 0 && board.class_count(me, Class::OpenFour) > 0)
}

impl Board {
    /// The features of the point value of the empty point `p` for `side` (see the module
    /// documentation), each with coefficient `sign`, appended to `out`: the weighted sum of
    /// what is appended equals `sign * point_value(p, side)`.
    pub(crate) fn point_features(&self, p: Point, side: Side, sign: i32, out: &mut Features) {
        let class = self.class(p, side);
        let pats = [0, 1, 2, 3].map(|d| self.pattern(p, side, d));
        let renju_black = self.rule() == Rule::Renju && side == Side::First;
        if class != Class::Forbidden {
            for pat in pats {
                if pat != Pattern::Dead {
                    out.push(((W_PATTERN + pat as usize) as u16, sign));
                }
            }
            if let Some(w) = class_weight(class, renju_black) {
                out.push((w as u16, sign));
            }
            out.push((
                pcode_weight(pats, ValueKind::of(self.rule(), side)) as u16,
                sign,
            ));
        }
        if cooperates(&pats, class) {
            out.push((W_COOPERATION as u16, sign));
        }
    }

    /// Appends the window features from `me`'s view: `POINT_DIVISOR` per one-colour window.
    fn window_features(&self, me: Side, out: &mut Features) {
        let n = self.size() as i32;
        let dirs = [(1, 0), (0, 1), (1, 1), (-1, 1)];
        for y in 0..n {
            for x in 0..n {
                for (dx, dy) in dirs {
                    let (ex, ey) = (x + 4 * dx, y + 4 * dy);
                    if !(0..n).contains(&ex) || !(0..n).contains(&ey) {
                        continue;
                    }
                    let mut count = [0usize; 2];
                    for k in 0..5 {
                        let (cx, cy) = ((x + k * dx) as usize, (y + k * dy) as usize);
                        if let Some(s) = self.stone_at(cx, cy) {
                            count[s.index()] += 1;
                        }
                    }
                    let (mine, theirs) = (count[me.index()], count[me.opponent().index()]);
                    let (stones, sign) = match (mine, theirs) {
                        (m, 0) if m > 0 => (m, 1),
                        (0, t) if t > 0 => (t, -1),
                        _ => continue,
                    };
                    out.push(((W_WINDOW + stones - 1) as u16, sign * POINT_DIVISOR));
                }
            }
        }
    }

    /// Appends the threat tempo features of [`Board::threat_score`] from `me`'s view.
    fn threat_features(&self, me: Side, out: &mut Features) {
        let opp = me.opponent();
        let renju = self.rule() == Rule::Renju;
        let has = |side: Side, c: Class| self.class_count(side, c) > 0;
        let double_three =
            |side: Side| !(renju && side == Side::First) && has(side, Class::DoubleThree);
        let d = POINT_DIVISOR;
        let mut push = |i: usize, c: i32| {
            if c != 0 {
                out.push(((W_THREAT + i) as u16, c));
            }
        };
        push(0, d * i32::from(has(me, Class::FourThree)));
        push(1, d * i32::from(double_three(me)));
        push(2, d * self.class_count(me, Class::Three).min(4) as i32);
        push(3, -d * i32::from(has(opp, Class::FourThree)));
        push(4, -d * i32::from(has(opp, Class::OpenFour)));
        push(5, -d * i32::from(double_three(opp)));
        out.push((self.threat_mask(me) as u16, d));
    }
}

impl Tunable for Board {
    const GAME: &'static str = "gomoku";
    const FEATURE_SCALE: i32 = POINT_DIVISOR;

    fn weights() -> &'static [Weight] {
        &WEIGHTS
    }

    fn static_eval(&self) -> Score {
        self.evaluate()
    }

    fn features(&self, out: &mut Features) -> bool {
        out.clear();
        if !linear(self) {
            return false;
        }
        let me = self.side_to_move();
        for p in self.points() {
            if self.is_empty(p) {
                self.point_features(p, me, 1, out);
                self.point_features(p, me.opponent(), -1, out);
            }
        }
        self.window_features(me, out);
        self.threat_features(me, out);
        true
    }

    /// `rule size moves`: `renju 15 h8i9j10` (the moves from the empty board, Black first;
    /// none for the empty board: `freestyle 15`).
    fn to_text(&self) -> String {
        format!("{} {} {}", self.rule(), self.size(), self.move_string())
            .trim_end()
            .to_string()
    }

    fn from_text(text: &str) -> Result<Self, String> {
        let mut words = text.split_whitespace();
        let rule: Rule = words
            .next()
            .ok_or("empty position: expected 'rule size moves'")?
            .parse()
            .map_err(|e| format!("{e}"))?;
        let size_word = words.next().ok_or("expected a board size after the rule")?;
        let size: usize = size_word
            .parse()
            .map_err(|_| format!("bad board size '{size_word}': expected a number"))?;
        let moves = words.next().unwrap_or("");
        if let Some(extra) = words.next() {
            return Err(format!("unexpected '{extra}' after the moves"));
        }
        Board::from_moves(size, rule, moves).map_err(|e| e.to_string())
    }
}

/// The move-ordering features of a move: its `own` and `block` pattern-code indices in
/// [`POLICY_WEIGHTS`] ([`crate::policy`]'s layout), for `qi tune gomoku --policy`.
impl PolicyTunable for Board {
    const POLICY_SCALE: i32 = POLICY_SCALE;

    fn policy_weights() -> &'static [Weight] {
        &POLICY_WEIGHTS
    }

    fn last_move(&self) -> Option<Point> {
        self.history().last().copied()
    }

    fn move_features(&self, mv: Point, out: &mut Features) {
        out.clear();
        let me = self.side_to_move();
        let opp = me.opponent();
        let pats = |side| [0, 1, 2, 3].map(|d| self.pattern(mv, side, d));
        let own = own_weight(pats(me), ValueKind::of(self.rule(), me));
        let block = block_weight(pats(opp), ValueKind::of(self.rule(), opp));
        out.push((own as u16, 1));
        out.push((block as u16, 1));
    }
}

#[cfg(test)]
mod tests {
    use game_core::Position;
    use game_core::tune::dot;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::eval::{THREAT_MASKS, W_THREAT_MASK};

    fn values() -> Vec<i32> {
        WEIGHTS.iter().map(|w| w.value).collect()
    }

    /// Seeded random games near the stones, every position along the way.
    fn positions(rule: Rule, seed: u64) -> Vec<Board> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..12 {
            let mut b = Board::new(15, rule).unwrap();
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(10..70) {
                if b.generate_search_moves(&mut moves).is_some() || moves.is_empty() {
                    break;
                }
                let mv = moves[rng.random_range(0..moves.len())];
                b.play(mv);
                if b.game_end().is_some() {
                    b.undo(mv);
                    break;
                }
                out.push(b.clone());
            }
        }
        out
    }

    #[test]
    fn point_features_add_up_to_the_point_values() {
        let v = values();
        let mut f = Features::new();
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for b in positions(rule, 7).iter().step_by(5) {
                for p in b.points().filter(|&p| b.is_empty(p)) {
                    for side in [Side::First, Side::Second] {
                        f.clear();
                        b.point_features(p, side, 1, &mut f);
                        assert_eq!(dot(&v, &f), i64::from(b.point_value(p, side)), "{p:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn evaluation_is_the_weighted_feature_sum() {
        let v = values();
        let mut f = Features::new();
        let mut linear_seen = 0;
        let mut special_seen = 0;
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for b in positions(rule, 11) {
                if b.features(&mut f) {
                    linear_seen += 1;
                    let raw = dot(&v, &f) / i64::from(POINT_DIVISOR);
                    let m = i64::from(crate::MAX_PATTERN_SCORE);
                    assert_eq!(i64::from(b.evaluate()), raw.clamp(-m, m), "{}", b.to_text());
                } else {
                    special_seen += 1;
                    assert!(b.evaluate().abs() >= crate::WIN_SOON, "{}", b.to_text());
                }
            }
        }
        assert!(linear_seen > 500, "{linear_seen}");
        assert!(special_seen > 0);
    }

    #[test]
    fn one_weight_moves_the_sum_by_its_coefficient() {
        let b = Board::from_text("freestyle 15 h8i9h9i10h10").unwrap();
        let mut f = Features::new();
        assert!(b.features(&mut f));
        let mut v = values();
        let before = dot(&v, &f);
        let coefficient: i64 = f
            .iter()
            .filter(|&&(i, _)| usize::from(i) == W_PATTERN + Pattern::F3 as usize)
            .map(|&(_, c)| i64::from(c))
            .sum();
        // White to move: White's two (i9, i10) gives it more open-three directions than
        // Black's three, whose extensions are four points.
        assert_eq!(coefficient, 4);
        v[W_PATTERN + Pattern::F3 as usize] += 10;
        assert_eq!(dot(&v, &f) - before, 10 * coefficient);
    }

    #[test]
    fn weights_are_named_once_and_within_range() {
        for (i, w) in WEIGHTS.iter().enumerate() {
            assert!(w.min <= w.value && w.value <= w.max, "{}", w.name);
            assert!(!w.name.contains(char::is_whitespace));
            assert!(WEIGHTS[..i].iter().all(|o| o.name != w.name), "{}", w.name);
        }
        assert_eq!(WEIGHTS[W_PATTERN + Pattern::F3 as usize].name, "pattern.F3");
        assert_eq!(WEIGHTS[W_COOPERATION].name, "class.cooperation");
        assert_eq!(WEIGHTS[W_WINDOW].name, "window.1");
        assert_eq!(WEIGHTS[W_THREAT].name, "threat.four_three");
        assert_eq!(WEIGHTS[W_THREAT + 5].name, "threat.opponent_double_three");
        use Pattern::{B2, Dead, F3};
        let pats = [Dead, F3, B2, F3];
        let name = |kind| WEIGHTS[pcode_weight(pats, kind)].name;
        assert_eq!(name(ValueKind::Free), "pcode.free.F3-F3-B2-dead");
        assert_eq!(
            name(ValueKind::RenjuBlack),
            "pcode.renju_black.F3-F3-B2-dead"
        );
        assert_eq!(
            name(ValueKind::RenjuWhite),
            "pcode.renju_white.F3-F3-B2-dead"
        );
        assert_eq!(
            WEIGHTS[W_THREAT_MASK + THREAT_MASKS + 0b100000].name,
            "threat_mask.renju_black_to_move.00000100000"
        );
        assert_eq!(
            WEIGHTS.last().unwrap().name,
            "threat_mask.renju_white_to_move.11111111111"
        );
    }

    #[test]
    fn the_threat_mask_reads_the_classes() {
        // Black has an open three (h8 h9 h10): h7 and h11 make open fours (bit 6), h6 and h12
        // fours (bit 8); White, to move, has nothing.
        let b = Board::from_text("freestyle 15 h8a1h9a3h10").unwrap();
        let bits = (1 << 6) | (1 << 8);
        assert_eq!(b.threat_mask(Side::Second), W_THREAT_MASK + bits);
        // The same under renju, White to move: kind 2.
        let b = Board::from_text("renju 15 h8a1h9a3h10").unwrap();
        assert_eq!(
            b.threat_mask(Side::Second),
            W_THREAT_MASK + 2 * THREAT_MASKS + bits
        );
        // Black to move under renju (kind 1) with an open two (h8 h9: open-three points, bit 5)
        // against White's three closed at the edge (a1 a2 a3: four points a4 and a5, bit 8).
        let b = Board::from_text("renju 15 h8a1h9a2j12a3").unwrap();
        let bits = (1 << 5) | (1 << 8);
        assert_eq!(
            b.threat_mask(Side::First),
            W_THREAT_MASK + THREAT_MASKS + bits
        );
    }

    #[test]
    fn text_round_trips() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            for b in positions(rule, 3).iter().step_by(17) {
                let text = b.to_text();
                let back = Board::from_text(&text).unwrap();
                assert_eq!(back.key(), b.key(), "{text}");
                assert_eq!(back.rule(), rule);
            }
        }
        assert_eq!(Board::from_text("renju 15").unwrap().stone_count(), 0);
        assert!(
            Board::from_text("renju x h8")
                .unwrap_err()
                .contains("board size")
        );
        assert!(Board::from_text("go 15 h8").is_err());
        assert!(
            Board::from_text("renju 15 h8 h9")
                .unwrap_err()
                .contains("h9")
        );
    }
}
