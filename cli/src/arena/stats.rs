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
//! # SPRT
//! The generalised SPRT of H0: `elo = elo0` against H1: `elo = elo1` (logistic Elo) with the
//! trinomial (W/D/L) model, in the normal approximation Michel Van den Bergh derived for
//! fishtest ("GSPRT", fishtest `stat_util.py`; chessprogramming.org, "Match Statistics",
//! SPRT):
//!
//! `LLR = (s1 - s0) · (2s - s0 - s1) / (2 σ²/N)` with `s0 = 1/(1 + 10^(-elo0/400))`,
//! `s1 = 1/(1 + 10^(-elo1/400))`,
//!
//! compared with the Wald bounds `lower = ln(β/(1-α))` and `upper = ln((1-β)/α)`: H1 is
//! accepted when `LLR >= upper`, H0 when `LLR <= lower`. Zero counts are replaced by 0.001
//! (as fishtest's `regularize`) so that a one-sided result still has a variance.

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
        let (s, var) = Wdl::variance(w, d, l);
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
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
    /// 2.944439. s0 = 0.5, s1 = 1/(1 + 10^(-5/400)) = 0.5071951. With W=10, D=5, L=5:
    /// LLR = (0.0071951)·(1.25 - 1.0071951)/(2·0.171875/20) = 0.0071951·0.2428049/0.0171875
    ///     = 0.101644.
    /// W=600, D=200, L=400 (N=1200): s = 700/1200 = 0.583333; σ² = (600·0.416667² +
    /// 200·0.083333² + 400·0.583333²)/1200 = (104.1667 + 1.3889 + 136.1111)/1200 = 0.201389;
    /// LLR = 0.0071951·(1.166667 - 1.0071951)/(2·0.201389/1200) = 0.00114744/0.00033565
    ///     = 3.4185 >= 2.944: H1.
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
        close(llr, 0.101644, 1e-5);
        assert_eq!(sprt.state(llr), SprtState::Continue);
        let big = Wdl {
            wins: 600,
            draws: 200,
            losses: 400,
        };
        let llr = sprt.llr(&big);
        close(llr, 3.4185, 1e-3);
        assert_eq!(sprt.state(llr), SprtState::H1);
        // The mirror image accepts H0 (llr of losses-heavy results is far below).
        let bad = Wdl {
            wins: 400,
            draws: 200,
            losses: 600,
        };
        assert_eq!(sprt.state(sprt.llr(&bad)), SprtState::H0);
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
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
