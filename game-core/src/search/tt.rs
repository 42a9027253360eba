//! The transposition table: a lock-free, shared hash table of search results.
//!
//! Each entry is 16 bytes, two `AtomicU64` words: the data word (best move code, score,
//! depth, bound, generation) and the Zobrist key XOR the data word. A reader accepts an entry
//! only when `key_word ^ data == key`, so a torn write by another thread (Lazy SMP shares the
//! table) reads as a miss rather than a wrong hit — Hyatt and Mann's lockless hashing
//! ("A lock-less transposition table implementation for parallel search chess engines",
//! ICGA Journal 25(1), 2002). Four entries make a 64-byte bucket (one cache line).
//!
//! Replacement keeps deep entries: a store replaces the entry of the same key, else the entry
//! with the lowest `depth - 8 * age`, where age counts searches since it was written.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::Score;

/// What a stored score means relative to the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (fail-low: no move raised alpha).
    Upper = 1,
    /// The true value is at least the score (fail-high: a beta cut-off).
    Lower = 2,
    /// The score is the true value at the stored depth.
    Exact = 3,
}

/// One probed entry, already decoded.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best (or refuting) move's [`Move::code`](crate::Move::code), if one was stored.
    pub move_code: Option<u32>,
    /// The score as stored (mate scores relative to the stored node, not the root).
    pub score: Score,
    /// Remaining depth (plies) of the search that stored it.
    pub depth: u8,
    /// How `score` bounds the true value.
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = 64;
const GENERATION_BITS: u32 = 5;
const GENERATION_MASK: u8 = (1 << GENERATION_BITS) - 1;

#[derive(Default)]
struct Entry {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

#[derive(Default)]
#[repr(align(64))]
struct Bucket([Entry; ENTRIES_PER_BUCKET]);

// data word layout: bits 0..32 move code, 32..48 score (i16), 48..56 depth, 56..58 bound,
// 58 has-move, 59..64 generation.
fn pack(entry: &TtEntry, generation: u8) -> u64 {
    let code = entry.move_code.unwrap_or(0) as u64;
    let score = (entry.score as i16 as u16) as u64;
    code | score << 32
        | (entry.depth as u64) << 48
        | (entry.bound as u64) << 56
        | (entry.move_code.is_some() as u64) << 58
        | ((generation & GENERATION_MASK) as u64) << 59
}

fn unpack(data: u64) -> Option<(TtEntry, u8)> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    let has_move = (data >> 58) & 1 == 1;
    Some((
        TtEntry {
            move_code: has_move.then_some(data as u32),
            score: (data >> 32) as u16 as i16 as Score,
            depth: (data >> 48) as u8,
            bound,
        },
        (data >> 59) as u8 & GENERATION_MASK,
    ))
}

/// `count` empty buckets, 64-byte aligned, in zeroed memory.
///
/// Rust's zeroed allocation of an over-aligned type writes every byte itself, which for a
/// table of several GiB means seconds of page faults. Memory allocated zeroed with the
/// platform's natural alignment comes from fresh zero pages instead (`calloc` on `mmap`), so
/// the table is carved out of such a block at the first 64-byte boundary.
struct BucketMemory {
    block: std::ptr::NonNull<u8>,
    layout: std::alloc::Layout,
    buckets: std::ptr::NonNull<Bucket>,
    count: usize,
}

// SAFETY: the memory is owned, and the buckets are atomics shared only through `&`.
unsafe impl Send for BucketMemory {}
// SAFETY: as above; all access goes through `AtomicU64`.
unsafe impl Sync for BucketMemory {}

impl BucketMemory {
    /// `count` zeroed buckets, or as many as can be had: a failed allocation is retried with
    /// half as many buckets (down to one) instead of aborting the program.
    fn new(count: usize) -> Self {
        let mut count = count.max(1);
        loop {
            if let Some(memory) = BucketMemory::try_new(count) {
                return memory;
            }
            if count == 1 {
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<Bucket>());
            }
            count /= 2;
        }
    }

    /// `count` zeroed buckets, or `None` when the size overflows or the allocation fails.
    fn try_new(count: usize) -> Option<Self> {
        let bytes = count
            .checked_mul(BUCKET_BYTES)
            .and_then(|b| b.checked_add(BUCKET_BYTES))?;
        let layout = std::alloc::Layout::from_size_align(bytes, 16).ok()?;
        // SAFETY: the layout has a non-zero size.
        let block = std::ptr::NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        let offset = block.as_ptr().align_offset(BUCKET_BYTES);
        // SAFETY: `offset < 64` and the block has 64 spare bytes, so `count` buckets fit after
        // it; all-zero bytes are a valid `Bucket` (only `AtomicU64`s: empty entries).
        let buckets = unsafe {
            std::ptr::NonNull::new_unchecked(block.as_ptr().add(offset).cast::<Bucket>())
        };
        Some(BucketMemory {
            block,
            layout,
            buckets,
            count,
        })
    }

    fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `buckets` points at `count` initialised (zeroed) buckets owned by `self`.
        unsafe { std::slice::from_raw_parts(self.buckets.as_ptr(), self.count) }
    }
}

impl Drop for BucketMemory {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.block.as_ptr(), self.layout) }
    }
}

