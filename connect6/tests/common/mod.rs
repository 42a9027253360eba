//! Helpers shared by the connect6 integration tests.

use connect6::Point;

/// All windows as lists of points, computed from scratch.
pub fn windows(size: usize) -> Vec<Vec<Point>> {
    let n = size as i32;
    let mut out = Vec::new();
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for y in 0..n {
            for x in 0..n {
                let (ex, ey) = (x + 5 * dx, y + 5 * dy);
                if (0..n).contains(&ex) && (0..n).contains(&ey) {
                    out.push(
                        (0..6)
                            .map(|i| Point::new((x + i * dx) as u8, (y + i * dy) as u8))
                            .collect(),
                    );
                }
            }
        }
    }
    out
}
