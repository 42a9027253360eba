//! Line patterns and point classes: the per-point, per-direction pattern tables of the classic
//! gomoku write-up "求五子棋人机对战算法" (how a gomoku computer chooses its move), done exactly.
//!
//! For every empty point, every direction and every side the board keeps the *line pattern* a
//! stone of that side placed there would make along that direction, read off the five cells on
//! each side of the point. The pattern is a pure function of those ten cells, so it is looked
//! up in a table of `3^10` entries indexed by the cells in base 3 (0 empty, 1 own stone, 2 an
//! opponent stone or the edge of the board). The four directions of a point are then combined
//! into a [`Class`] (five, open four, four-three, ...) and a value for the evaluation.

use std::sync::OnceLock;

use game_core::Side;

use crate::point::Rule;

/// The pattern a stone placed on a point makes along one line, from the placing side's view.
///
/// Definitions (after the stone is placed; "five" means exactly five for the standard rule and
/// for Black under renju, five or more otherwise):
/// - [`F5`](Pattern::F5): the line through the point is a five.
/// - [`Overline`](Pattern::Overline): six or more where only exactly five wins.
/// - [`F4`](Pattern::F4): two or more empty points each complete a five through the stone (an
///   open / straight four; under renju for Black only the straight four `.XXXX.`).
/// - [`DoubleFour`](Pattern::DoubleFour): Black under renju, two fours on one line
///   (`X.XXX.X`, `XX.XX.XX`, `XXX.X.XXX`), a double four.
/// - [`B4`](Pattern::B4): exactly one point completes a five (a four).
/// - [`F3`](Pattern::F3) / [`B3`](Pattern::B3): one more stone can make an F4 / only a B4.
/// - [`F2`](Pattern::F2) / [`B2`](Pattern::B2), [`F1`](Pattern::F1) / [`B1`](Pattern::B1): one
///   more stone can make an F3 / B3, an F2 / B2.
/// - [`Dead`](Pattern::Dead): no five can ever be made along this line through the point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five possible through the point on this line.
    Dead = 0,
    /// Six or more in a row where only exactly five wins.
    Overline = 1,
    /// Can become a B2.
    B1 = 2,
    /// Can become an F2.
    F1 = 3,
    /// Can become a B3.
    B2 = 4,
    /// Can become an F3 (an open two).
    F2 = 5,
    /// Can become a four but not an open four (a closed three).
    B3 = 6,
    /// Can become an open four (an open three).
    F3 = 7,
    /// A four: one point completes a five.
    B4 = 8,
    /// An open four: two points complete a five.
    F4 = 9,
    /// A five.
    F5 = 10,
    /// Two fours on one line (Black under renju only).
    DoubleFour = 11,
}

impl Pattern {
    const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::F5,
        Pattern::DoubleFour,
    ];

    /// The pattern with this numeric value (`0..=11`), `Dead` for anything else.
    #[inline]
    #[must_use]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL
            .get(v as usize)
            .copied()
            .unwrap_or(Pattern::Dead)
    }
}

/// Which line table a side uses: what counts as a five for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Five or more wins (freestyle; White under renju).
    Free = 0,
    /// Exactly five wins, six or more is an overline (standard rule, both sides).
    Exact = 1,
    /// Black under renju: exactly five, overline and two fours on a line are forbidden shapes.
    RenjuBlack = 2,
}

/// Number of line keys: ten cells in base 3.
pub const LINE_KEYS: usize = 59049;

/// `3^i` for the ten cell digits.
pub const POW3: [u16; 10] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

const EMPTY: u8 = 0;
const OWN: u8 = 1;

fn is_five(len: usize, rule: LineRule) -> bool {
    match rule {
        LineRule::Free => len >= 5,
        _ => len == 5,
    }
}

/// The length of the run of own stones through `i` (which must hold an own stone).
fn run(line: &[u8; 11], i: usize) -> (usize, usize) {
    let mut lo = i;
    while lo > 0 && line[lo - 1] == OWN {
        lo -= 1;
    }
    let mut hi = i;
    while hi < 10 && line[hi + 1] == OWN {
        hi += 1;
    }
    (lo, hi)
}

fn decode(key: usize) -> [u8; 11] {
    let mut line = [EMPTY; 11];
    let mut k = key;
    for d in 0..10 {
        let i = if d < 5 { d } else { d + 1 };
        line[i] = (k % 3) as u8;
        k /= 3;
    }
    line[5] = OWN;
    line
}

fn digit_of(i: usize) -> usize {
    if i < 5 { i } else { i - 1 }
}

