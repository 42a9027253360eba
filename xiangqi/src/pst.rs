//! The piece-square tables and the weight layout of the xiangqi evaluation, built at compile
//! time from [`WEIGHTS`]: [`PSQ`] (the baseline's material and square bonus) and [`PST`]
//! (the engine's tapered material and square terms), which the position keeps up to date
//! incrementally on make/unmake, the game phase weights, and the named weight indices the
//! dynamic terms of [`crate::eval`] read. Nothing here looks at a position.

use crate::weights::WEIGHTS;

/// Material of each kind (king, advisor, elephant, horse, rook, cannon, pawn), the baseline
/// values of [`MaterialEval`](crate::MaterialEval).
pub const MATERIAL: [i32; 7] = [0, 40, 40, 100, 220, 105, 20];

/// A piece-square bonus for a Red piece of kind `kind` at `file` (0..9) and `rank` (0..10,
/// from Red's side); Black's is mirrored.
pub(crate) const fn bonus(kind: usize, file: i32, rank: i32) -> i32 {
    let centre = 4 - if file > 4 { file - 4 } else { 4 - file }; // 0 at the edge .. 4 in the centre
    match kind {
        // Horse: towards the centre and forward.
        3 => centre * 4 + if rank >= 3 && rank <= 7 { rank * 2 } else { 0 },
        // Rook: mobility on open files is dynamic; a small bonus off the back rank.
        4 => (if rank > 0 { 6 } else { 0 }) + centre,
        // Cannon: central file.
        5 if file == 4 => 8,
        // Pawn: worth much more after crossing, most near the enemy palace (not on the last rank).
        6 if rank >= 5 => {
            let near = if file >= 3 && file <= 5 { 10 } else { 0 };
            let adv = if rank == 9 { 10 } else { (rank - 4) * 6 };
            25 + adv + near
        }
        _ => 0,
    }
}

pub(crate) const fn build_psq() -> [[[i32; 256]; 7]; 2] {
    let mut t = [[[0i32; 256]; 7]; 2];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                let v = MATERIAL[kind] + bonus(kind, file, rank);
                let red_sq = ((rank + 3) * 16 + file + 3) as usize;
                let black_sq = ((9 - rank + 3) * 16 + (8 - file) + 3) as usize;
                t[0][kind][red_sq] = v;
                t[1][kind][black_sq] = -v;
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    t
}

/// `PSQ[side][kind][mailbox square]`: Red's entries positive, Black's negative.
pub(crate) static PSQ: [[[i32; 256]; 7]; 2] = build_psq();

// ---------------------------------------------------------------------------------------
// The engine evaluation: tapered material + piece-square tables.
// ---------------------------------------------------------------------------------------

/// Packs an opening and an endgame value into one `i32` (opening in the high half), so both
/// are updated with one addition.
#[inline]
pub(crate) const fn pair(mg: i32, eg: i32) -> i32 {
    (mg << 16).wrapping_add(eg)
}

/// The opening half of a packed pair.
#[inline]
pub(crate) const fn mg_of(p: i32) -> i32 {
    (p.wrapping_add(0x8000)) >> 16
}

/// The endgame half of a packed pair.
#[inline]
pub(crate) const fn eg_of(p: i32) -> i32 {
    p as i16 as i32
}

// ---------------------------------------------------------------------------------------
// The weights: every number of the engine evaluation a tuner may move is a named entry of
// [`WEIGHTS`], found here by name when the crate is built. The evaluation is linear in them:
// each term below is a weight times an integer coefficient (see `crate::tune`).
// ---------------------------------------------------------------------------------------

/// Whether `name` is `item` followed by `suffix` (usable in constants).
pub(crate) const fn is_named(name: &str, item: &str, suffix: &str) -> bool {
    let (n, i, s) = (name.as_bytes(), item.as_bytes(), suffix.as_bytes());
    if n.len() != i.len() + s.len() {
        return false;
    }
    let mut k = 0;
    while k < n.len() {
        let expected = if k < i.len() { i[k] } else { s[k - i.len()] };
        if n[k] != expected {
            return false;
        }
        k += 1;
    }
    true
}

/// The index in [`WEIGHTS`] of the weight named `item` + `suffix`; a name that is not there
/// stops the build.
pub(crate) const fn find(item: &str, suffix: &str) -> usize {
    let mut k = 0;
    while k < WEIGHTS.len() {
        if is_named(WEIGHTS[k].name, item, suffix) {
            return k;
        }
        k += 1;
    }
    panic!("a weight the xiangqi evaluation reads is missing from xiangqi::weights::WEIGHTS");
}

