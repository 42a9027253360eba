//! The referee's view of a match game, through the game frame: the variant (a registered
//! game and its base setup), openings (from a file or random, each game's own format), and
//! the game in progress judged by the same [`Game`] that `qi play` drives, so the two can
//! never disagree on a ruling.

use game_core::{Outcome, Side};
use game_frame::{Ending, EngineConfig, Game, GameSpec, Opening, Setup};

/// The game of a match and the setup every game of it starts from (size, rule, the
/// no-capture count).
#[derive(Copy, Clone)]
pub struct Variant<'a> {
    /// The registered game.
    pub spec: &'static dyn GameSpec,
    /// The base setup (no moves): `--size`, `--rule`, `--no-capture-plies`.
    pub base: &'a Setup,
}

impl Variant<'_> {
    /// The game's name in records and the match's header line.
    #[must_use]
    pub fn title(&self) -> &'static str {
        self.spec.record_title()
    }
}

/// Reads an opening file: one opening a line in the game's format ([`GameSpec::opening`]),
/// `#` comments and empty lines skipped. Every opening is checked by replaying it.
///
/// # Errors
/// A message naming the line number, the text and what is wrong.
pub fn read_openings(text: &str, file: &str, variant: &Variant) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |e: String| format!("{file}:{}: bad opening '{line}': {e}", i + 1);
        let opening = variant
            .spec
            .opening(line, variant.base)
            .map_err(|e| bad(e.to_string()))?;
        Referee::start(variant, &opening).map_err(bad)?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{file}: no openings in the file"));
    }
    Ok(out)
}

/// A seeded random short opening ([`GameSpec::random_opening`]); never a finished game.
#[must_use]
pub fn random_opening(variant: &Variant, seed: u64) -> Opening {
    variant.spec.random_opening(variant.base, seed)
}

/// A game in progress: the game, how many of its turns the opening made, and the engines'
/// move count.
pub struct Referee {
    /// The game, judged by its rules.
    pub game: Box<dyn Game>,
    /// Turns that belong to the opening.
    pub opening_moves: usize,
    /// Turns the engines played.
    pub plies: usize,
}

impl Referee {
    /// The game after the opening.
    ///
    /// # Errors
    /// A message when the opening does not replay legally or already ended the game.
    pub fn start(variant: &Variant, opening: &Opening) -> Result<Referee, String> {
        let game = variant
            .spec
            .build(&opening.setup, &EngineConfig::small())
            .map_err(|e| e.to_string().trim_start_matches("--moves: ").to_string())?;
        if let Some(end) = game.ending() {
            return Err(format!("the opening ends the game ({})", end.reason));
        }
        Ok(Referee {
            opening_moves: game.turn_sides().len(),
            game,
            plies: 0,
        })
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    /// The end of the game by rule: the outcome and a reason.
    #[must_use]
    pub fn end(&self) -> Option<(Outcome, String)> {
        self.game.ending().map(|e| (e.outcome, e.reason))
    }

    /// Checks and plays an engine's whole turn, given in its protocol's notation (ICCS for
    /// xiangqi, Gomocup `x,y`, ConnectMore letters; each game reads its protocols' notation
    /// as it reads a person's). Returns the turn in the game's notation.
    ///
    /// # Errors
    /// Why the move is unreadable or illegal, or a turn short of stones; the game is
    /// unchanged then.
    pub fn play_engine_move(&mut self, text: &str) -> Result<String, String> {
        let side = self.game.side_to_move();
        let played = self.game.play_text(text.trim())?;
        if self.game.ending().is_none() && self.game.side_to_move() == side {
            self.game.undo_turn();
            return Err(format!(
                "'{}' is only part of a turn: {} has more to place",
                text.trim(),
                self.game.side_name(side)
            ));
        }
        self.plies += 1;
        Ok(played)
    }

    /// The game record ([`Game::record_with`]): the frame's tags and movetext, `[Event "qi
    /// match"]`, and the round, the opening, its length and the time control.
    #[must_use]
    pub fn record(&self, info: &RecordInfo) -> String {
        let ending = Ending {
            outcome: info.outcome,
            reason: info.reason.clone(),
        };
        let extra = [
            ("Site", "?".to_string()),
            ("Round", info.round.to_string()),
            ("Opening", info.opening.clone()),
            ("OpeningMoves", self.opening_moves.to_string()),
            ("TimeControl", info.time_control.clone()),
        ];
        let mut text = self.game.record_with(
            [&info.names[0], &info.names[1]],
            Some(&ending),
            "qi match",
            &extra,
            &[],
        );
        text.push('\n');
        text
    }
}

/// What a record says besides the moves.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// Game number, from 1.
    pub round: usize,
    /// The engines' names, first side first.
    pub names: [String; 2],
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended.
    pub reason: String,
    /// The opening's text.
    pub opening: String,
    /// The time control as given.
    pub time_control: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::find;