fn classify(key: usize, rule: LineRule, memo: &mut [u8]) -> Pattern {
    if memo[key] != u8::MAX {
        return Pattern::from_u8(memo[key]);
    }
    let mut line = decode(key);
    let (lo, hi) = run(&line, 5);
    let len = hi - lo + 1;
    let result = if is_five(len, rule) {
        Pattern::F5
    } else if len >= 6 {
        Pattern::Overline
    } else {
        let mut fives = [0usize; 10];
        let mut n5 = 0;
        for q in 1..=9 {
            if q == 5 || line[q] != EMPTY {
                continue;
            }
            line[q] = OWN;
            let (l, h) = run(&line, q);
            if l <= 5 && 5 <= h && is_five(h - l + 1, rule) {
                fives[n5] = q;
                n5 += 1;
            }
            line[q] = EMPTY;
        }
        if n5 >= 2 {
            if rule == LineRule::RenjuBlack && !(n5 == 2 && fives[1] - fives[0] == 5) {
                Pattern::DoubleFour
            } else {
                Pattern::F4
            }
        } else if n5 == 1 {
            Pattern::B4
        } else {
            let mut best = Pattern::Dead;
            for q in 1..=9 {
                if q == 5 || line[q] != EMPTY {
                    continue;
                }
                let child = classify(key + POW3[digit_of(q)] as usize, rule, memo);
                let up = match child {
                    Pattern::F4 => Pattern::F3,
                    Pattern::B4 => Pattern::B3,
                    Pattern::F3 => Pattern::F2,
                    Pattern::B3 => Pattern::B2,
                    Pattern::F2 => Pattern::F1,
                    Pattern::B2 => Pattern::B1,
                    _ => Pattern::Dead,
                };
                if up > best {
                    best = up;
                }
            }
            best
        }
    };
    memo[key] = result as u8;
    result
}

fn build_line_table(rule: LineRule) -> Box<[u8]> {
    let mut memo = vec![u8::MAX; LINE_KEYS];
    for key in 0..LINE_KEYS {
        classify(key, rule, &mut memo);
    }
    memo.into_boxed_slice()
}

/// The line table of `rule`: `table[key]` is the [`Pattern`] (as `u8`) of a stone placed at the
/// centre of the ten cells encoded by `key` (digit `i` = cell at offset `-5+i` for `i < 5`,
/// `i-4` for `i >= 5`; 0 empty, 1 own, 2 blocked). Built once, on first use (a few ms).
#[must_use]
pub fn line_table(rule: LineRule) -> &'static [u8] {
    static TABLES: [OnceLock<Box<[u8]>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[rule as usize].get_or_init(|| build_line_table(rule))
}

/// The combined class of a point for one side: the four line patterns read together (source
/// 001's compound patterns). Larger is more urgent, except [`Forbidden`](Class::Forbidden).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Class {
    /// Nothing forcing.
    None = 0,
    /// Renju Black: an overline or two fours (certainly forbidden, no five).
    Forbidden = 1,
    /// One open three.
    Three = 2,
    /// Two or more open threes (under renju for Black: a double-three candidate, real threes
    /// still to be checked).
    DoubleThree = 3,
    /// One four (no open three).
    Four = 4,
    /// A four and an open three.
    FourThree = 5,
    /// An open four, or two fours where that wins.
    OpenFour = 6,
    /// A five.
    Five = 7,
}

/// Number of [`Class`] values.
pub const CLASSES: usize = 8;

/// Index in [`crate::weights::WEIGHTS`] of the value of [`Pattern`] `p` along one direction: `p as usize`.
pub(crate) const W_PATTERN: usize = 0;
/// Index of the four-three class bonus; open three, open four, five and cooperation follow.
pub(crate) const W_FOUR_THREE: usize = 12;
pub(crate) const W_DOUBLE_THREE: usize = 13;
pub(crate) const W_OPEN_FOUR: usize = 14;
pub(crate) const W_FIVE: usize = 15;
pub(crate) const W_COOPERATION: usize = 16;
/// Index in [`crate::weights::WEIGHTS`] of the first pattern-code correction: [`PCODES`] values for each
/// [`ValueKind`] in order, at `W_PCODE + kind * PCODES + pcode(pats)`.
/// A correction is added to the value of every non-forbidden point whose four direction
/// patterns make that multiset (Rapfi's per-cell table, learned on top of the linear value).
pub(crate) const W_PCODE: usize = 28;
/// Number of pattern codes: the multisets of four patterns out of 12, `C(15, 4)`.
pub const PCODES: usize = 1365;

/// `C(n, k)` for the small arguments of [`pcode`].
const fn binomial(n: usize, k: usize) -> usize {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    if k > n { 0 } else { r }
}

/// The pattern code of four direction patterns: the rank of their multiset in `0..PCODES`
/// (the order of the directions does not matter). Sorted `a <= b <= c <= d` map to the
/// strictly rising `a, b+1, c+2, d+3` and those to their combinatorial-number-system rank.
#[must_use]
pub fn pcode(pats: [Pattern; 4]) -> usize {
    let mut v = pats.map(|p| p as usize);
    v.sort_unstable();
    binomial(v[0], 1) + binomial(v[1] + 1, 2) + binomial(v[2] + 2, 3) + binomial(v[3] + 3, 4)
}