/// The index in [`WEIGHTS`] of the weight named `name`.
pub(crate) const fn weight(name: &str) -> usize {
    find(name, "")
}

/// The indices in [`WEIGHTS`] of a term's opening (`item.mg`) and endgame (`item.eg`) weights.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Tapered {
    /// Index of the opening weight.
    pub(crate) mg: usize,
    /// Index of the endgame weight.
    pub(crate) eg: usize,
}

/// The weights `item.mg` and `item.eg`.
pub(crate) const fn tapered(item: &str) -> Tapered {
    Tapered {
        mg: find(item, ".mg"),
        eg: find(item, ".eg"),
    }
}

/// Material of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub(crate) const W_MATERIAL: [Tapered; 7] = [
    tapered("material.king"),
    tapered("material.advisor"),
    tapered("material.elephant"),
    tapered("material.horse"),
    tapered("material.rook"),
    tapered("material.cannon"),
    tapered("material.pawn"),
];
/// King: per rank off the back rank.
pub(crate) const W_KING_RANK: Tapered = tapered("king.rank");
/// King off the central file (opening only).
pub(crate) const W_KING_SIDE_FILE: usize = weight("king.side_file.mg");
/// King on the central file (endgame only).
pub(crate) const W_KING_CENTRE_FILE: usize = weight("king.centre_file.eg");
/// Advisor in the palace centre.
pub(crate) const W_ADVISOR_CENTRE: Tapered = tapered("advisor.centre");
/// Advisor on a palace top corner.
pub(crate) const W_ADVISOR_TOP: Tapered = tapered("advisor.top");
/// Elephant on the centre point in front of its king.
pub(crate) const W_ELEPHANT_CENTRE: Tapered = tapered("elephant.centre");
/// Elephant on an edge file.
pub(crate) const W_ELEPHANT_EDGE: Tapered = tapered("elephant.edge");
/// Elephant on the river bank (not on an edge file).
pub(crate) const W_ELEPHANT_FORWARD: Tapered = tapered("elephant.forward");
/// Horse: per file step towards the centre (0 on an edge file .. 4 on the central one).
pub(crate) const W_HORSE_CENTRE: Tapered = tapered("horse.centre");
/// Horse on the inner files c..g.
pub(crate) const W_HORSE_INNER: Tapered = tapered("horse.inner");
/// Horse on the central file.
pub(crate) const W_HORSE_CENTRE_FILE: Tapered = tapered("horse.centre_file");
/// Horse on an edge file.
pub(crate) const W_HORSE_EDGE: Tapered = tapered("horse.edge");
/// Horse on files c..g of ranks 7 and 8, next to the enemy palace.
pub(crate) const W_HORSE_PALACE: Tapered = tapered("horse.palace");
/// Horse on files b or h of ranks 0 and 1 (home, undeveloped).
pub(crate) const W_HORSE_HOME: Tapered = tapered("horse.home");
/// Horse on rank 0..=8 (rank 9 is the zero of the scale).
pub(crate) const W_HORSE_RANK: [Tapered; 9] = [
    tapered("horse.rank0"),
    tapered("horse.rank1"),
    tapered("horse.rank2"),
    tapered("horse.rank3"),
    tapered("horse.rank4"),
    tapered("horse.rank5"),
    tapered("horse.rank6"),
    tapered("horse.rank7"),
    tapered("horse.rank8"),
];
/// Rook off its back rank.
pub(crate) const W_ROOK_ADVANCED: Tapered = tapered("rook.advanced");
/// Rook on a rib file (d or f).
pub(crate) const W_ROOK_RIB: Tapered = tapered("rook.rib");
/// Rook on the central file.
pub(crate) const W_ROOK_CENTRE_FILE: Tapered = tapered("rook.centre_file");
/// Rook on ranks 5..=7, across the river.
pub(crate) const W_ROOK_ACROSS: Tapered = tapered("rook.across");
/// Rook on rank 8, the enemy palace's throat.
pub(crate) const W_ROOK_RANK8: Tapered = tapered("rook.rank8");
/// Rook: per file step towards the centre.
pub(crate) const W_ROOK_CENTRE: Tapered = tapered("rook.centre");
/// Cannon on the central file.
pub(crate) const W_CANNON_CENTRE_FILE: Tapered = tapered("cannon.centre_file");
/// Cannon on a rib file.
pub(crate) const W_CANNON_RIB: Tapered = tapered("cannon.rib");
/// Cannon on the enemy's back rank.
pub(crate) const W_CANNON_ENEMY_BACK: Tapered = tapered("cannon.enemy_back");
/// Cannon on ranks 5..=7 of files a..c or g..i.
pub(crate) const W_CANNON_RIVER: Tapered = tapered("cannon.river");
/// Cannon on ranks 5..=7 of a rib file.
pub(crate) const W_CANNON_RIB_RIVER: Tapered = tapered("cannon.rib_river");
/// Pawn one step forward on files c, e or g (the river bank).
pub(crate) const W_PAWN_BANK: Tapered = tapered("pawn.bank");
/// Pawn across the river.
pub(crate) const W_PAWN_CROSSED: Tapered = tapered("pawn.crossed");
/// Crossed pawn on rank 6..=9, on top of `pawn.crossed`.
pub(crate) const W_PAWN_RANK: [Tapered; 4] = [
    tapered("pawn.rank6"),
    tapered("pawn.rank7"),
    tapered("pawn.rank8"),
    tapered("pawn.rank9"),
];
/// Crossed pawn on files d..f.
pub(crate) const W_PAWN_NEAR_PALACE: Tapered = tapered("pawn.near_palace");
/// Crossed pawn on an edge file.
pub(crate) const W_PAWN_EDGE: Tapered = tapered("pawn.edge");
/// Rook mobility: per destination above 8.
pub(crate) const W_MOBILITY_ROOK: Tapered = tapered("mobility.rook");
/// Horse mobility: per destination above 3.
pub(crate) const W_MOBILITY_HORSE: Tapered = tapered("mobility.horse");
/// Cannon mobility: per unit above 6 (a quiet destination 1, a capture 2).
pub(crate) const W_MOBILITY_CANNON: Tapered = tapered("mobility.cannon");
/// A horse with at most one destination.
pub(crate) const W_HORSE_TRAPPED: Tapered = tapered("horse.trapped");
/// A cannon on the enemy king's file with nothing between ("hollow cannon").
pub(crate) const W_CANNON_HOLLOW: Tapered = tapered("cannon.hollow");
/// Two crossed pawns side by side.
pub(crate) const W_PAWN_CONNECTED: Tapered = tapered("pawn.connected");
/// King safety: per missing advisor (the same count as material, negated: fixed).
pub(crate) const W_SAFETY_ADVISOR: Tapered = tapered("safety.advisor");
/// King safety: per missing advisor and unit of the opponent's attacking force.
pub(crate) const W_SAFETY_ADVISOR_ATTACK: Tapered = tapered("safety.advisor_attack");
/// King safety: per missing elephant (the same count as material, negated: fixed).
pub(crate) const W_SAFETY_ELEPHANT: Tapered = tapered("safety.elephant");
/// King safety: per missing elephant and unit of attacking force (opening).
pub(crate) const W_SAFETY_ELEPHANT_ATTACK: usize = weight("safety.elephant_attack.mg");
/// King safety: per missing elephant and unit of attacking force, halved and rounded down
/// (endgame).
pub(crate) const W_SAFETY_ELEPHANT_ATTACK_HALF: usize = weight("safety.elephant_attack_half.eg");

