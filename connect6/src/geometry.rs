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

/// Cells of one line through a point: offsets `-(WIN - 1)..=WIN - 1` along a direction.
pub(crate) const LINE: usize = 2 * WIN - 1;

/// The reach of a stone's neighbourhood, where the search looks for its moves: points within
/// this Chebyshev distance of a stone.
pub(crate) const NEAR: usize = 2;

/// The most points in one neighbourhood: a (2 [`NEAR`] + 1)-square.
pub(crate) const NEIGHBOURHOOD: usize = (2 * NEAR + 1) * (2 * NEAR + 1);

/// Marks a cell or window of a [`Line`] that lies off the board.
pub(crate) const OFF: u16 = u16::MAX;

/// One direction's line through a point, for updates that slide along it: the cells at
/// offsets `-5..=5` (`cells[i]` at offset `i - 5`) and the six windows through the point
/// (`windows[k]` covers offsets `k - 5..=k`, so `cells[k..k + 6]`), [`OFF`] where off the
/// board.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Line {
    pub cells: [u16; LINE],
    pub windows: [u16; WIN],
}

/// The windows of one board size.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Every 6-window: its six cell indices (`y * size + x`), in line order.
    pub windows: Vec<[u16; WIN]>,
    /// For each cell, the windows containing it (first `cell_window_count[cell]` entries used).
    pub cell_windows: Vec<[u16; MAX_CELL_WINDOWS]>,
    /// How many entries of `cell_windows[cell]` are used.
    pub cell_window_count: Vec<u8>,
    /// For each cell, its line in each of the [`DIRECTIONS`].
    pub lines: Vec<[Line; 4]>,
    /// For each cell, the cells within Chebyshev distance [`NEAR`] of it, itself included
    /// (first `neighbour_count[cell]` entries used).
    pub neighbours: Vec<[u16; NEIGHBOURHOOD]>,
    /// How many entries of `neighbours[cell]` are used.
    pub neighbour_count: Vec<u8>,
}

impl Geometry {
    fn build(size: usize) -> Geometry {
        let n = size as i32;
        let mut windows = Vec::new();
        // Window index by (direction, start cell), for the lines below.
        let mut starting = vec![[OFF; 4]; size * size];
        for (d, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
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
                    starting[(y * n + x) as usize][d] = windows.len() as u16;
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
        let on_board = |x: i32, y: i32| (0..n).contains(&x) && (0..n).contains(&y);
        let lines = (0..cells)
            .map(|c| {
                let (x, y) = ((c % size) as i32, (c / size) as i32);
                std::array::from_fn(|d| {
                    let (dx, dy) = DIRECTIONS[d];
                    let at = |offset: i32| {
                        let (px, py) = (x + dx * offset, y + dy * offset);
                        on_board(px, py).then(|| (py * n + px) as usize)
                    };
                    let reach = WIN as i32 - 1;
                    Line {
                        cells: std::array::from_fn(|i| {
                            at(i as i32 - reach).map_or(OFF, |c| c as u16)
                        }),
                        windows: std::array::from_fn(|k| {
                            at(k as i32 - reach).map_or(OFF, |start| starting[start][d])
                        }),
                    }
                })
            })
            .collect();
        let mut neighbours = vec![[0u16; NEIGHBOURHOOD]; cells];
        let mut neighbour_count = vec![0u8; cells];
        let reach = NEAR as i32;
        for c in 0..cells {
            let (x, y) = ((c % size) as i32, (c / size) as i32);
            for ny in y - reach..=y + reach {
                for nx in x - reach..=x + reach {
                    if on_board(nx, ny) {
                        neighbours[c][neighbour_count[c] as usize] = (ny * n + nx) as u16;
                        neighbour_count[c] += 1;
                    }
                }
            }
        }
        Geometry {
            windows,
            cell_windows,
            cell_window_count,
            lines,
            neighbours,
            neighbour_count,
        }
    }

    /// The geometry of a `size` x `size` board (`MIN_SIZE..=MAX_SIZE`, checked by callers).
    pub fn get(size: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        debug_assert!((MIN_SIZE..=MAX_SIZE).contains(&size));
        TABLES[size].get_or_init(|| Geometry::build(size))
    }

    /// The cells within [`NEAR`] of `cell`, itself included, in board order.
    #[inline]
    pub fn neighbours_of(&self, cell: usize) -> &[u16] {
        &self.neighbours[cell][..self.neighbour_count[cell] as usize]
    }

    /// The windows containing `cell`.
    #[inline]
    pub fn windows_of(&self, cell: usize) -> &[u16] {
        &self.cell_windows[cell][..self.cell_window_count[cell] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line's windows cover exactly the line's cells they claim, every window through a
    /// point is in one of its lines, and the neighbourhoods are the 5 x 5 squares clipped by
    /// the board's edges.
    #[test]
    fn lines_hold_the_windows_through_each_point() {
        for size in [MIN_SIZE, 19, MAX_SIZE] {
            let geo = Geometry::get(size);
            for cell in 0..size * size {
                let mut from_lines: Vec<u16> = Vec::new();
                for line in &geo.lines[cell] {
                    assert_eq!(line.cells[WIN - 1], cell as u16);
                    for (k, &w) in line.windows.iter().enumerate() {
                        if w != OFF {
                            assert_eq!(geo.windows[w as usize][..], line.cells[k..k + WIN]);
                            from_lines.push(w);
                        }
                    }
                }
                from_lines.sort_unstable();
                assert_eq!(from_lines, geo.windows_of(cell), "size {size} cell {cell}");
                let (x, y) = (cell % size, cell / size);
                let span = |v: usize| v.min(NEAR) + 1 + (size - 1 - v).min(NEAR);
                assert_eq!(geo.neighbours_of(cell).len(), span(x) * span(y));
            }
        }
        assert_eq!(Geometry::get(19).windows_of(0).len(), 3);
        assert_eq!(
            Geometry::get(19).windows_of(9 * 19 + 9).len(),
            MAX_CELL_WINDOWS
        );
    }
}