/// Which point values a side's empty points take: the rules differ in what a shape is worth
/// (renju White plays against forbidden points, renju Black under them).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// Freestyle and standard, both sides.
    Free = 0,
    /// Black under renju.
    RenjuBlack = 1,
    /// White under renju.
    RenjuWhite = 2,
}

impl ValueKind {
    /// The kind of `side`'s points under `rule`.
    #[must_use]
    pub fn of(rule: Rule, side: Side) -> ValueKind {
        match (rule, side) {
            (Rule::Renju, Side::First) => ValueKind::RenjuBlack,
            (Rule::Renju, Side::Second) => ValueKind::RenjuWhite,
            _ => ValueKind::Free,
        }
    }
}

/// The [`crate::weights::WEIGHTS`] index of the pattern-code correction of a point with these direction
/// patterns for a side of this kind.
#[must_use]
pub(crate) fn pcode_weight(pats: [Pattern; 4], kind: ValueKind) -> usize {
    W_PCODE + kind as usize * PCODES + pcode(pats)
}

/// Whether the cooperation bonus applies to a point of class `class` with these direction
/// patterns: two closed or open threes, two open twos, or a three and an open two, below a four.
pub(crate) fn cooperates(pats: &[Pattern; 4], class: Class) -> bool {
    let count = |p: Pattern| pats.iter().filter(|&&x| x == p).count();
    let (b3, f3, f2) = (count(Pattern::B3), count(Pattern::F3), count(Pattern::F2));
    class < Class::Four && (b3 + f3 >= 2 || f2 >= 2 || (f3 + b3 >= 1 && f2 >= 1))
}

/// The index in [`crate::weights::WEIGHTS`] of the class bonus a point of `class` gets, if any
/// (double three only where it is not forbidden).
pub(crate) fn class_weight(class: Class, renju_black: bool) -> Option<usize> {
    match class {
        Class::FourThree => Some(W_FOUR_THREE),
        Class::DoubleThree if !renju_black => Some(W_DOUBLE_THREE),
        Class::OpenFour => Some(W_OPEN_FOUR),
        Class::Five => Some(W_FIVE),
        _ => None,
    }
}

/// Base-3 key of a line given as text (`X` own, `.` empty, `O`/`#` blocked), eleven
/// characters with the centre (index 5) the point being played. Test helper.
#[cfg(test)]
pub(crate) fn key_of(text: &str) -> usize {
    let b = text.as_bytes();
    assert_eq!(b.len(), 11);
    let mut key = 0;
    for (i, &c) in b.iter().enumerate() {
        if i == 5 {
            continue;
        }
        let v = match c {
            b'X' => 1,
            b'.' => 0,
            _ => 2,
        };
        key += v * POW3[digit_of(i)] as usize;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(rule: LineRule, text: &str) -> Pattern {
        Pattern::from_u8(line_table(rule)[key_of(text)])
    }

    #[test]
    fn line_patterns() {
        use Pattern::*;
        let free = LineRule::Free;
        let exact = LineRule::Exact;
        let rb = LineRule::RenjuBlack;
        assert_eq!(pat(free, "...XX*XX..."), F5);
        assert_eq!(pat(free, "..XXX*XX..."), F5);
        assert_eq!(pat(exact, "..XXX*XX..."), Overline);
        assert_eq!(pat(exact, "...XX*XX.X."), F5);
        assert_eq!(pat(exact, "....X*XX..."), F4);
        assert_eq!(pat(exact, "...OX*XX..."), B4);
        assert_eq!(pat(rb, "..X.X*X.X.."), DoubleFour);
        assert_eq!(pat(exact, "..X.X*X.X.."), F4);
        assert_eq!(pat(free, ".....*X...."), F2);
        assert_eq!(pat(free, "....X*X...."), F3);
        assert_eq!(pat(free, "...OX*X...."), B3);
        assert_eq!(pat(free, "..O..*X.O.."), B2);
        assert_eq!(pat(free, "OOOOO*OOOOO"), Dead);
        assert_eq!(pat(free, "....O*....O"), B1);
        // An open-four end that would be an overline is not a five point for Black under renju.
        assert_eq!(pat(rb, ".X.XX*X...."), B4);
        assert_eq!(pat(free, ".X.XX*X...."), F4);
    }

    #[test]
    fn pattern_codes_number_the_multisets() {
        let mut seen = vec![false; PCODES];
        for a in 0..12u8 {
            for b in a..12 {
                for c in b..12 {
                    for d in c..12 {
                        let pats = [a, b, c, d].map(Pattern::from_u8);
                        let code = pcode(pats);
                        assert!(!seen[code], "{pats:?} shares code {code}");
                        seen[code] = true;
                        let turned = [pats[2], pats[0], pats[3], pats[1]];
                        assert_eq!(pcode(turned), code, "the order of directions counts");
                    }
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every code in 0..PCODES is used");
    }
}