/// The values of [`WEIGHTS`], for the evaluation's inner loop.
pub(crate) static VALUES: [i32; WEIGHTS.len()] = {
    let mut v = [0; WEIGHTS.len()];
    let mut k = 0;
    while k < WEIGHTS.len() {
        v[k] = WEIGHTS[k].value;
        k += 1;
    }
    v
};

/// Where the evaluation's terms go: a weight index and an integer coefficient, Red minus
/// Black, for the opening or the endgame half. The evaluation sums `value × coefficient`;
/// the tuning features record the coefficients.
pub(crate) trait Terms {
    /// Adds `coefficient` times the opening weight `weight`.
    fn mg(&mut self, weight: usize, coefficient: i32);
    /// Adds `coefficient` times the endgame weight `weight`.
    fn eg(&mut self, weight: usize, coefficient: i32);
    /// Adds `coefficient` times both weights of `term`.
    #[inline(always)]
    fn both(&mut self, term: Tapered, coefficient: i32) {
        self.mg(term.mg, coefficient);
        self.eg(term.eg, coefficient);
    }
}

/// The most terms one point has in each half.
pub(crate) const MAX_SQUARE_TERMS: usize = 8;

/// The piece-square terms (material included) of one kind on one point: (weight index,
/// coefficient) pairs for each half, coefficients non-zero.
#[derive(Copy, Clone, Debug)]
pub(crate) struct SquareTerms {
    /// Opening terms, the first `mg_len` used.
    pub(crate) mg: [(usize, i32); MAX_SQUARE_TERMS],
    /// Number of opening terms.
    pub(crate) mg_len: usize,
    /// Endgame terms, the first `eg_len` used.
    pub(crate) eg: [(usize, i32); MAX_SQUARE_TERMS],
    /// Number of endgame terms.
    pub(crate) eg_len: usize,
}

