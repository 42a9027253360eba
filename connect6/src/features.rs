//! The feature layout of the connect6 evaluation: which index of [`WEIGHTS`] holds which
//! window, threat or tempo value (the formula is in [`crate::tune`]'s documentation). The
//! evaluation ([`crate::ThreatEval`]) reads its weights through these indices and the tuner
//! writes its features at them; a `weights.rs` in another order fails to compile.

use crate::weights::WEIGHTS;

/// Index in [`WEIGHTS`] of `tempo.stone`, the bonus per stone the side to move still places in
/// this turn.
pub const TEMPO: usize = 22;

/// The most stones a window of the side to move can hold outside the decisive cases, by the
/// stones `left` (1 or 2) it still places this turn: `5 - left` (more completes a six now).
#[must_use]
pub const fn max_own(left: u8) -> usize {
    5 - left as usize
}

/// Index in [`WEIGHTS`] of `turn{left}_own.{n}`: the value, for the side to move with `left`
/// (1 or 2) stones still to place, of a window holding `n` (1..=[`max_own`]`(left)`) of its
/// stones and none of the opponent's.
///
/// # Panics
/// In const evaluation (a compile error) or debug builds, for `left` or `n` out of range.
#[must_use]
pub const fn own(left: u8, n: usize) -> usize {
    assert!((left == 1 || left == 2) && n >= 1 && n <= max_own(left));
    if left == 2 { n - 1 } else { 8 + n - 1 }
}

/// Index in [`WEIGHTS`] of `turn{left}_opp.{n}`: the value, counted against the side to move
/// with `left` (1 or 2) stones still to place, of a window holding `n` (1..=5) of the
/// opponent's stones and none of its own.
///
/// # Panics
/// For `left` or `n` out of range (see [`own`]).
#[must_use]
pub const fn opp(left: u8, n: usize) -> usize {
    assert!((left == 1 || left == 2) && n >= 1 && n <= 5);
    if left == 2 { 3 + n - 1 } else { 12 + n - 1 }
}

/// Index in [`WEIGHTS`] of `turn{left}_opp_threats.{k}`: the value, counted against the side to
/// move with `left` (1 or 2) stones still to place, of the opponent having `k` (1..=`left`)
/// threats ([`crate::Connect6::threat_count`]; more than `left` is decisive).
///
/// # Panics
/// For `left` or `k` out of range (see [`own`]).
#[must_use]
pub const fn opp_threats(left: u8, k: u8) -> usize {
    assert!((left == 1 || left == 2) && k >= 1 && k <= left);
    if left == 2 { 17 + k as usize - 1 } else { 19 }
}

/// Index in [`WEIGHTS`] of `turn1_own_threats.{k}`: the value, for the side to move placing
/// the last stone of its turn, of having `k` threats (1, or 2 meaning 2 or more). With two
/// stones to place a threat of its own is a six (decisive).
///
/// # Panics
/// For `k` out of range (see [`own`]).
#[must_use]
pub const fn own_threats(k: u8) -> usize {
    assert!(k == 1 || k == 2);
    20 + k as usize - 1
}

/// The weight names in index order: `weights.rs` must list exactly these.
const NAMES: [&str; 23] = [
    "turn2_own.1",
    "turn2_own.2",
    "turn2_own.3",
    "turn2_opp.1",
    "turn2_opp.2",
    "turn2_opp.3",
    "turn2_opp.4",
    "turn2_opp.5",
    "turn1_own.1",
    "turn1_own.2",
    "turn1_own.3",
    "turn1_own.4",
    "turn1_opp.1",
    "turn1_opp.2",
    "turn1_opp.3",
    "turn1_opp.4",
    "turn1_opp.5",
    "turn2_opp_threats.1",
    "turn2_opp_threats.2",
    "turn1_opp_threats.1",
    "turn1_own_threats.1",
    "turn1_own_threats.2",
    "tempo.stone",
];

const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

// The indices above must name the weights they stand for: a regenerated `weights.rs` in
// another order fails to compile rather than mixing the weights up.
const _: () = {
    assert!(NAMES.len() == WEIGHTS.len());
    let mut i = 0;
    while i < NAMES.len() {
        assert!(same_name(WEIGHTS[i].name, NAMES[i]));
        i += 1;
    }
    assert!(same_name(WEIGHTS[own(2, 3)].name, "turn2_own.3"));
    assert!(same_name(WEIGHTS[own(1, 4)].name, "turn1_own.4"));
    assert!(same_name(WEIGHTS[opp(2, 5)].name, "turn2_opp.5"));
    assert!(same_name(WEIGHTS[opp(1, 5)].name, "turn1_opp.5"));
    assert!(same_name(
        WEIGHTS[opp_threats(2, 2)].name,
        "turn2_opp_threats.2"
    ));
    assert!(same_name(
        WEIGHTS[opp_threats(1, 1)].name,
        "turn1_opp_threats.1"
    ));
    assert!(same_name(
        WEIGHTS[own_threats(2)].name,
        "turn1_own_threats.2"
    ));
    assert!(same_name(WEIGHTS[TEMPO].name, "tempo.stone"));
};
