//! Match statistics: score, Elo difference with a 95 % interval, and the sequential
//! probability ratio test (SPRT).
//!
//! # Elo
//! With `W` wins, `D` draws and `L` losses in `N = W + D + L` games, the score is
//! `s = (W + D/2) / N` and the logistic Elo difference `elo(s) = -400 log10(1/s - 1)`. The
//! 95 % interval maps `s ± 1.959964 · sqrt(σ²/N)` through `elo`, where
//! `σ² = (W(1-s)² + D(1/2-s)² + L(0-s)²) / N` is the per-game variance of the score (the
//! trinomial model, as cutechess-cli prints it).
//!
//! # Pentanomial
//! Each opening is played twice with colours swapped, and the two games of a pair are not
//! independent (an opening may favour one side). The pentanomial model counts pairs by the
//! first engine's points in the pair, `0, 1/2, 1, 3/2, 2` ([`Penta`]): with `N` pairs and
//! per-pair scores `x = points / 2`, the score is the mean of `x`, its variance
//! `σ² = Σ n_k (x_k − s)² / N`, and the 95 % interval `s ± 1.959964 · sqrt(σ²/N)` is mapped
//! through `elo` as above (fishtest's pentanomial Elo). Usually narrower than the trinomial
//! interval, because the pair cancels most of the opening's bias.
//!
//! # SPRT
//! The generalised SPRT (chessprogramming.org, "Match Statistics", SPRT; fishtest
//! `stat_util.py`) of H0: expected score `s0 = 1/(1 + 10^(-elo0/400))` against H1:
//! `s1 = 1/(1 + 10^(-elo1/400))` with the trinomial (W/D/L) model: `LLR = N Σ p̂_i ln(p1_i /
//! p0_i)` where `p̂` are the observed frequencies and `pk` the W/D/L probabilities of the
//! largest likelihood among those with expected score `sk` (Michel Van den Bergh, "A
//! generalised SPRT", as fishtest computes it for the multinomial model). For many games it
//! agrees with the normal approximation `(s1 - s0)(2s - s0 - s1)/(2σ²/N)`; unlike that
//! approximation it stays small after a handful of one-sided games (one win is
//! `ln(s1/s0)`, not a certainty).
//!
//! The LLR is compared with the Wald bounds `lower = ln(β/(1-α))` and `upper =
//! ln((1-β)/α)`: H1 is accepted when `LLR >= upper`, H0 when `LLR <= lower`. Zero counts are
//! replaced by 0.001 (as fishtest's `regularize`).

/// Two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from the first engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Wdl {
    /// Games in all.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points of the first engine (a win 1, a draw 1/2).
    #[must_use]
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score fraction `s = (W + D/2) / N` in `0..=1`; `None` with no games.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// Per-game variance of the score (trinomial), from the given (possibly regularised) counts.
    fn variance(w: f64, d: f64, l: f64) -> (f64, f64) {
        let n = w + d + l;
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s) / n;
        (s, var)
    }

    /// The Elo difference and its 95 % interval `(elo, low, high)`; infinite values where the
    /// score (or an end of the interval) is 0 or 1. `None` with no games.
    #[must_use]
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let (s, var) = Self::variance(
            f64::from(self.wins),
            f64::from(self.draws),
            f64::from(self.losses),
        );
        let half = Z95 * (var / f64::from(n)).sqrt();
        Some((
            elo_from_score(s),
            elo_from_score(s - half),
            elo_from_score(s + half),
        ))
    }
}

/// Game pairs counted by the first engine's points in the pair: `counts[k]` pairs with
/// `k / 2` points (`k` in `0..=4`: lost both, a loss and a draw, ..., won both).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Pairs by the first engine's points in half points.
    pub counts: [u32; 5],
}

impl Penta {
    /// Counts one pair in which the first engine scored `halves` half points.
    ///
    /// # Panics
    /// If `halves > 4` (a pair has at most two points).
    pub fn add(&mut self, halves: usize) {
        self.counts[halves] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The Elo difference and its 95 % interval `(elo, low, high)` from the per-pair score
    /// (module documentation); infinite where the score or an end of the interval is 0 or 1.
    /// `None` with no pairs.
    #[must_use]
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let n = f64::from(self.pairs());
        if n == 0.0 {
            return None;
        }
        let x = |k: usize| k as f64 / 4.0;
        let s = (0..5)
            .map(|k| f64::from(self.counts[k]) * x(k))
            .sum::<f64>()
            / n;
        let var = (0..5)
            .map(|k| f64::from(self.counts[k]) * (x(k) - s).powi(2))
            .sum::<f64>()
            / n;
        let half = Z95 * (var / n).sqrt();
        Some((
            elo_from_score(s),
            elo_from_score(s - half),
            elo_from_score(s + half),
        ))
    }
}

