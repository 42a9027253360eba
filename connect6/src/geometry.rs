//! Board geometry shared by every position of one size: the 6-windows along every line and,
//! for each point, the windows that contain it. Built once per size and kept for the program's
//! lifetime.

use std::sync::OnceLock;

use crate::{MAX_SIZE, MIN_SIZE};

/// Window length: six in a row wins.
pub(crate) const WIN: usize = 6;

/// The most windows one point lies in: 6 per direction, 4 directions.
pub(crate) const MAX_CELL_WINDOWS: usize = 24;

/// The four line directions as (dx, dy): row, column, diagonal, anti-diagonal.
pub(crate) const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The windows of one board size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Every 6-window: its six cell indices (`y * size + x`), in line order.
    pub windows: Vec<[u16; WIN]>,
    /// For each cell, the windows containing it (first `cell_window_count[cell]` entries used).
    pub cell_windows: Vec<[u16; MAX_CELL_WINDOWS]>,
    /// How many entries of `cell_windows[cell]` are used.
    pub cell_window_count: Vec<u8>,
}

impl Geometry {
    fn build(size: usize) -> Geometry {
        let n = size as i32;
        let mut windows = Vec::new();
        for &(dx, dy) in &DIRECTIONS {
            for y in 0..n {
                for x in 0..n {
                    let ex = x + dx * (WIN as i32 - 1);
                    let ey = y + dy * (WIN as i32 - 1);
                    if ex < 0 || ex >= n || ey < 0 || ey >= n {
                        continue;
                    }
                    let mut w = [0u16; WIN];
                    for (i, c) in w.iter_mut().enumerate() {
                        let i = i as i32;
                        *c = ((y + dy * i) * n + (x + dx * i)) as u16;
                    }
                    windows.push(w);
                }
            }
        }
        let cells = size * size;
        let mut cell_windows = vec![[0u16; MAX_CELL_WINDOWS]; cells];
        let mut cell_window_count = vec![0u8; cells];
        for (wi, w) in windows.iter().enumerate() {
            for &c in w {
                let c = c as usize;
                cell_windows[c][cell_window_count[c] as usize] = wi as u16;
                cell_window_count[c] += 1;
            }
        }
        Geometry {
            windows,
            cell_windows,
            cell_window_count,
        }
    }

    /// The geometry of a `size` x `size` board (`MIN_SIZE..=MAX_SIZE`, checked by callers).
    pub fn get(size: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&size));
        TABLES[size].get_or_init(|| Geometry::build(size))
    }

    /// The windows containing `cell`.
    #[inline]
    pub fn windows_of(&self, cell: usize) -> &[u16] {
        &self.cell_windows[cell][..self.cell_window_count[cell] as usize]
    }
}
