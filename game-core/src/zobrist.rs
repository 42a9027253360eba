//! Reproducible Zobrist keys, computed at compile time.
//!
//! Every game builds its key tables from [`SplitMix64`] with a fixed seed inside a `const`
//! item, so the tables cost nothing at start-up, are identical on every machine and in every
//! build (a requirement for reproducible `bench` node signatures), and need no lazy
//! initialisation on the hot path. SplitMix64 is Steele, Lea and Flood's generator
//! ("Fast splittable pseudorandom number generators", OOPSLA 2014), the one Java's
//! `SplittableRandom` and xoshiro's seeding use; its 64-bit outputs are well distributed,
//! which is all Zobrist hashing asks for.
//!
//! ```
//! use game_core::zobrist::SplitMix64;
//! const KEYS: [u64; 4] = SplitMix64::new(7).table();
//! assert!(KEYS.iter().all(|&k| k != 0));
//! assert_ne!(KEYS[0], KEYS[1]);
//! ```

/// The SplitMix64 pseudo-random generator, usable in `const` contexts.
#[derive(Copy, Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64-bit output and the advanced generator (`const fn` cannot take `&mut self`
    /// in every position it is needed, so the state is threaded through by value).
    #[must_use]
    pub const fn next(self) -> (u64, Self) {
        let state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31), SplitMix64 { state })
    }

    /// `N` consecutive outputs, skipping any zero (a zero key would make a feature invisible).
    #[must_use]
    pub const fn table<const N: usize>(self) -> [u64; N] {
        let mut out = [0u64; N];
        let mut rng = self;
        let mut i = 0;
        while i < N {
            let (value, next) = rng.next();
            rng = next;
            if value != 0 {
                out[i] = value;
                i += 1;
            }
        }
        out
    }
}
