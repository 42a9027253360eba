//! Tuning data: positions with the result of the game they came from, as sparse feature vectors.
//!
//! ## The text format (written by `qi selfplay`)
//! One position per line: the result, a tab, the game's position text
//! ([`Tunable::to_text`]):
//!
//! ```text
//! # qi selfplay gomoku --rule renju --games 200 --depth 6 --seed 1
//! 1-0<TAB>renju 15 h8i9j10h9
//! 1/2-1/2<TAB>rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1
//! ```
//!
//! The result is the game's, from the first side's view (Black in the stone games, Red in
//! xiangqi): `1-0`, `0-1` or `1/2-1/2`. Lines starting with `#` are comments (the command that
//! made the file); blank lines are skipped.

use std::path::Path;

use game_core::Side;
use game_core::tune::{Features, Tunable, Weight};

/// What went wrong reading tuning data.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// A file could not be read.
    #[error("cannot read {file}: {error}")]
    Io {
        /// The file.
        file: String,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A line that does not read: its file, its 1-based line number and what was wrong.
    #[error("{file}:{line}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What was wrong and what is expected.
        message: String,
    },
    /// No usable position in the data.
    #[error("no usable position in the data (all lines were comments or decisive positions)")]
    Empty,
    /// No usable move for a move-ordering fit in the data.
    #[error(
        "no usable move in the data (every line was a comment, a position without a last \
         move, or a move with fewer than two candidates or outside them)"
    )]
    NoMoves,
}

/// The game result from the first side's view, as the score of the first side: `1-0` is 1.0,
/// `0-1` 0.0, `1/2-1/2` 0.5.
///
/// # Errors
/// Anything else, with what is accepted.
pub fn parse_result(text: &str) -> Result<f32, String> {
    match text {
        "1-0" => Ok(1.0),
        "0-1" => Ok(0.0),
        "1/2-1/2" => Ok(0.5),
        _ => Err(format!("bad result '{text}': expected 1-0, 0-1 or 1/2-1/2")),
    }
}

/// One position of a [`Dataset`], borrowed: its nonzero features (summed per weight), who is
/// to move, and the result for the side to move (1 a win, 0.5 a draw, 0 a loss).
#[derive(Copy, Clone, Debug)]
pub struct Sample<'a> {
    /// +1 when the first side is to move, -1 when the second is.
    pub colour: f64,
    /// Weight indices, ascending, each once.
    pub index: &'a [u16],
    /// The coefficient of each index.
    pub coefficient: &'a [f32],
    /// The side to move's result.
    pub target: f32,
}

/// Positions as sparse feature vectors (coefficients summed per weight), with the weights they
/// refer to. Stored flat, so that a million positions of a few dozen features take tens of MB.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The evaluation's weights (names, the build's values, ranges).
    pub weights: Vec<Weight>,
    /// The evaluation's divisor ([`Tunable::FEATURE_SCALE`]).
    pub scale: f64,
    /// The `#` comment lines of the files read, in order (without the `#`), for provenance.
    pub comments: Vec<String>,
    /// Positions read but not used: the evaluation is not linear there (a decisive score).
    pub skipped: usize,
    offsets: Vec<u32>,
    index: Vec<u16>,
    coefficient: Vec<f32>,
    target: Vec<f32>,
    /// +1 when the first side is to move, -1 otherwise.
    colour: Vec<i8>,
}

impl Dataset {
    /// An empty data set for an evaluation with `weights` and divisor `scale` (at least 1).
    #[must_use]
    pub fn new(weights: &[Weight], scale: i32) -> Self {
        Dataset {
            weights: weights.to_vec(),
            scale: f64::from(scale.max(1)),
            comments: Vec::new(),
            skipped: 0,
            offsets: vec![0],
            index: Vec::new(),
            coefficient: Vec::new(),
            target: Vec::new(),
            colour: Vec::new(),
        }
    }

    /// An empty data set for game `P`'s evaluation.
    #[must_use]
    pub fn for_game<P: Tunable>() -> Self {
        Dataset::new(P::weights(), P::FEATURE_SCALE)
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.target.len()
    }

