//! Texel tuning support: [`Tunable`] for [`Connect6`] with the evaluation [`ThreatEval`].
//!
//! Outside its decisive cases the evaluation is exactly linear in [`WEIGHTS`]
//! ([`FEATURE_SCALE`](Tunable::FEATURE_SCALE) 1): for the side to move with `left` (1 or 2)
//! stones still to place this turn,
//!
//! ```text
//! eval = clamp(Σ_n turn{left}_own.n · own windows with n stones
//!              − Σ_n turn{left}_opp.n · opposing windows with n stones
//!              − turn{left}_opp_threats.k   (the opponent has k ≥ 1 threats)
//!              + turn1_own_threats.k        (left = 1 and the side to move has k ≥ 1 threats)
//!              + tempo.stone · left)
//! ```
//!
//! where a window counts for a side when it holds `n` (1..=5) of its stones and none of the
//! other side's, threats are [`Connect6::threat_count`] (the own count capped at 2), and
//! `clamp` is to `±(DECISIVE − 1)`. The decisive cases (a six the side to move completes this
//! turn, more opposing threats than stones left) have no features. The side to move and the
//! opponent have separate window values, and both depend on the stones left: a window of
//! three is a threat in the making for the side about to place two stones, and one to block
//! for the other side.
//!
//! The text form ([`Tunable::to_text`]) is the board size and the stones in LittleGolem
//! notation, one turn per word: `19 j10 j9l11 k9` (a game from the empty board; the turn
//! state follows from the stone count). A position set up from stone sets reads
//! `19 setup <black> <white> <black|white> <stones left> <moves>`, the sets as joined points
//! or `-` for none: `19 setup j10k11 j9 white 2 l11l12`.

use game_core::tune::{Features, Tunable, Weight};
use game_core::{Evaluate, Score, Side};

use crate::board::{Connect6, SetupError};
use crate::eval::ThreatEval;
pub use crate::features::{TEMPO, max_own, opp, opp_threats, own, own_threats};
use crate::geometry::WIN;
use crate::notation::{Point, format_littlegolem, parse_littlegolem};
use crate::weights::WEIGHTS;

impl Tunable for Connect6 {
    const GAME: &'static str = "connect6";

    /// The evaluation is the weighted sum itself (no division).
    const FEATURE_SCALE: i32 = 1;

    fn weights() -> &'static [Weight] {
        &WEIGHTS
    }

    fn static_eval(&self) -> Score {
        ThreatEval.evaluate(self)
    }

    /// Window counts by stone count for each side, recounted from the stones, the threat
    /// counts and the stones left in the turn (see the module documentation). `false` when the side to move can complete
    /// a six this turn or the opponent has more threats than it has stones left.
    fn features(&self, out: &mut Features) -> bool {
        out.clear();
        if self.can_win_now() || self.threat_count(self.side.opponent()) > self.left {
            return false;
        }
        // count[colour][n]: windows holding n stones of colour (0 black) and none of the other.
        let mut count = [[0i32; WIN + 1]; 2];
        for w in &self.geo.windows {
            let mut n = [0usize; 2];
            for &c in w {
                match self.cells[c as usize] {
                    1 => n[0] += 1,
                    2 => n[1] += 1,
                    _ => {}
                }
            }
            for colour in 0..2 {
                if n[1 - colour] == 0 {
                    count[colour][n[colour]] += 1;
                }
            }
        }
        let side = self.side;
        let left = self.left;
        let (own_count, opp_count) = (&count[side.index()], &count[1 - side.index()]);
        for (n, &c) in own_count.iter().enumerate().take(max_own(left) + 1).skip(1) {
            if c != 0 {
                out.push((own(left, n) as u16, c));
            }
        }
        for (n, &c) in opp_count.iter().enumerate().take(WIN).skip(1) {
            if c != 0 {
                out.push((opp(left, n) as u16, -c));
            }
        }
        let threats = self.threat_count(side.opponent());
        if threats > 0 {
            out.push((opp_threats(left, threats) as u16, -1));
        }
        if left == 1 {
            let threats = self.threat_count(side).min(2);
            if threats > 0 {
                out.push((own_threats(threats) as u16, 1));
            }
        }
        out.push((TEMPO as u16, i32::from(left)));
        true
    }

    fn to_text(&self) -> String {
        let mut text = self.size.to_string();
        let (black, white) = self.setup_stones();
        if !black.is_empty() || !white.is_empty() || self.initial_state() != (Side::First, 1) {
            let set = |points: &[Point]| {
                if points.is_empty() {
                    "-".to_string()
                } else {
                    format_littlegolem(points)
                }
            };
            let (side, left) = self.initial_state();
            let side = match side {
                Side::First => "black",
                Side::Second => "white",
            };
            text += &format!(" setup {} {} {side} {left}", set(black), set(white));
        }
        let moves = self.moves_littlegolem();
        if !moves.is_empty() {
            text.push(' ');
            text += &moves;
        }
        text
    }

    fn from_text(text: &str) -> Result<Self, String> {
        const FORM: &str = "expected `<size> <moves>` (`19 j10 j9l11`) or `<size> setup \
                            <black> <white> <black|white> <1|2> <moves>`";
        let bad = |what: String| format!("connect6 position `{text}`: {what}; {FORM}");
        let tokens: Vec<&str> = text.split_whitespace().collect();
        let Some(&size_word) = tokens.first() else {
            return Err(bad("no text".into()));
        };
        let size: usize = size_word
            .parse()
            .map_err(|_| bad(format!("board size `{size_word}` is not a number")))?;
        let (mut pos, moves) = if tokens.get(1) == Some(&"setup") {
            if tokens.len() < 6 {
                return Err(bad(format!(
                    "the setup needs 4 words after `setup`, found {}",
                    tokens.len() - 2
                )));
            }
            let set = |word: &str, colour: &str| -> Result<Vec<Point>, String> {
                if word == "-" {
                    return Ok(Vec::new());
                }
                parse_littlegolem(word, size)
                    .map_err(|e| bad(format!("the {colour} setup stones: {e}")))
            };
            let black = set(tokens[2], "black")?;
            let white = set(tokens[3], "white")?;
            let side = match tokens[4] {
                "black" => Side::First,
                "white" => Side::Second,
                other => {
                    return Err(bad(format!(
                        "side to move `{other}`: expected `black` or `white`"
                    )));
                }
            };
            let left: u8 = match tokens[5] {
                "1" => 1,
                "2" => 2,
                other => {
                    return Err(bad(format!("stones left `{other}`: expected `1` or `2`")));
                }
            };
            let pos = Connect6::from_stones_in_turn(size, &black, &white, side, left)
                .map_err(|e| bad(e.to_string()))?;
            (pos, &tokens[6..])
        } else {
            let pos = Connect6::new(size).map_err(|e| bad(e.to_string()))?;
            (pos, &tokens[1..])
        };
        let mut index = 0;
        for word in moves {
            let points = parse_littlegolem(word, size).map_err(|e| {
                bad(SetupError::Move {
                    index: index + 1,
                    error: e.into(),
                }
                .to_string())
            })?;
            for p in points {
                index += 1;
                pos.play_point(p)
                    .map_err(|error| bad(SetupError::Move { index, error }.to_string()))?;
            }
        }
        Ok(pos)
    }
}
