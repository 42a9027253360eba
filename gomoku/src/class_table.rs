//! The class table: for every combination of a point's four direction patterns, its
//! [`Class`], its evaluation value and its two move-ordering values, looked up in one step
//! while the board updates incrementally. It joins the pattern rules ([`crate::pattern`]), the
//! evaluation weights ([`WEIGHTS`]) and the fitted ordering tables ([`crate::policy`]).

use std::sync::OnceLock;

use crate::pattern::{
    Class, Pattern, ValueKind, W_COOPERATION, W_PATTERN, class_weight, cooperates, pcode_weight,
};
use crate::policy::order_values;
use crate::weights::WEIGHTS;

/// One entry of the class table: class and evaluation value of a point for one side.
#[derive(Copy, Clone, Debug, Default)]
pub struct ClassEntry {
    /// The [`Class`] as `u8`.
    pub class: u8,
    /// The point's value for the evaluation, in evaluation units.
    pub value: i16,
    /// The ordering value of playing the point ([`crate::policy`]'s `own` table).
    pub own: i16,
    /// The ordering value of taking the point from this side ([`crate::policy`]'s `block`
    /// table).
    pub block: i16,
}

fn combine(pats: [Pattern; 4], kind: ValueKind) -> ClassEntry {
    let renju_black = kind == ValueKind::RenjuBlack;
    let count = |p: Pattern| pats.iter().filter(|&&x| x == p).count();
    let f5 = count(Pattern::F5);
    let f4 = count(Pattern::F4);
    let b4 = count(Pattern::B4);
    let df4 = count(Pattern::DoubleFour);
    let ol = count(Pattern::Overline);
    let f3 = count(Pattern::F3);
    let fours = f4 + b4 + 2 * df4;
    let class = if f5 > 0 {
        Class::Five
    } else if renju_black && (ol > 0 || fours >= 2) {
        Class::Forbidden
    } else if renju_black && f3 >= 2 {
        Class::DoubleThree
    } else if f4 > 0 || fours >= 2 {
        Class::OpenFour
    } else if b4 > 0 && f3 > 0 {
        Class::FourThree
    } else if b4 > 0 {
        Class::Four
    } else if f3 >= 2 {
        Class::DoubleThree
    } else if f3 == 1 {
        Class::Three
    } else {
        Class::None
    };
    // A forbidden point is worth nothing (but may still cooperate).
    let mut value: i32 = if class == Class::Forbidden {
        0
    } else {
        pats.iter()
            .map(|&p| WEIGHTS[W_PATTERN + p as usize].value)
            .sum::<i32>()
            + class_weight(class, renju_black).map_or(0, |w| WEIGHTS[w].value)
            + WEIGHTS[pcode_weight(pats, kind)].value
    };
    if cooperates(&pats, class) {
        value += WEIGHTS[W_COOPERATION].value;
    }
    let (own, block) = order_values(pats, kind);
    ClassEntry {
        class: class as u8,
        value: value.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
        own,
        block,
    }
}

/// The class table: `table[p0 | p1 << 4 | p2 << 8 | p3 << 12]` for the four direction patterns
/// `p0..p3` (as `u8`), one per [`ValueKind`]. Built once, on first use.
#[must_use]
pub fn class_table(kind: ValueKind) -> &'static [ClassEntry] {
    static TABLES: [OnceLock<Box<[ClassEntry]>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[kind as usize].get_or_init(|| {
        let mut t = vec![ClassEntry::default(); 1 << 16];
        for (i, e) in t.iter_mut().enumerate() {
            let p = |d: usize| Pattern::from_u8(((i >> (4 * d)) & 15) as u8);
            *e = combine([p(0), p(1), p(2), p(3)], kind);
        }
        t.into_boxed_slice()
    })
}