    fn variant<'a>(game: &str, base: &'a Setup) -> Variant<'a> {
        Variant {
            spec: find(game).expect("registered"),
            base,
        }
    }

    fn sized(size: usize) -> Setup {
        Setup {
            size: Some(size),
            ..Setup::default()
        }
    }

    #[test]
    fn openings_parse_in_each_games_format() {
        let base = sized(15);
        let g = variant("gomoku", &base);
        let o = read_openings("# c\n0,0, 1,1, -1,0\nh8g7f6\n", "f", &g).unwrap();
        assert_eq!(o[0].label, "h8i7g8");
        assert_eq!(o[1].label, "h8g7f6");
        assert!(read_openings("0,0, 0,0\n", "f", &g).is_err());
        assert!(read_openings("0,0, 9,9\n", "f", &g).is_err());
        assert!(read_openings("\n", "f", &g).is_err());
        let none = Setup::default();
        let x = variant("xiangqi", &none);
        let o = read_openings(
            "h2e2 h9g7\nrnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b0c2\n",
            "f",
            &x,
        )
        .unwrap();
        let g0 = Referee::start(&x, &o[0]).unwrap();
        assert_eq!(g0.side_to_move(), Side::First);
        assert_eq!(g0.opening_moves, 2);
        assert_eq!(
            Referee::start(&x, &o[1]).unwrap().side_to_move(),
            Side::Second
        );
        let err = read_openings("h2e3\n", "book.txt", &x).unwrap_err();
        assert!(err.starts_with("book.txt:1: bad opening 'h2e3'"), "{err}");
        let c = variant("connect6", &none);
        let o = read_openings("j10 j9l11\n", "f", &c).unwrap();
        let g = Referee::start(&c, &o[0]).unwrap();
        assert_eq!(g.side_to_move(), Side::First);
        assert_eq!(
            g.game.protocol_turns("connectmore").unwrap(),
            vec![
                (Side::First, "JJ".to_string()),
                (Side::Second, "JILK".to_string())
            ]
        );
        assert!(read_openings("j10 j9\n", "f", &c).is_err());
    }

    #[test]
    fn random_openings_are_legal_and_seeded() {
        for (game, base) in [
            ("xiangqi", Setup::default()),
            ("gomoku", sized(9)),
            ("renju", Setup::default()),
            ("connect6", Setup::default()),
            ("connect4", Setup::default()),
        ] {
            let v = variant(game, &base);
            for seed in 0..20 {
                let o = random_opening(&v, seed);
                assert_eq!(o, random_opening(&v, seed));
                let g = Referee::start(&v, &o).unwrap();
                assert!(g.end().is_none(), "{game} {seed}");
                assert!(g.opening_moves > 0, "{game} {seed}");
            }
            assert_ne!(random_opening(&v, 1), random_opening(&v, 2), "{game}");
        }
    }

    #[test]
    fn engine_moves_are_checked_in_the_protocols_notation() {
        let base = sized(9);
        let v = variant("gomoku", &base);
        let opening = v.spec.opening("0,0", &base).unwrap();
        let mut g = Referee::start(&v, &opening).unwrap();
        assert!(g.play_engine_move("4,4").unwrap_err().contains("occupied"));
        assert!(g.play_engine_move("9,0").is_err());
        assert!(g.play_engine_move("zz").is_err());
        assert_eq!(g.play_engine_move("3,3").unwrap(), "d6");
        assert_eq!(g.plies, 1);
        let none = Setup::default();
        let c = variant("connect6", &none);
        let mut g = Referee::start(&c, &c.spec.opening("", &none).unwrap()).unwrap();
        assert!(g.play_engine_move("JJKK").is_err());
        assert_eq!(g.play_engine_move("JJ").unwrap(), "j10");
        // One stone where two are due is refused, and the game is unchanged.
        let err = g.play_engine_move("KK").unwrap_err();
        assert!(err.contains("part of a turn"), "{err}");
        assert_eq!(g.game.turn_sides().len(), 1);
        assert_eq!(g.play_engine_move("KKLL").unwrap(), "k11l12");
    }

    /// The no-capture rule draws at the configured count, judged before the engine to move
    /// is asked (ElephantEye answers `nobestmove` at 100 plies).
    #[test]
    fn the_no_capture_count_is_configurable() {
        // Kings and a rook each, 99 plies without a capture: one quiet move reaches 100.
        for (plies, drawn) in [(100, true), (120, false), (0, false)] {
            let base = Setup {
                no_capture_plies: Some(plies),
                ..Setup::default()
            };
            let v = variant("xiangqi", &base);
            let opening = v
                .spec
                .opening("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 99 80", &base)
                .unwrap();
            let mut g = Referee::start(&v, &opening).unwrap();
            assert!(g.end().is_none());
            g.play_engine_move("a0b0").unwrap();
            assert_eq!(
                g.end().map(|(o, _)| o),
                drawn.then_some(Outcome::Draw),
                "{plies} plies"
            );
        }
    }
}
