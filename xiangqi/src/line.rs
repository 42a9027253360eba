//! Sliding along ranks and files with the occupancy bits of the position: what a rook or a
//! cannon sees in each direction in a few bit operations instead of a walk.

/// No piece in that direction.
pub(crate) const NONE: u32 = 99;

/// What a rook or cannon sees in one direction along a rank or file.
#[derive(Copy, Clone)]
pub(crate) struct Line {
    /// Empty points before the first piece (or the edge).
    pub empties: i32,
    /// Index along the line of the first piece, or [`NONE`].
    pub first: u32,
    /// Index of the second piece (a cannon's target), or [`NONE`].
    pub second: u32,
}

/// Looking up the line (towards higher indices) from index `i` of occupancy `m`.
#[inline(always)]
pub(crate) fn towards_high(m: u32, i: u32, len: u32) -> Line {
    let above = m >> (i + 1);
    if above == 0 {
        return Line {
            empties: (len - 1 - i) as i32,
            first: NONE,
            second: NONE,
        };
    }
    let t = above.trailing_zeros();
    let rest = above & (above - 1);
    Line {
        empties: t as i32,
        first: i + 1 + t,
        second: if rest == 0 {
            NONE
        } else {
            i + 1 + rest.trailing_zeros()
        },
    }
}

/// Looking down the line (towards lower indices) from index `i` of occupancy `m`.
#[inline(always)]
pub(crate) fn towards_low(m: u32, i: u32) -> Line {
    let below = m & ((1 << i) - 1);
    if below == 0 {
        return Line {
            empties: i as i32,
            first: NONE,
            second: NONE,
        };
    }
    let h = 31 - below.leading_zeros();
    let rest = below & !(1 << h);
    Line {
        empties: (i - 1 - h) as i32,
        first: h,
        second: if rest == 0 {
            NONE
        } else {
            31 - rest.leading_zeros()
        },
    }
}

/// File and rank of a mailbox point.
#[inline(always)]
pub(crate) fn coords(sq: u8) -> (u32, u32) {
    (u32::from(sq & 15) - 3, u32::from(sq >> 4) - 3)
}

/// The four lines from (`file`, `rank`) on occupancy bits (the position's, or a scratch copy
/// being changed): along the rank right and left, along the file up and down, each with the
/// (base, stride) turning a line index `i` into the mailbox point `base + i * stride`.
#[inline(always)]
pub(crate) fn lines_of(
    occ_rank: &[u16; 10],
    occ_file: &[u16; 9],
    file: u32,
    rank: u32,
) -> [(Line, (u32, u32)); 4] {
    let on_rank = ((rank + 3) * 16 + 3, 1);
    let on_file = (3 * 16 + file + 3, 16);
    let r = u32::from(occ_rank[rank as usize]);
    let f = u32::from(occ_file[file as usize]);
    [
        (towards_high(r, file, 9), on_rank),
        (towards_low(r, file), on_rank),
        (towards_high(f, rank, 10), on_file),
        (towards_low(f, rank), on_file),
    ]
}

/// The mailbox point at index `i` of a line.
#[inline(always)]
pub(crate) fn at((base, stride): (u32, u32), i: u32) -> usize {
    (base + i * stride) as usize & 255
}
