//! Move-ordering (policy) tuning: fits the weights of a game's ordering hint so that the
//! softmax of the hints over a position's candidate moves predicts the move that was played.
//!
//! The data is the Texel tuning text ([`crate::data`]): every line is a position reached in a
//! game, so the position before its last move and that move make one sample (the result is
//! checked but not used). A sample is kept when the position has at least two candidates
//! ([`game_core::Position::generate_search_moves`]) and the played move is one of them.
//!
//! Model: `p(c) = exp(h_c / S) / Σ exp(h_j / S)` over the candidates `c`, with `h_c` the
//! weighted feature sum of [`PolicyTunable::move_features`] and `S` =
//! [`PolicyTunable::POLICY_SCALE`]; the loss is the mean cross-entropy `−ln p(played)`, fitted by
//! Adam over the full data set (the gradient of one sample is `Σ_c (p(c) − [c played]) · f_c / S`).

use std::path::Path;

use game_core::tune::{Features, PolicyTunable, Weight};

use crate::data::{TuneError, parse_result};

/// Policy samples as flat arrays: the candidates of every sample (the played move first) and
/// the sparse features of every candidate.
#[derive(Clone, Debug, Default)]
pub struct PolicyData {
    /// The ordering weights the feature indices refer to.
    pub weights: Vec<Weight>,
    /// [`PolicyTunable::POLICY_SCALE`].
    pub scale: f64,
    /// Sample `i`'s candidates are `sample_start[i]..sample_start[i + 1]`; the first is the
    /// played move.
    sample_start: Vec<u32>,
    /// Candidate `c`'s features are `feature_start[c]..feature_start[c + 1]`.
    feature_start: Vec<u32>,
    index: Vec<u16>,
    coefficient: Vec<i32>,
    /// Lines not used: no last move, the game over, fewer than two candidates, or the played
    /// move not among them.
    pub skipped: usize,
    /// The comment lines of the data files (`#` stripped).
    pub comments: Vec<String>,
}

impl PolicyData {
    /// An empty data set for game `P`.
    #[must_use]
    pub fn for_game<P: PolicyTunable>() -> Self {
        PolicyData {
            weights: P::policy_weights().to_vec(),
            scale: f64::from(P::POLICY_SCALE.max(1)),
            sample_start: vec![0],
            feature_start: vec![0],
            ..PolicyData::default()
        }
    }

    /// Number of samples.
    #[must_use]
    pub fn len(&self) -> usize {
        self.sample_start.len().saturating_sub(1)
    }

    /// True without samples.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Mean number of candidates a sample.
    #[must_use]
    pub fn mean_candidates(&self) -> f64 {
        (self.feature_start.len() - 1) as f64 / self.len().max(1) as f64
    }

    /// Adds one sample: `candidates[0]` is the played move's features.
    fn push(&mut self, candidates: &[Features]) {
        for f in candidates {
            for &(i, c) in f {
                self.index.push(i);
                self.coefficient.push(c);
            }
            self.feature_start.push(self.index.len() as u32);
        }
        self.sample_start
            .push((self.feature_start.len() - 1) as u32);
    }

    fn append(&mut self, other: PolicyData) {
        for i in 0..other.len() {
            let cands = other.sample_start[i] as usize..other.sample_start[i + 1] as usize;
            let sample: Vec<Features> = cands
                .map(|c| {
                    let r = other.feature_start[c] as usize..other.feature_start[c + 1] as usize;
                    r.map(|k| (other.index[k], other.coefficient[k])).collect()
                })
                .collect();
            self.push(&sample);
        }
        self.skipped += other.skipped;
        self.comments.extend(other.comments);
    }

    /// Reads the data file `path` (the Texel tuning format) and appends its samples, parsing
    /// on `threads` threads.
    ///
    /// # Errors
    /// [`TuneError::Io`] when the file cannot be read; [`TuneError::Parse`] for the first line
    /// that does not read, and then nothing is appended.
    pub fn read_file<P: PolicyTunable>(
        &mut self,
        path: &Path,
        threads: usize,
    ) -> Result<(), TuneError> {
        let (file, text) = crate::data::read_path(path)?;
        self.read_text::<P>(&file, &text, threads)
    }