impl SquareTerms {
    const fn new() -> Self {
        SquareTerms {
            mg: [(0, 0); MAX_SQUARE_TERMS],
            mg_len: 0,
            eg: [(0, 0); MAX_SQUARE_TERMS],
            eg_len: 0,
        }
    }

    const fn add_mg(&mut self, weight: usize, coefficient: i32) {
        if coefficient != 0 {
            self.mg[self.mg_len] = (weight, coefficient);
            self.mg_len += 1;
        }
    }

    const fn add_eg(&mut self, weight: usize, coefficient: i32) {
        if coefficient != 0 {
            self.eg[self.eg_len] = (weight, coefficient);
            self.eg_len += 1;
        }
    }

    const fn add(&mut self, term: Tapered, coefficient: i32) {
        self.add_mg(term.mg, coefficient);
        self.add_eg(term.eg, coefficient);
    }

    /// Both weights of `term` with coefficient 1 when `on`.
    const fn add_if(&mut self, term: Tapered, on: bool) {
        if on {
            self.add(term, 1);
        }
    }

    /// The (opening, endgame) value with the weights of [`WEIGHTS`].
    const fn value(&self) -> (i32, i32) {
        let (mut mg, mut eg) = (0, 0);
        let mut k = 0;
        while k < self.mg_len {
            mg += WEIGHTS[self.mg[k].0].value * self.mg[k].1;
            k += 1;
        }
        k = 0;
        while k < self.eg_len {
            eg += WEIGHTS[self.eg[k].0].value * self.eg[k].1;
            k += 1;
        }
        (mg, eg)
    }

    /// Passes every term, its coefficient times `sign`, to `terms`.
    pub(crate) fn feed<T: Terms>(&self, sign: i32, terms: &mut T) {
        for &(w, c) in &self.mg[..self.mg_len] {
            terms.mg(w, sign * c);
        }
        for &(w, c) in &self.eg[..self.eg_len] {
            terms.eg(w, sign * c);
        }
    }
}

/// Opening and endgame material of each kind (king, advisor, elephant, horse, rook, cannon,
/// pawn), the `material.*` entries of [`WEIGHTS`]. A horse gains and a cannon loses value as
/// the board empties.
pub const MATERIAL_MG_EG: [(i32, i32); 7] = {
    let mut m = [(0, 0); 7];
    let mut kind = 0;
    while kind < 7 {
        m[kind] = (
            WEIGHTS[W_MATERIAL[kind].mg].value,
            WEIGHTS[W_MATERIAL[kind].eg].value,
        );
        kind += 1;
    }
    m
};

/// Phase weight of each kind: the phase is the sum over the pieces on the board, at most
/// [`PHASE_MAX`] (the start position) and 0 with no rook, horse or cannon left.
pub(crate) const PHASE_WEIGHT: [i32; 7] = [0, 0, 0, 2, 4, 2, 0];

/// The phase of the start position (and the cap).
pub const PHASE_MAX: i32 = 32;