    /// True when there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// Adds a position with `features` (indices may repeat; they are summed), the side to
    /// move `to_move` and its result `target` in `0.0..=1.0`. `scratch` is reused between
    /// calls.
    ///
    /// # Panics
    /// When a feature index is not below the number of weights.
    pub fn push(
        &mut self,
        features: &[(u16, i32)],
        to_move: Side,
        target: f32,
        scratch: &mut Vec<i64>,
    ) {
        scratch.clear();
        scratch.resize(self.weights.len(), 0);
        for &(i, c) in features {
            scratch[usize::from(i)] += i64::from(c);
        }
        for (i, &c) in scratch.iter().enumerate() {
            if c != 0 {
                self.index.push(i as u16);
                self.coefficient.push(c as f32);
            }
        }
        self.offsets.push(self.index.len() as u32);
        self.target.push(target);
        self.colour
            .push(if to_move == Side::First { 1 } else { -1 });
    }

    /// The `i`-th position.
    ///
    /// # Panics
    /// When `i >= len()`.
    #[must_use]
    pub fn sample(&self, i: usize) -> Sample<'_> {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        Sample {
            colour: f64::from(self.colour[i]),
            index: &self.index[a..b],
            coefficient: &self.coefficient[a..b],
            target: self.target[i],
        }
    }

    /// The evaluation of position `i` for weight values `values`, in evaluation units
    /// (unrounded, unclamped). `values` may hold one more value than there are weights: the
    /// first side's advantage, in evaluation units, added for the first side to move and
    /// subtracted for the second (the model's colour term, which the game's evaluation does
    /// not have: it absorbs the first-move advantage so that the weights need not).
    #[inline]
    #[must_use]
    pub fn eval(&self, i: usize, values: &[f64]) -> f64 {
        let s = self.sample(i);
        let sum: f64 = s
            .index
            .iter()
            .zip(s.coefficient)
            .map(|(&j, &c)| values[usize::from(j)] * f64::from(c))
            .sum();
        let colour = values.get(self.weights.len()).map_or(0.0, |b| b * s.colour);
        sum / self.scale + colour
    }

    /// Appends another data set of the same evaluation.
    ///
    /// # Panics
    /// When the weights differ.
    pub fn append(&mut self, other: Dataset) {
        assert_eq!(
            self.weights, other.weights,
            "data sets of different evaluations"
        );
        let base = *self.offsets.last().expect("offsets start with 0");
        self.offsets
            .extend(other.offsets[1..].iter().map(|&o| o + base));
        self.index.extend(other.index);
        self.coefficient.extend(other.coefficient);
        self.target.extend(other.target);
        self.colour.extend(other.colour);
        self.comments.extend(other.comments);
        self.skipped += other.skipped;
    }

    /// Reads the data file `path` of game `P` (see the module's format) and appends its
    /// positions, parsing on `threads` threads.
    ///
    /// # Errors
    /// [`TuneError::Io`] when the file cannot be read; [`TuneError::Parse`] for the first line
    /// that does not read (a bad result, a position [`Tunable::from_text`] refuses), and then
    /// nothing is appended.
    pub fn read_file<P: Tunable>(&mut self, path: &Path, threads: usize) -> Result<(), TuneError> {
        let (file, text) = read_path(path)?;
        self.read_text::<P>(&file, &text, threads)
    }

    /// [`read_file`](Dataset::read_file) for text already in memory, `file` naming it in errors.
    ///
    /// # Errors
    /// As [`read_file`](Dataset::read_file), without the I/O error.
    pub fn read_text<P: Tunable>(
        &mut self,
        file: &str,
        text: &str,
        threads: usize,
    ) -> Result<(), TuneError> {
        let (weights, scale) = (&self.weights, self.scale as i32);
        let parts = read_chunks(text, threads, |part| {
            read_lines::<P>(file, part, weights, scale)
        })?;
        let mut all = Dataset::new(&self.weights, self.scale as i32);
        for part in parts {
            all.append(part);
        }
        self.append(all);
        Ok(())
    }
}

/// The text of the data file `path`, with its name for error messages.
///
/// # Errors
/// [`TuneError::Io`] when the file cannot be read.
pub(crate) fn read_path(path: &Path) -> Result<(String, String), TuneError> {
    let file = path.display().to_string();
    match std::fs::read_to_string(path) {
        Ok(text) => Ok((file, text)),
        Err(error) => Err(TuneError::Io { file, error }),
    }
}