    /// [`read_file`](PolicyData::read_file) for text in memory, `file` naming it in errors.
    ///
    /// # Errors
    /// As [`read_file`](PolicyData::read_file), without the I/O error.
    pub fn read_text<P: PolicyTunable>(
        &mut self,
        file: &str,
        text: &str,
        threads: usize,
    ) -> Result<(), TuneError> {
        let parts = crate::data::read_chunks(text, threads, |part| read_lines::<P>(file, part))?;
        let mut all = PolicyData::for_game::<P>();
        for part in parts {
            all.append(part);
        }
        self.append(all);
        Ok(())
    }

    /// The hints of sample `i`'s candidates for weight values `values`, into `out`.
    fn hints(&self, i: usize, values: &[f64], out: &mut Vec<f64>) {
        out.clear();
        for c in self.sample_start[i] as usize..self.sample_start[i + 1] as usize {
            let r = self.feature_start[c] as usize..self.feature_start[c + 1] as usize;
            out.push(
                r.map(|k| values[usize::from(self.index[k])] * f64::from(self.coefficient[k]))
                    .sum::<f64>(),
            );
        }
    }

    /// The softmax of hints `h` (in hint units) into `p`; returns nothing, `p` sums to 1.
    fn softmax(&self, h: &[f64], p: &mut Vec<f64>) {
        let max = h.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        p.clear();
        p.extend(h.iter().map(|&x| ((x - max) / self.scale).exp()));
        let sum: f64 = p.iter().sum();
        for x in p.iter_mut() {
            *x /= sum;
        }
    }

    /// The mean cross-entropy `−ln p(played)` and the share of samples whose played move has
    /// the strictly highest hint (top-1 accuracy, ties counted as misses), for `values`.
    #[must_use]
    pub fn loss(&self, values: &[f64], threads: usize) -> (f64, f64) {
        let parts = crate::fit::par_ranges(self.len(), threads, |range| {
            let (mut h, mut p) = (Vec::new(), Vec::new());
            let (mut loss, mut top) = (0.0, 0usize);
            for i in range {
                self.hints(i, values, &mut h);
                self.softmax(&h, &mut p);
                loss -= p[0].max(1e-300).ln();
                if h[1..].iter().all(|&x| x < h[0]) {
                    top += 1;
                }
            }
            (loss, top)
        });
        let n = self.len().max(1) as f64;
        let (loss, top) = parts
            .iter()
            .fold((0.0, 0), |(l, t), &(a, b)| (l + a, t + b));
        (loss / n, top as f64 / n)
    }

    fn gradient(&self, values: &[f64], threads: usize) -> Vec<f64> {
        crate::fit::par_mean(self.len(), values.len(), threads, |range, g| {
            let (mut h, mut p) = (Vec::new(), Vec::new());
            for i in range {
                self.hints(i, values, &mut h);
                self.softmax(&h, &mut p);
                let first = self.sample_start[i] as usize;
                for (j, &pj) in p.iter().enumerate() {
                    let d = (pj - f64::from(u8::from(j == 0))) / self.scale;
                    let c = first + j;
                    for k in self.feature_start[c] as usize..self.feature_start[c + 1] as usize {
                        g[usize::from(self.index[k])] += d * f64::from(self.coefficient[k]);
                    }
                }
            }
        })
    }

    /// Fits the weight values by Adam (β₁ 0.9, β₂ 0.999) from `start`, keeping each inside its
    /// weight's range (`min == max` fixes it), with an L2 pull of `l2 · w` toward zero per
    /// epoch in the gradient (keeps weights of rare features small). Calls `progress(epoch,
    /// loss)` every tenth epoch and at the end. Returns the fitted values, unrounded.
    ///
    /// # Panics
    /// When `start` is not as long as the weights.
    pub fn adam(
        &self,
        start: &[f64],
        config: &crate::fit::AdamConfig,
        l2: f64,
        mut progress: impl FnMut(usize, f64),
    ) -> Vec<f64> {
        assert_eq!(start.len(), self.weights.len());
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12f64);
        let mut w = start.to_vec();
        let mut m = vec![0.0; w.len()];
        let mut v = vec![0.0; w.len()];
        for epoch in 1..=config.epochs {
            let g = self.gradient(&w, config.threads);
            let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
            for (j, weight) in self.weights.iter().enumerate() {
                let (min, max) = (f64::from(weight.min), f64::from(weight.max));
                if min == max {
                    w[j] = min;
                    continue;
                }
                let gj = g[j] + l2 * w[j] / self.scale / self.scale;
                m[j] = b1 * m[j] + (1.0 - b1) * gj;
                v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
                let step = config.learning_rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                w[j] = (w[j] - step).clamp(min, max);
            }
            if epoch % 10 == 0 || epoch == config.epochs {
                progress(epoch, self.loss(&w, config.threads).0);
            }
        }
        w
    }
}