/// The piece-square terms, material included, of a Red piece of `kind` at `file` (0..9) and
/// `rank` (0..10, Red's back rank 0); a Black piece's are those of the point turned 180
/// degrees.
pub(crate) const fn square_terms(kind: usize, file: i32, rank: i32) -> SquareTerms {
    let off_centre = if file > 4 { file - 4 } else { 4 - file }; // 0 centre .. 4 edge
    let centre = 4 - off_centre;
    let mut t = SquareTerms::new();
    t.add(W_MATERIAL[kind], 1);
    match kind {
        // King: at home in the opening; in the endgame leaving the back rank is less bad.
        0 => {
            t.add(W_KING_RANK, rank);
            if file == 4 {
                t.add_eg(W_KING_CENTRE_FILE, 1);
            } else {
                t.add_mg(W_KING_SIDE_FILE, 1);
            }
        }
        // Advisor: the palace centre is best, the corners are home.
        1 => {
            if file == 4 && rank == 1 {
                t.add(W_ADVISOR_CENTRE, 1);
            } else if rank != 0 {
                t.add(W_ADVISOR_TOP, 1);
            }
        }
        // Elephant: the centre point and the home points; the edges are poor.
        2 => {
            if file == 4 && rank == 2 {
                t.add(W_ELEPHANT_CENTRE, 1);
            } else if file == 0 || file == 8 {
                t.add(W_ELEPHANT_EDGE, 1);
            } else if rank == 4 {
                t.add(W_ELEPHANT_FORWARD, 1);
            }
        }
        // Horse: centre, forward, strongest on the points next to the enemy palace; poor on
        // the edges and on the enemy's back rank. (The hand-set endgame table was half the
        // opening one rounded toward zero plus 2 per centre step; `horse.inner`,
        // `horse.centre_file` and `horse.home` are what that rounding left, as linear terms.)
        3 => {
            t.add(W_HORSE_CENTRE, centre);
            t.add_if(W_HORSE_INNER, centre >= 2);
            t.add_if(W_HORSE_CENTRE_FILE, centre == 4);
            t.add_if(W_HORSE_EDGE, centre == 0);
            t.add_if(
                W_HORSE_PALACE,
                (rank == 7 || rank == 8) && file >= 2 && file <= 6,
            );
            t.add_if(W_HORSE_HOME, centre == 1 && rank <= 1);
            if rank <= 8 {
                t.add(W_HORSE_RANK[rank as usize], 1);
            }
        }
        // Rook: off the back rank, on the ribs and on the enemy's side of the river.
        4 => {
            t.add_if(W_ROOK_ADVANCED, rank > 0);
            t.add_if(W_ROOK_RIB, file == 3 || file == 5);
            t.add_if(W_ROOK_CENTRE_FILE, file == 4);
            t.add_if(W_ROOK_ACROSS, rank >= 5 && rank <= 7);
            t.add_if(W_ROOK_RANK8, rank == 8);
            t.add(W_ROOK_CENTRE, centre);
        }
        // Cannon: the central file; the enemy's back rank; poor across the river off the
        // central file.
        5 => {
            let rib = file == 3 || file == 5;
            let river = rank >= 5 && rank <= 7;
            t.add_if(W_CANNON_CENTRE_FILE, file == 4);
            t.add_if(W_CANNON_RIB, rib);
            t.add_if(W_CANNON_ENEMY_BACK, rank == 9);
            t.add_if(W_CANNON_RIVER, river && !rib && file != 4);
            t.add_if(W_CANNON_RIB_RIVER, river && rib);
        }
        // Pawn: worth much more once across the river, most next to the enemy palace; an old
        // pawn on the last rank is worth little.
        6 => {
            if rank < 5 {
                t.add_if(
                    W_PAWN_BANK,
                    rank == 4 && (file == 2 || file == 4 || file == 6),
                );
            } else {
                t.add(W_PAWN_CROSSED, 1);
                if rank >= 6 {
                    t.add(W_PAWN_RANK[(rank - 6) as usize], 1);
                }
                t.add_if(W_PAWN_NEAR_PALACE, file >= 3 && file <= 5);
                t.add_if(W_PAWN_EDGE, file == 0 || file == 8);
            }
        }
        _ => {}
    }
    t
}

pub(crate) const fn build_pst() -> [[[i32; 256]; 7]; 2] {
    let mut t = [[[0i32; 256]; 7]; 2];
    let mut kind = 0;
    while kind < 7 {
        let mut rank = 0;
        while rank < 10 {
            let mut file = 0;
            while file < 9 {
                let (mg, eg) = square_terms(kind, file, rank).value();
                let red_sq = ((rank + 3) * 16 + file + 3) as usize;
                let black_sq = ((9 - rank + 3) * 16 + (8 - file) + 3) as usize;
                t[0][kind][red_sq] = pair(mg, eg);
                t[1][kind][black_sq] = pair(-mg, -eg);
                file += 1;
            }
            rank += 1;
        }
        kind += 1;
    }
    t
}

/// `PST[side][kind][mailbox square]`: packed (opening, endgame) material + square values,
/// Red's positive, Black's negated, so their sum over the board is Red minus Black.
pub(crate) static PST: [[[i32; 256]; 7]; 2] = build_pst();