/// Parses `text`'s lines (numbered from 0) in contiguous chunks on `threads` threads (1..=64)
/// with `parse`, and returns the parts in order.
///
/// # Errors
/// The first chunk's error, in line order.
pub(crate) fn read_chunks<'t, T: Send>(
    text: &'t str,
    threads: usize,
    parse: impl Fn(&[(usize, &'t str)]) -> Result<T, TuneError> + Sync,
) -> Result<Vec<T>, TuneError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let chunk = lines.len().div_ceil(threads.clamp(1, 64)).max(1);
    std::thread::scope(|scope| {
        let parse = &parse;
        let handles: Vec<_> = lines
            .chunks(chunk)
            .map(|part| scope.spawn(move || parse(part)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a reader thread panicked"))
            .collect()
    })
}

fn read_lines<P: Tunable>(
    file: &str,
    lines: &[(usize, &str)],
    weights: &[Weight],
    scale: i32,
) -> Result<Dataset, TuneError> {
    let mut data = Dataset::new(weights, scale);
    let mut features = Features::new();
    let mut scratch = Vec::new();
    for &(n, line) in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            data.comments.push(comment.trim().to_string());
            continue;
        }
        let error = |message: String| TuneError::Parse {
            file: file.to_string(),
            line: n + 1,
            message,
        };
        let (result, position) = line.split_once('\t').ok_or_else(|| {
            error("expected a result, a tab and a position (`1-0<TAB>...`)".to_string())
        })?;
        let first = parse_result(result.trim()).map_err(error)?;
        let pos = P::from_text(position.trim()).map_err(|e| error(format!("bad position: {e}")))?;
        if !pos.features(&mut features) {
            data.skipped += 1;
            continue;
        }
        let target = if pos.side_to_move() == Side::First {
            first
        } else {
            1.0 - first
        };
        data.push(&features, pos.side_to_move(), target, &mut scratch);
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_and_others_are_refused() {
        assert_eq!(parse_result("1-0"), Ok(1.0));
        assert_eq!(parse_result("0-1"), Ok(0.0));
        assert_eq!(parse_result("1/2-1/2"), Ok(0.5));
        assert!(parse_result("draw").unwrap_err().contains("expected 1-0"));
    }

    #[test]
    fn features_are_summed_per_weight() {
        let w = [
            Weight::new("a", 1, 0, 9),
            Weight::new("b", 2, 0, 9),
            Weight::new("c", 3, 0, 9),
        ];
        let mut d = Dataset::new(&w, 2);
        let mut scratch = Vec::new();
        d.push(
            &[(2, 1), (0, 4), (2, 3), (1, 5), (1, -5)],
            Side::First,
            1.0,
            &mut scratch,
        );
        d.push(&[], Side::Second, 0.5, &mut scratch);
        let s = d.sample(0);
        assert_eq!(s.index, &[0, 2]);
        assert_eq!(s.coefficient, &[4.0, 4.0]);
        assert_eq!(d.eval(0, &[1.0, 2.0, 3.0]), (4.0 + 12.0) / 2.0);
        assert_eq!(d.sample(1).index.len(), 0);
        // The colour term: +10 for the first side to move, -10 for the second.
        assert_eq!(d.eval(0, &[1.0, 2.0, 3.0, 10.0]), 8.0 + 10.0);
        assert_eq!(d.eval(1, &[1.0, 2.0, 3.0, 10.0]), -10.0);
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn gomoku_lines_read_and_bad_lines_are_located() {
        let text = "# qi selfplay gomoku\n1-0\tfreestyle 15 h8i9h9\n\n0-1\tfreestyle 15 h8i9\n";
        let mut d = Dataset::for_game::<gomoku::Board>();
        d.read_text::<gomoku::Board>("t.txt", text, 2).unwrap();
        assert_eq!(d.len(), 2);
        assert_eq!(d.comments, vec!["qi selfplay gomoku".to_string()]);
        // After h8 i9 h9 White is to move: Black won, so White's target is 0.
        assert_eq!(d.sample(0).target, 0.0);
        // After h8 i9 Black is to move and lost.
        assert_eq!(d.sample(1).target, 0.0);
        let bad = "1-0\tfreestyle 15 h8\n1-0 freestyle 15 h8\n";
        let err = d.read_text::<gomoku::Board>("b.txt", bad, 2).unwrap_err();
        assert!(
            err.to_string().starts_with("b.txt:2: expected a result"),
            "{err}"
        );
        assert_eq!(d.len(), 2, "nothing appended on error");
        let err = d
            .read_text::<gomoku::Board>("c.txt", "1-0\tfreestyle 15 h8h8\n", 1)
            .unwrap_err();
        assert!(
            err.to_string().starts_with("c.txt:1: bad position"),
            "{err}"
        );
    }
}