/// A shared transposition table sized in MiB.
pub struct TranspositionTable {
    buckets: BucketMemory,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of `mib` MiB, at most [`MAX_HASH_MIB`](super::MAX_HASH_MIB) (at least one
    /// bucket of 64 bytes; `0` gives that single bucket). When the memory cannot be had the
    /// table is halved until it can: the size actually taken is [`size_bytes`](Self::size_bytes).
    #[must_use]
    pub fn new(mib: usize) -> Self {
        let mib = mib.min(super::options::MAX_HASH_MIB);
        let count = (mib.saturating_mul(1 << 20) / BUCKET_BYTES).max(1);
        TranspositionTable {
            buckets: BucketMemory::new(count),
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    #[must_use]
    pub fn size_bytes(&self) -> usize {
        self.buckets.count * BUCKET_BYTES
    }

    /// Empties every entry (a new game). The memory is handed back and taken anew as zeroed
    /// pages, so clearing a table of several GiB costs no write to each entry.
    pub fn clear(&mut self) {
        self.buckets = BucketMemory::new(self.buckets.count);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of earlier searches age and are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GENERATION_MASK, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table size without a modulo.
        let index = ((key as u128 * self.buckets.count as u128) >> 64) as usize;
        &self.buckets.as_slice()[index]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        for entry in &self.bucket(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores a search result for `key`. A store without a move keeps the move already
    /// stored for the same key.
    #[inline]
    pub fn store(&self, key: u64, mut new: TtEntry) {
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut victim_worth = i32::MAX;
        for entry in &bucket.0 {
            let data = entry.data.load(Ordering::Relaxed);
            let Some((old, old_generation)) = unpack(data) else {
                if victim_worth > i32::MIN {
                    victim = entry;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            if entry.key_xor_data.load(Ordering::Relaxed) ^ data == key {
                // Same position: keep a deeper exact result of this search unless ours is exact.
                if old_generation == generation
                    && old.depth > new.depth.saturating_add(2)
                    && new.bound != Bound::Exact
                {
                    return;
                }
                if new.move_code.is_none() {
                    new.move_code = old.move_code;
                }
                victim = entry;
                break;
            }
            let age = (generation.wrapping_sub(old_generation) & GENERATION_MASK) as i32;
            let worth = old.depth as i32 - 8 * age;
            if worth < victim_worth {
                victim = entry;
                victim_worth = worth;
            }
        }
        let data = pack(&new, generation);
        victim.data.store(data, Ordering::Relaxed);
        victim.key_xor_data.store(key ^ data, Ordering::Relaxed);
    }

    /// How full the table is, per mille, counting entries written by the current search in
    /// the first 1000 entries (UCI `hashfull`).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.count.min(1000 / ENTRIES_PER_BUCKET);
        let mut used = 0;
        for bucket in &self.buckets.as_slice()[..sample] {
            for entry in &bucket.0 {
                if let Some((_, g)) = unpack(entry.data.load(Ordering::Relaxed)) {
                    used += u32::from(g == generation);
                }
            }
        }
        used * 1000 / (sample * ENTRIES_PER_BUCKET) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any requested size gives a table: at most `MAX_HASH_MIB`, halved where the memory
    /// cannot be had (pages are not touched, so nothing is really used).
    #[test]
    fn any_size_gives_a_table() {
        for mib in [0, 1, 3, usize::MAX / (1 << 20), usize::MAX] {
            let tt = TranspositionTable::new(mib);
            assert!(tt.size_bytes() >= BUCKET_BYTES, "{mib}");
            assert!(tt.size_bytes() <= super::super::MAX_HASH_MIB << 20, "{mib}");
            if mib <= 3 {
                assert_eq!(tt.size_bytes(), (mib << 20).max(BUCKET_BYTES));
            }
        }
    }

    #[test]
    fn store_and_probe_round_trip() {
        let mut tt = TranspositionTable::new(1);
        let e = TtEntry {
            move_code: Some(8099),
            score: -29_990,
            depth: 17,
            bound: Bound::Lower,
        };
        tt.store(0xDEAD_BEEF_0123_4567, e);
        assert_eq!(tt.probe(0xDEAD_BEEF_0123_4567), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEF_0123_4568), None);
        let shallower = TtEntry {
            move_code: None,
            score: 5,
            depth: 3,
            bound: Bound::Upper,
        };
        tt.store(0xDEAD_BEEF_0123_4567, shallower);
        // A much shallower non-exact result of the same search does not replace a deep one.
        assert_eq!(tt.probe(0xDEAD_BEEF_0123_4567), Some(e));
        tt.clear();
        assert_eq!(tt.probe(0xDEAD_BEEF_0123_4567), None);
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn keeps_move_when_new_result_has_none() {
        let tt = TranspositionTable::new(1);
        let key = 42;
        tt.store(
            key,
            TtEntry {
                move_code: Some(7),
                score: 1,
                depth: 2,
                bound: Bound::Exact,
            },
        );
        tt.store(
            key,
            TtEntry {
                move_code: None,
                score: 3,
                depth: 4,
                bound: Bound::Upper,
            },
        );
        let e = tt.probe(key).unwrap();
        assert_eq!((e.move_code, e.score, e.depth), (Some(7), 3, 4));
    }
}
