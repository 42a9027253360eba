//! Fitting: the logistic scale `K` that maps evaluation units to an expected result, and the
//! weights that minimise the mean squared error `E = mean((result − sigmoid(K · eval))²)`.

use crate::data::Dataset;

/// The logistic function `1 / (1 + e^−x)`.
#[inline]
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Splits `0..n` over `threads` threads, runs `f` on each range and returns the results in order.
pub(crate) fn par_ranges<T: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(std::ops::Range<usize>) -> T + Sync,
) -> Vec<T> {
    let threads = threads.clamp(1, 64);
    let chunk = n.div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let f = &f;
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|a| scope.spawn(move || f(a..(a + chunk).min(n))))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a tuning thread panicked"))
            .collect()
    })
}

/// The mean over `0..n` of per-item vectors of `width` values: `f` adds the items of one range
/// into a zeroed vector, the ranges run on `threads` threads, and the sum is divided by `n`
/// (by 1 when `n` is 0).
pub(crate) fn par_mean(
    n: usize,
    width: usize,
    threads: usize,
    f: impl Fn(std::ops::Range<usize>, &mut [f64]) + Sync,
) -> Vec<f64> {
    let parts = par_ranges(n, threads, |range| {
        let mut part = vec![0.0f64; width];
        f(range, &mut part);
        part
    });
    let mut total = vec![0.0f64; width];
    for part in parts {
        for (t, x) in total.iter_mut().zip(part) {
            *t += x;
        }
    }
    let len = n.max(1) as f64;
    total.iter_mut().for_each(|t| *t /= len);
    total
}

impl Dataset {
    /// The mean squared error of `sigmoid(k · eval)` against the results, for weight values
    /// `values`, computed on `threads` threads. 0 for an empty data set.
    #[must_use]
    pub fn error(&self, values: &[f64], k: f64, threads: usize) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sums = par_ranges(self.len(), threads, |range| {
            range
                .map(|i| {
                    let d = f64::from(self.sample(i).target) - sigmoid(k * self.eval(i, values));
                    d * d
                })
                .sum::<f64>()
        });
        sums.iter().sum::<f64>() / self.len() as f64
    }

    /// The gradient of [`error`](Dataset::error) with respect to every value (the weights,
    /// and the colour term when `values` has it).
    #[must_use]
    pub fn gradient(&self, values: &[f64], k: f64, threads: usize) -> Vec<f64> {
        par_mean(self.len(), values.len(), threads, |range, g| {
            for i in range {
                let s = self.sample(i);
                let p = sigmoid(k * self.eval(i, values));
                // d/dw (t − p)² = −2 (t − p) · p (1 − p) · k · coefficient / scale
                let common = -2.0 * (f64::from(s.target) - p) * p * (1.0 - p) * k / self.scale;
                for (&j, &c) in s.index.iter().zip(s.coefficient) {
                    g[usize::from(j)] += common * f64::from(c);
                }
                if let Some(b) = g.get_mut(self.weights.len()) {
                    *b += common * self.scale * s.colour;
                }
            }
        })
    }
}

/// The `K` in `1e-6..=10` that minimises the error of the weight values `values` (golden-section
/// search over `log10 K`, to a relative precision of about 1e-4).
#[must_use]
pub fn fit_scale(data: &Dataset, values: &[f64], threads: usize) -> f64 {
    let f = |x: f64| data.error(values, 10f64.powf(x), threads);
    let (mut a, mut b) = (-6.0f64, 1.0f64);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > 1e-5 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    10f64.powf((a + b) / 2.0)
}

/// Settings of [`Dataset::adam`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AdamConfig {
    /// Passes over the whole data set (one step each).
    pub epochs: usize,
    /// Step size in weight units: about how far a weight moves per epoch at most.
    pub learning_rate: f64,
    /// Threads for the gradient.
    pub threads: usize,
}

impl Default for AdamConfig {
    fn default() -> Self {
        AdamConfig {
            epochs: 400,
            learning_rate: 1.0,
            threads: 1,
        }
    }
}

