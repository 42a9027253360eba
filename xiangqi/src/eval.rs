//! A simple material + piece-square evaluation (the evaluation proper is a later issue).
//!
//! Scale: centi-units where 100 is about a horse (as UCCI engines report). The score is kept
//! incrementally in the position ([`Position::material_psq`], Red minus Black) so evaluating
//! is one read.

use game_core::{Evaluate, Score};

use crate::position::Position;

/// Material of each kind (king, advisor, elephant, horse, rook, cannon, pawn).
pub const MATERIAL: [i32; 7] = [0, 40, 40, 100, 220, 105, 20];

/// A piece-square bonus for a Red piece of kind `kind` at `file` (0..9) and `rank` (0..10,
/// from Red's side); Black's is mirrored.
const fn bonus(kind: usize, file: i32, rank: i32) -> i32 {
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

const fn build_psq() -> [[[i32; 256]; 7]; 2] {
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

/// Material + piece-square evaluation, side-to-move relative (zero-sum: no tempo bonus).
#[derive(Copy, Clone, Debug, Default)]
pub struct MaterialEval;

impl Evaluate<Position> for MaterialEval {
    fn evaluate(&self, position: &Position) -> Score {
        let s = position.material_psq();
        if position.side == 0 { s } else { -s }
    }
}