/// The win/draw/loss probabilities closest (in likelihood) to the observed frequencies
/// `observed` whose expected score is `s` (`0 < s < 1`; every frequency positive): `p_i =
/// observed_i / (1 + λ (a_i − s))` with `a = (1, 1/2, 0)` and `λ` the root of
/// `Σ observed_i (a_i − s) / (1 + λ (a_i − s)) = 0`, found by bisection (the function falls
/// from +∞ to −∞ over the interval where every denominator is positive).
fn constrained_mle(observed: [f64; 3], s: f64) -> [f64; 3] {
    let a = [1.0, 0.5, 0.0];
    let d = a.map(|x| x - s);
    let f = |lambda: f64| -> f64 {
        (0..3)
            .map(|i| observed[i] * d[i] / (1.0 + lambda * d[i]))
            .sum()
    };
    // 1 + λ d_i > 0 for all i: λ in (−1/d_win, −1/d_loss).
    let (mut lo, mut hi) = (-1.0 / d[0], -1.0 / d[2]);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let p = (0..3).map(|i| observed[i] / (1.0 + lambda * d[i]));
    let p: Vec<f64> = p.collect();
    let total: f64 = p.iter().sum();
    [p[0] / total, p[1] / total, p[2] / total]
}

/// The logistic Elo difference of a score fraction: `-400 log10(1/s - 1)`; `-inf` at or
/// below 0, `+inf` at or above 1.
#[must_use]
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
#[must_use]
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The parameters of an SPRT: `--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate (accepting H0 when H1 holds).
    pub beta: f64,
}

/// What the SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound is crossed: play on.
    Continue,
    /// `LLR <= lower`: H0 (elo0) accepted.
    H0,
    /// `LLR >= upper`: H1 (elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=0,elo1=5,alpha=0.05,beta=0.05` (any order; alpha and beta default to 0.05).
    ///
    /// # Errors
    /// A message naming the bad part and what is expected.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("bad --sprt part '{part}': expected KEY=VALUE"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("bad --sprt value '{v}' for {k}: expected a number"))?;
            match k.trim().to_ascii_lowercase().as_str() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => {
                    return Err(format!(
                        "bad --sprt key '{other}': expected elo0, elo1, alpha or beta"
                    ));
                }
            }
        }
        if !(s.elo0.is_finite() && s.elo1.is_finite()) {
            return Err("--sprt needs elo0=.. and elo1=..".to_string());
        }
        if s.elo0 >= s.elo1 {
            return Err(format!(
                "--sprt: elo0 ({}) must be below elo1 ({})",
                s.elo0, s.elo1
            ));
        }
        for (name, p) in [("alpha", s.alpha), ("beta", s.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {name} ({p}) must be between 0 and 0.5"));
            }
        }
        Ok(s)
    }

    /// [`Sprt::parse`] of an optional `--sprt` text: `Ok(None)` without one.
    ///
    /// # Errors
    /// As [`Sprt::parse`].
    pub fn parse_option(text: Option<&str>) -> Result<Option<Sprt>, String> {
        text.map(Sprt::parse).transpose()
    }

    /// The Wald bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl` (0 with no games).
    #[must_use]
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let reg = |x: u32| if x == 0 { 1e-3 } else { f64::from(x) };
        let (w, d, l) = (reg(wdl.wins), reg(wdl.draws), reg(wdl.losses));
        let n = w + d + l;
        let observed = [w / n, d / n, l / n];
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        let p0 = constrained_mle(observed, s0);
        let p1 = constrained_mle(observed, s1);
        f64::from(wdl.games())
            * (0..3)
                .map(|i| observed[i] * (p1[i] / p0[i]).ln())
                .sum::<f64>()
    }

    /// Whether a bound is crossed.
    #[must_use]
    pub fn state(&self, llr: f64) -> SprtState {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::H1
        } else if llr <= lower {
            SprtState::H0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} != {b}");
    }

    /// W=10, D=5, L=5 (N=20), by hand:
    /// s = (10 + 2.5)/20 = 0.625; elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.7395.
    /// σ² = (10·0.375² + 5·0.125² + 5·0.625²)/20 = (1.40625 + 0.078125 + 1.953125)/20
    ///    = 3.4375/20 = 0.171875; half width = 1.959964·sqrt(0.171875/20) = 1.959964·0.0927025
    ///    = 0.181694; s ∈ [0.443306, 0.806694]; elo low = -400 log10(1/0.443306 - 1)
    ///    = -400 log10(1.255778) = -39.565; high = -400 log10(0.239625) = 248.185.
    #[test]
    fn elo_by_hand() {
        let wdl = Wdl {
            wins: 10,
            draws: 5,
            losses: 5,
        };
        assert_eq!(wdl.score(), Some(0.625));
        let (elo, lo, hi) = wdl.elo().unwrap();
        close(elo, 88.7395, 1e-3);
        close(lo, -39.565, 0.001);
        close(hi, 248.185, 0.001);
        // Even score: 0 Elo, symmetric interval. W=L=5, D=10: σ² = (5·0.25 + 0 + 5·0.25)/20
        // = 0.125; half = 1.959964·sqrt(0.125/20) = 0.154949; elo(0.654949)
        // = -400 log10(1/0.654949 - 1) = -400 log10(0.526836) = 111.329.
        let even = Wdl {
            wins: 5,
            draws: 10,
            losses: 5,
        };
        let (e, lo, hi) = even.elo().unwrap();
        close(e, 0.0, 1e-9);
        close(hi, 111.329, 0.001);
        close(lo, -111.329, 0.001);
        // All wins: infinite.
        let all = Wdl {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all.elo().unwrap().0, f64::INFINITY);
        assert_eq!(Wdl::default().elo(), None);
    }

    /// elo0=0, elo1=5, alpha=beta=0.05: bounds ln(0.05/0.95) = -2.944439, ln(0.95/0.05) =
    /// 2.944439. s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071951. The LLR values were computed
    /// independently (a Python bisection for λ of the constrained likelihood maximum):
    /// W=10, D=5, L=5: 0.093253 (the normal approximation gives 0.101644);
    /// W=600, D=200, L=400: 3.305697 >= 2.944: H1 (normal approximation 3.4185);
    /// W=400, D=200, L=600: -3.601930: H0.
    /// One-sided results: with only wins the most likely distribution with score s puts s on
    /// a win and 1 - s on a loss, so one win is worth ln(s1/s0) and 5 wins at elo1=10 five
    /// times that: 5 · ln(0.5143868/0.5) = 0.141783 — far from a decision, where the normal
    /// approximation's regularised variance used to accept H1 after a single win.
    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt::parse("elo0=0,elo1=5,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = sprt.bounds();
        close(lo, -2.944439, 1e-6);
        close(hi, 2.944439, 1e-6);
        close(score_from_elo(5.0), 0.507_195_1, 1e-7);
        let wdl = Wdl {
            wins: 10,
            draws: 5,
            losses: 5,
        };
        let llr = sprt.llr(&wdl);
        close(llr, 0.093253, 1e-5);
        assert_eq!(sprt.state(llr), SprtState::Continue);
        let big = Wdl {
            wins: 600,
            draws: 200,
            losses: 400,
        };
        let llr = sprt.llr(&big);
        close(llr, 3.305697, 1e-5);
        assert_eq!(sprt.state(llr), SprtState::H1);
        // The mirror image accepts H0 (llr of losses-heavy results is far below).
        let bad = Wdl {
            wins: 400,
            draws: 200,
            losses: 600,
        };
        close(sprt.llr(&bad), -3.601930, 1e-5);
        assert_eq!(sprt.state(sprt.llr(&bad)), SprtState::H0);
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
        let ten = Sprt::parse("elo0=0,elo1=10").unwrap();
        let one_win = Wdl {
            wins: 1,
            draws: 0,
            losses: 0,
        };
        close(ten.llr(&one_win), 0.028311, 1e-4);
        let five = Wdl {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        close(ten.llr(&five), 0.141783, 1e-4);
        assert_eq!(ten.state(ten.llr(&five)), SprtState::Continue);
    }

    /// Pairs (by the first engine's points 0, 1/2, 1, 3/2, 2) = (1, 2, 5, 8, 4), N = 20, by
    /// hand: s = (2·0.25 + 5·0.5 + 8·0.75 + 4·1)/20 = 13/20 = 0.65;
    /// elo = -400 log10(1/0.65 − 1) = 107.538; σ² = (1·0.65² + 2·0.4² + 5·0.15² + 8·0.1² + 4·0.35²)/20 = 1.425/20 =
    /// 0.07125; half = 1.959964·sqrt(0.07125/20) = 0.116984; s ∈ [0.533016, 0.766984]:
    /// elo 22.975 and 206.960.
    #[test]
    fn pentanomial_elo_by_hand() {
        let penta = Penta {
            counts: [1, 2, 5, 8, 4],
        };
        assert_eq!(penta.pairs(), 20);
        let (elo, lo, hi) = penta.elo().unwrap();
        close(elo, 107.538, 1e-3);
        close(lo, 22.975, 1e-3);
        close(hi, 206.960, 1e-3);
        assert_eq!(Penta::default().elo(), None);
        let mut all = Penta::default();
        all.add(4);
        assert_eq!(all.elo().unwrap().0, f64::INFINITY);
    }

    #[test]
    fn sprt_parse_errors() {
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,alpha=0.7").is_err());
        assert!(Sprt::parse("elo0=0,elo1=5,gamma=1").is_err());
        assert!(Sprt::parse("elo0=x,elo1=5").is_err());
        let s = Sprt::parse("elo1=10, elo0=-2").unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-2.0, 10.0, 0.05, 0.05));
    }
}