fn read_lines<P: PolicyTunable>(
    file: &str,
    lines: &[(usize, &str)],
) -> Result<PolicyData, TuneError> {
    let mut data = PolicyData::for_game::<P>();
    let mut moves = Vec::new();
    let mut sample: Vec<Features> = Vec::new();
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
        // Not used by the fit, but the data must read the same as for the evaluation's fit.
        parse_result(result.trim()).map_err(error)?;
        let mut pos =
            P::from_text(position.trim()).map_err(|e| error(format!("bad position: {e}")))?;
        let Some(played) = pos.last_move() else {
            data.skipped += 1;
            continue;
        };
        pos.undo(played);
        if pos.generate_search_moves(&mut moves).is_some()
            || moves.len() < 2
            || !moves.contains(&played)
        {
            data.skipped += 1;
            continue;
        }
        sample.resize_with(moves.len(), Features::new);
        pos.move_features(played, &mut sample[0]);
        let mut k = 1;
        for &mv in &moves {
            if mv != played {
                pos.move_features(mv, &mut sample[k]);
                k += 1;
            }
        }
        data.push(&sample);
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AdamConfig;

    fn data(weights: &[Weight], samples: &[Vec<Features>]) -> PolicyData {
        let mut d = PolicyData {
            weights: weights.to_vec(),
            scale: 100.0,
            sample_start: vec![0],
            feature_start: vec![0],
            ..PolicyData::default()
        };
        for s in samples {
            d.push(s);
        }
        d
    }

    /// The gradient of the mean cross-entropy matches central differences of the loss.
    #[test]
    fn gradient_matches_finite_differences() {
        let weights = [
            Weight::new("a", 0, -1000, 1000),
            Weight::new("b", 0, -1000, 1000),
            Weight::new("c", 0, -1000, 1000),
        ];
        let samples = vec![
            vec![vec![(0, 1)], vec![(1, 1)], vec![(2, 2), (0, -1)]],
            vec![vec![(1, 1), (2, 1)], vec![(0, 3)]],
            vec![vec![(2, 1)], vec![(1, -1)], vec![(0, 1), (1, 1)], vec![]],
        ];
        let d = data(&weights, &samples);
        assert_eq!(d.len(), 3);
        assert!((d.mean_candidates() - 3.0).abs() < 1e-12);
        let w = [40.0, -25.0, 70.0];
        let g = d.gradient(&w, 2);
        for j in 0..3 {
            let (mut up, mut down) = (w, w);
            up[j] += 1e-3;
            down[j] -= 1e-3;
            let numeric = (d.loss(&up, 1).0 - d.loss(&down, 1).0) / 2e-3;
            assert!(
                (g[j] - numeric).abs() < 1e-7,
                "weight {j}: {} vs {numeric}",
                g[j]
            );
        }
    }

    /// Moves with feature 0 are always the ones played: the fit raises weight 0 above the
    /// others, every sample's played move ranks first, and a fixed weight stays.
    #[test]
    fn fit_learns_the_played_feature() {
        let weights = [
            Weight::new("played", 0, -1000, 1000),
            Weight::new("other", 0, -1000, 1000),
            Weight::new("fixed", 5, 5, 5),
        ];
        let samples: Vec<Vec<Features>> = (0..50)
            .map(|i| {
                let mut s = vec![vec![(0, 1), (2, 1)], vec![(1, 1)]];
                if i % 2 == 0 {
                    s.push(vec![(1, 1), (2, 1)]);
                }
                s
            })
            .collect();
        let d = data(&weights, &samples);
        let start = [0.0, 0.0, 5.0];
        let (loss0, top0) = d.loss(&start, 1);
        // The fixed weight puts the played move ahead in the odd samples and ties it with the
        // third candidate in the even ones: ties count as misses.
        assert_eq!(top0, 0.5);
        let config = AdamConfig {
            epochs: 200,
            learning_rate: 10.0,
            threads: 2,
        };
        let w = d.adam(&start, &config, 0.0, |_, _| {});
        assert_eq!(w[2], 5.0);
        assert!(w[0] > w[1] + 200.0, "{w:?}");
        let (loss, top) = d.loss(&w, 1);
        assert!(loss < loss0 / 4.0, "{loss} vs {loss0}");
        assert_eq!(top, 1.0);
    }
}