impl Dataset {
    /// Fits the weight values by Adam (β₁ 0.9, β₂ 0.999) over the full data set at a fixed
    /// `k`, starting from `start` and keeping every value inside its weight's range (weights
    /// with `min == max` do not move). `start` may have one more value, the colour term of
    /// [`Dataset::eval`], which is fitted too (within ±10 000). Calls `progress(epoch, error)`
    /// after each epoch with the error after it every tenth epoch and at the end, `f64::NAN`
    /// otherwise. Returns the fitted values, unrounded.
    ///
    /// # Panics
    /// When `start` is not as long as the weights or one longer.
    pub fn adam(
        &self,
        start: &[f64],
        k: f64,
        config: &AdamConfig,
        mut progress: impl FnMut(usize, f64),
    ) -> Vec<f64> {
        assert!(start.len() == self.weights.len() || start.len() == self.weights.len() + 1);
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12f64);
        let n = start.len();
        let mut w = start.to_vec();
        let mut m = vec![0.0; n];
        let mut v = vec![0.0; n];
        for epoch in 1..=config.epochs {
            let g = self.gradient(&w, k, config.threads);
            let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
            for j in 0..n {
                let (min, max) = match self.weights.get(j) {
                    Some(weight) => (f64::from(weight.min), f64::from(weight.max)),
                    None => (-10_000.0, 10_000.0),
                };
                if min == max {
                    w[j] = min;
                    continue;
                }
                m[j] = b1 * m[j] + (1.0 - b1) * g[j];
                v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
                let step = config.learning_rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                w[j] = (w[j] - step).clamp(min, max);
            }
            let error = if epoch % 10 == 0 || epoch == config.epochs {
                self.error(&w, k, config.threads)
            } else {
                f64::NAN
            };
            progress(epoch, error);
        }
        w
    }
}

/// Rounds fitted values to integers inside each weight's range (a colour term at the end is
/// dropped).
#[must_use]
pub fn round_values(data: &Dataset, values: &[f64]) -> Vec<i32> {
    values
        .iter()
        .zip(&data.weights)
        .map(|(&x, w)| (x.round() as i32).clamp(w.min, w.max))
        .collect()
}

#[cfg(test)]
mod tests {
    use game_core::Side;
    use game_core::tune::Weight;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Synthetic data from a known weight vector: random sparse features, results drawn as
    /// wins and losses from the logistic of the true score. The tuner must find the weights
    /// again from a start far from them.
    #[test]
    fn recovers_known_weights() {
        let truth = [120.0, -40.0, 15.0, 300.0, 0.0, 60.0];
        let weights: Vec<Weight> = truth
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let name: &'static str = ["a", "b", "c", "d", "e", "f"][i];
                Weight::new(name, 0, -1000, 1000)
            })
            .collect();
        let k_true = 0.004;
        let mut data = Dataset::new(&weights, 4);
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut scratch = Vec::new();
        for _ in 0..60_000 {
            let mut features: Vec<(u16, i32)> = Vec::new();
            for j in 0..truth.len() {
                if rng.random_bool(0.6) {
                    features.push((j as u16, rng.random_range(-4..=4)));
                }
            }
            let eval: f64 = features
                .iter()
                .map(|&(j, c)| truth[usize::from(j)] * f64::from(c))
                .sum::<f64>()
                / 4.0;
            // The truth has a first-side advantage of 30 units.
            let first = rng.random_bool(0.5);
            let eval = if first { eval + 30.0 } else { eval - 30.0 };
            let win = rng.random_bool(sigmoid(k_true * eval));
            let side = if first { Side::First } else { Side::Second };
            data.push(&features, side, if win { 1.0 } else { 0.0 }, &mut scratch);
        }
        // With K fixed at the truth (K and the weights' scale are not separately identifiable
        // when every weight is free), Adam from zero finds every weight within 12 units.
        let config = AdamConfig {
            epochs: 1500,
            learning_rate: 2.0,
            threads: 2,
        };
        let fitted = data.adam(&[0.0; 7], k_true, &config, |_, _| {});
        for (j, (&f, &t)) in fitted.iter().zip(&truth).enumerate() {
            assert!((f - t).abs() < 12.0, "weight {j}: fitted {f:.1}, true {t}");
        }
        assert!((fitted[6] - 30.0).abs() < 8.0, "colour {}", fitted[6]);
        assert!(data.error(&fitted, k_true, 2) < data.error(&[0.0; 7], k_true, 2));
        // K fitted for the true weights and colour comes back near the true K.
        let mut with_colour = truth.to_vec();
        with_colour.push(30.0);
        let k = fit_scale(&data, &with_colour, 2);
        assert!((k / k_true - 1.0).abs() < 0.1, "K {k}");
    }

    #[test]
    fn fixed_weights_do_not_move_and_ranges_hold() {
        let weights = [
            Weight::new("fixed", 7, 7, 7),
            Weight::new("capped", 0, -5, 5),
        ];
        let mut data = Dataset::new(&weights, 1);
        let mut scratch = Vec::new();
        for _ in 0..100 {
            data.push(&[(0, 1), (1, 1)], Side::First, 1.0, &mut scratch);
        }
        let config = AdamConfig {
            epochs: 200,
            learning_rate: 1.0,
            threads: 1,
        };
        let fitted = data.adam(&[7.0, 0.0], 0.1, &config, |_, _| {});
        assert_eq!(fitted[0], 7.0);
        // All wins: the free weight runs to its upper bound and stops there.
        assert_eq!(fitted[1], 5.0);
        assert_eq!(round_values(&data, &[7.4, 9.0]), vec![7, 5]);
    }
}
