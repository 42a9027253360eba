//! Fixed middle-game positions for speed and depth measurements (not tests): the
//! `gomoku_depth` example reports the depth the engine reaches on each in a given time.
//!
//! The positions are taken 12 to 26 moves into qi self-play games from random 3-stone openings
//! (December 2026), all quiet: neither side has a four, an open-four point or a four-three
//! point, and the engine found no VCF or VCT in them.

use crate::point::Rule;

/// Middle-game positions as `(rule, moves)`, moves in `h8` notation on 15x15.
pub const MIDDLE_GAME: [(Rule, &str); 9] = [
    (
        Rule::Freestyle,
        "h6g7j10g5g8g6g4f7f5d7e7e8d9f9g10c6b5d4d6c5",
    ),
    (
        Rule::Freestyle,
        "g9i8i10j9k10h10j10l10h9g8j11l13h8l9l11k9m9m11j8n12o13f10",
    ),
    (
        Rule::Freestyle,
        "g8h10j10i8i9h8e10h9h7f9f11d9g9e9h12g10i11k9",
    ),
    (Rule::Freestyle, "f8h9h10g9i9g11g10j10e9d10j8k7i8i7"),
    (Rule::Freestyle, "i9g8g6h9i10i8h8g10f11g7i7e10"),
    (Rule::Renju, "i9i6g10k6j6j5k5k4h7i4h3l4j4l6l5h5"),
    (Rule::Renju, "f10i9g7k9g9j9l9g8f8i7h6e9i6i11i5j4f6g6i10f9"),
    (Rule::Renju, "j10h6g9g6f6h5h8g7f8h4h3f7e8g8"),
    (
        Rule::Renju,
        "h10g8j7h9i10j10g10e10f9f7e6h11i9i11g11j8f10f8h8e9f12e13",
    ),
];
