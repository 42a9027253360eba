//! Game records: PGN-style tags and a move list, written by `save FILE` and read by
//! `qi play --load FILE`.
//!
//! ```text
//! [Game "Gomoku"]
//! [Black "human"]
//! [White "qi"]
//! [Result "*"]
//! [Rule "freestyle"]
//! [Size "15"]
//!
//! 1. h8 i9 2. h9 *
//! ```
//! Xiangqi records carry `[Game "Chinese Chess"]`, `[FEN "..."]` and `[Format "ICCS"]` with
//! the moves as `H2-E2` and the same moves in WXF in a comment, as XiangQi GUIs read them.

use std::time::Duration;

use game_core::{Outcome, Side};
use game_frame::clock::parse_emt;
use game_frame::{Ending, EngineConfig, Game, GameClock, GameSpec, Setup, TimeControl, quoted};

use crate::CliError;
use crate::registry::{self, GameArg};

/// The tags and move tokens of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// `(name, value)` in order.
    pub tags: Vec<(String, String)>,
    /// The move tokens (move numbers, results and comments removed).
    pub moves: Vec<String>,
    /// Each move token's time from a `{[%emt 0:00:03.2]}` comment after it (as long as
    /// `moves`; `None` where there is none).
    pub times: Vec<Option<Duration>>,
}

impl Record {
    /// A tag's value (names compare case-insensitively).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Splits a record into tags and move tokens.
///
/// # Errors
/// A malformed tag line (line number and what is expected); a `{comment}` or `(variation)`
/// left open.
pub fn parse(text: &str) -> Result<Record, String> {
    let mut record = Record::default();
    let mut movetext = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: expected a tag like [Name \"value\"]", n + 1))?;
            let (name, value) = inner
                .split_once(char::is_whitespace)
                .ok_or_else(|| format!("line {}: expected a tag like [Name \"value\"]", n + 1))?;
            let value = value.trim();
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: the tag value must be in double quotes", n + 1))?;
            record.tags.push((name.to_string(), value.to_string()));
        } else if !line.starts_with(';') && !line.starts_with('%') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    // Remove {comments} and (variations); a comment's `%emt` time becomes a token of its own
    // (`\u{1}` and the milliseconds) that times the move before it.
    let mut clean = String::new();
    let mut comment = String::new();
    let mut depth_brace = 0;
    let mut depth_paren = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth_brace += 1,
            '}' if depth_brace > 0 => {
                depth_brace -= 1;
                if depth_brace == 0 && depth_paren == 0 {
                    if let Some(t) = emt_of(&comment) {
                        clean.push_str(&format!(" {EMT_MARK}{} ", t.as_millis()));
                    }
                    comment.clear();
                }
            }
            '(' if depth_brace == 0 => depth_paren += 1,
            ')' if depth_brace == 0 && depth_paren > 0 => depth_paren -= 1,
            _ if depth_brace == 0 && depth_paren == 0 => clean.push(c),
            _ if depth_brace > 0 && depth_paren == 0 => comment.push(c),
            _ => {}
        }
    }
    // An open comment or variation would silently swallow the rest of the moves.
    if depth_brace > 0 {
        return Err("a {comment} is not closed: expected } before the end of the record".into());
    }
    if depth_paren > 0 {
        return Err("a (variation) is not closed: expected ) before the end of the record".into());
    }
    for token in clean.split_whitespace() {
        // Strip a move number prefix (`12.`, `12...`, `12.h8`).
        let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = if rest.starts_with('.') && rest.len() < token.len() {
            rest.trim_start_matches('.')
        } else {
            token
        };
        if token.is_empty() || matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        if let Some(ms) = token.strip_prefix(EMT_MARK) {
            if let (Some(slot), Ok(ms)) = (record.times.last_mut(), ms.parse()) {
                *slot = Some(Duration::from_millis(ms));
            }
            continue;
        }
        record.moves.push(token.to_string());
        record.times.push(None);
    }
    Ok(record)
}

/// Marks a move time read from a comment among the move tokens (a control character no
/// record holds).
const EMT_MARK: char = '\u{1}';

/// The time in a comment's `[%emt 0:00:03.2]` command, if it has one.
fn emt_of(comment: &str) -> Option<Duration> {
    let rest = &comment[comment.find("[%emt")? + "[%emt".len()..];
    parse_emt(&rest[..rest.find(']')?])
}

/// The first game of a file and how many games it holds: a new game starts at a tag line
/// after move text (`qi match --records` writes one record after another).
#[must_use]
pub fn first_game(text: &str) -> (&str, usize) {
    let games = games(text);
    (games[0], games.len())
}

/// The games of a file, in order (at least one: the whole text when it holds no second game).
/// A new game starts at a tag line after move text.
#[must_use]
pub fn games(text: &str) -> Vec<&str> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut seen_moves = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        if t.starts_with('[') {
            if seen_moves {
                games.push(&text[start..offset]);
                start = offset;
                seen_moves = false;
            }
        } else if !t.is_empty() && !t.starts_with(';') && !t.starts_with('%') {
            seen_moves = true;
        }
        offset += line.len();
    }
    games.push(&text[start..]);
    games
}

/// The value of the tag `side` (a side's name, `Black`, `White` or `Red`) in the first game
/// of `text`, if the record has it and reads.
#[must_use]
pub fn side_tag(text: &str, side: &str) -> Option<String> {
    let record = parse(first_game(text).0).ok()?;
    record.tag(side).map(str::to_string)
}

/// The clocks of `game`, loaded from the record `text`: the time control `given` (`--clock`,
/// the page's choice) or else the record's `[TimeControl]` tag. When the control is the
/// record's, the game goes on with the clocks it had: each turn's `%emt` time is spent
/// again ([`GameClock::resumed`]); otherwise both clocks start at the base. `None` when
/// neither gives a control.
#[must_use]
pub fn resumed_clock(text: &str, game: &dyn Game, given: Option<TimeControl>) -> Option<GameClock> {
    let record = parse(first_game(text.trim_start_matches('\u{feff}')).0).ok();
    let saved = record
        .as_ref()
        .and_then(|r| r.tag("TimeControl"))
        .and_then(|t| t.parse::<TimeControl>().ok());
    let tc = given.or(saved)?;
    let sides = game.turn_sides();
    match record {
        Some(r) if saved == Some(tc) && r.times.len() == sides.len() => {
            let turns: Vec<_> = sides.into_iter().zip(r.times).collect();
            Some(GameClock::resumed(tc, &turns))
        }
        _ => Some(GameClock::new(tc)),
    }
}

/// Sorted lowercase point tokens, to compare stone setups.
fn stone_set(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    v.sort();
    v
}

/// The registered game of a record's first `[Game]` tag, if it names one.
#[must_use]
pub fn game_of(text: &str) -> Option<&'static dyn GameSpec> {
    let (text, _) = first_game(text);
    parse(text)
        .ok()
        .and_then(|r| r.tag("Game").and_then(registry::find_record))
}

/// `a, b or c`.
fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// Rebuilds a game from a record: the start position from its tags, then its moves. A file
/// of several records (from `qi match --records`) loads its first game. `given` holds the
/// command-line position options: each one given must agree with the record.
///
/// # Errors
/// [`CliError::Usage`] naming the file and what is wrong: an unknown `[Game]`, a game that
/// differs from `expected`, an option that contradicts the record (naming the record's
/// value), a bad start position, a move that does not read or is illegal.
pub fn load(
    text: &str,
    file: &str,
    expected: Option<GameArg>,
    given: &Setup,
    config: &EngineConfig,
) -> Result<Box<dyn Game>, CliError> {
    let bad = |msg: String| CliError::Usage(format!("{file}: {msg}"));
    // A byte-order mark (an editor's UTF-8 save) is not part of the record.
    let (text, _games) = first_game(text.trim_start_matches('\u{feff}'));
    let record = parse(text).map_err(bad)?;
    let known: Vec<&str> = registry::GAMES.iter().map(|g| g.record_title()).collect();
    let Some(game_tag) = record.tag("Game") else {
        return Err(bad(format!(
            "no [Game \"...\"] tag: a record names its game, one of {}",
            or_list(&known)
        )));
    };
    let Some(kind) = registry::find_record(game_tag) else {
        return Err(bad(format!(
            "unknown [Game \"{game_tag}\"]: expected {}",
            or_list(&known)
        )));
    };
    if let Some(want) = expected
        && want.name() != kind.name()
        && kind.family() != want.name()
    {
        return Err(bad(format!(
            "the record is a {} game, not {}",
            kind.name(),
            want.name()
        )));
    }
    let rules: Vec<&str> = kind.rules().iter().map(|(name, _)| *name).collect();
    let rule = match record.tag("Rule").map(str::to_ascii_lowercase) {
        None => None,
        Some(r) if rules.is_empty() || rules.contains(&r.as_str()) => Some(r),
        Some(other) => {
            return Err(bad(format!(
                "unknown [Rule \"{other}\"]: expected {}",
                or_list(&rules)
            )));
        }
    };
    let size = match record.tag("Size") {
        None => None,
        Some(s) => Some(
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(format!("bad [Size \"{s}\"]: expected a number")))?,
        ),
    };
    let args = Setup {
        rule: if rules.is_empty() { None } else { rule },
        size,
        fen: record.tag("FEN").map(str::to_string),
        moves: None,
        black: record.tag("SetupBlack").map(str::to_string),
        white: record.tag("SetupWhite").map(str::to_string),
        to_move: record.tag("ToMove").map(str::to_ascii_lowercase),
        no_capture_plies: None,
    };
    let mut game = kind.build(&args, config).map_err(|e| {
        // Name the record's tags, not the command-line options they stand for.
        let msg = e.to_string();
        let msg = msg
            .replacen("--fen: ", "[FEN]: ", 1)
            .replacen("--size: ", "[Size]: ", 1)
            .replacen("--black/--white: ", "[SetupBlack]/[SetupWhite]: ", 1)
            .replacen("--black: ", "[SetupBlack]: ", 1)
            .replacen("--white: ", "[SetupWhite]: ", 1);
        bad(msg)
    })?;
    check_agrees(kind, game.as_ref(), &args, given, file)?;
    let opened = replay_opening(&record, game.as_mut(), kind, &args).map_err(bad)?;
    for (i, token) in record.moves.iter().enumerate().skip(opened) {
        if let Some(ask) = game.opening_ask() {
            return Err(bad(format!(
                "move {}: {token} comes while the {} opening still asks: {}",
                i + 1,
                ask.rule,
                ask.prompt
            )));
        }
        game.play_text(token)
            .map_err(|e| bad(format!("move {}: {}", i + 1, quoted(token, &e))))?;
    }
    if let Some(moves) = &given.moves {
        // The same moves give the same record (the start tags are the record's in both).
        let with_moves = Setup {
            moves: Some(moves.clone()),
            ..args.clone()
        };
        let players = ["", ""];
        let agrees = kind
            .build(&with_moves, &EngineConfig::small())
            .is_ok_and(|g| g.record(players, None) == game.record(players, None));
        if !agrees {
            let held = if record.moves.is_empty() {
                "no moves".to_string()
            } else {
                format!("the moves \"{}\"", record.moves.join(" "))
            };
            return Err(CliError::Usage(format!(
                "--moves \"{moves}\" contradicts {file}, which holds {held}: leave --moves out \
                 to continue the record"
            )));
        }
    }
    Ok(game)
}

/// How a record's game ended when its position goes on: a `[Result]` of `1-0`, `0-1` or
/// `1/2-1/2` with the reason of its `[Termination]` tag (a resignation, a flag fall, an agreed
/// draw). `None` for an unfinished record (`*`), one whose position has ended by the rules
/// (`game` says so itself), or a text that is no record.
#[must_use]
pub fn recorded_ending(text: &str, game: &dyn Game) -> Option<Ending> {
    if game.ending().is_some() {
        return None;
    }
    let (text, _) = first_game(text.trim_start_matches('\u{feff}'));
    let record = parse(text).ok()?;
    let outcome = match record.tag("Result")?.trim() {
        "1-0" => Outcome::Win(Side::First),
        "0-1" => Outcome::Win(Side::Second),
        "1/2-1/2" => Outcome::Draw,
        _ => return None,
    };
    let reason = record
        .tag("Termination")
        .map_or_else(|| "the result the record gives".to_string(), str::to_string);
    Some(Ending { outcome, reason })
}

/// Replays the opening rule a record was played under: its `[Opening]` rule is set and each
/// answer of `[OpeningSteps]` (`; `-separated, as [`Game::record`] writes them: a point, a
/// choice's word, `offer` and the points offered) is given again, so a reloaded game knows
/// who swapped and what is still asked. Returns how many of the record's turns the opening
/// placed; they must be the record's first turns.
///
/// # Errors
/// The rule is unknown to the game, a step is refused, or the stones the steps place differ
/// from the record's first moves: the message names the tag and the step.
fn replay_opening(
    record: &Record,
    game: &mut dyn Game,
    kind: &dyn GameSpec,
    args: &Setup,
) -> Result<usize, String> {
    let Some(name) = record.tag("Opening") else {
        return Ok(0);
    };
    game.set_opening(name)
        .map_err(|e| format!("[Opening \"{name}\"]: {e}"))?;
    let steps = record.tag("OpeningSteps").unwrap_or_default();
    for (i, step) in steps
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        let answer = step.strip_prefix("offer ").unwrap_or(step);
        game.opening_answer(answer)
            .map_err(|e| format!("[OpeningSteps] step {}: {e}", i + 1))?;
    }
    let placed = game.turn_texts();
    // The opening's stones are the record's first turns: the same moves played freely give
    // the same turns.
    let mut free = kind
        .build(args, &EngineConfig::small())
        .map_err(|e| e.to_string())?;
    let agrees = placed.len() <= record.moves.len()
        && record.moves[..placed.len()]
            .iter()
            .all(|token| free.play_text(token).is_ok())
        && free.turn_texts() == placed;
    if !agrees {
        let texts: Vec<&str> = placed.iter().map(|(_, t)| t.as_str()).collect();
        return Err(format!(
            "[OpeningSteps \"{steps}\"] place {} but the record's moves start {}",
            texts.join(" "),
            record.moves[..placed.len().min(record.moves.len())].join(" ")
        ));
    }
    Ok(placed.len())
}

/// An option given with `--load` must say what the record says. What the record holds is
/// read from the game built from it (its board's size, its start tags' rule and FEN).
fn check_agrees(
    kind: &dyn GameSpec,
    start: &dyn Game,
    record: &Setup,
    given: &Setup,
    file: &str,
) -> Result<(), CliError> {
    let clash = |option: String, held: String| {
        CliError::Usage(format!(
            "{option} contradicts {file}, which holds {held}: leave {} out to continue the record",
            option.split_whitespace().next().unwrap_or(&option)
        ))
    };
    let name = kind.name();
    let tags = start.start_tags();
    let tag = |key: &str| tags.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    if let Some(n) = given.size {
        let view = start.board();
        let held = (view.files == view.rows && tag("Size").is_some()).then_some(view.files);
        if held != Some(n) {
            return Err(clash(
                format!("--size {n}"),
                match held {
                    Some(h) => format!("a {h}x{h} {name} game"),
                    None => format!("a {name} game ({}x{}, no --size)", view.files, view.rows),
                },
            ));
        }
    }
    if let Some(r) = &given.rule {
        let held = tag("Rule");
        if held.as_deref() != Some(r.as_str()) {
            return Err(clash(
                format!("--rule {r}"),
                match held {
                    Some(h) => format!("a game under {h} rules"),
                    None => format!("a {name} game (no --rule)"),
                },
            ));
        }
    }
    if let Some(fen) = &given.fen {
        let held = tag("FEN");
        // Placement and side to move decide; the counters may be left out.
        let key = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if held.as_deref().map(key) != Some(key(fen)) {
            return Err(clash(
                format!("--fen \"{fen}\""),
                match held {
                    Some(h) => format!("the start position \"{h}\""),
                    None => format!("a {name} game (no FEN)"),
                },
            ));
        }
    }
    for (flag, mine, theirs) in [
        ("--black", &given.black, &record.black),
        ("--white", &given.white, &record.white),
    ] {
        if let Some(stones) = mine
            && stone_set(stones) != stone_set(theirs.as_deref().unwrap_or(""))
        {
            return Err(clash(
                format!("{flag} \"{stones}\""),
                match theirs {
                    Some(t) => format!("the setup stones \"{t}\""),
                    None => "no setup stones".to_string(),
                },
            ));
        }
    }
    if let Some(side) = &given.to_move
        && record.to_move.as_deref() != Some(side.as_str())
    {
        return Err(clash(
            format!("--to-move {side}"),
            match &record.to_move {
                Some(t) => format!("[ToMove \"{t}\"]"),
                None => "no [ToMove] tag (the moves decide the side to move)".to_string(),
            },
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Side;

    #[test]
    fn parses_tags_and_moves() {
        let r = parse(
            "[Game \"Gomoku\"]\n[Size \"15\"]\n\n1. h8 i9 2. h9 {a comment 3. x} 2... j10\n3.k11 1-0\n",
        )
        .unwrap();
        assert_eq!(r.tag("game"), Some("Gomoku"));
        assert_eq!(r.tag("Size"), Some("15"));
        assert_eq!(r.moves, ["h8", "i9", "h9", "j10", "k11"]);
    }

    #[test]
    fn a_timed_record_resumes_its_clocks() {
        let text = "[Game \"Gomoku\"]\n[Rule \"freestyle\"]\n[Size \"15\"]\n\
                    [TimeControl \"60+2\"]\n\n1. h8 {[%emt 0:00:05.0]} i9 {good [%emt \
                    0:00:20.5]} 2. h9 {[%emt 0:01:00.0]} *\n";
        let r = parse(text).unwrap();
        assert_eq!(r.moves, ["h8", "i9", "h9"]);
        let s = Duration::from_millis;
        assert_eq!(r.times, [Some(s(5_000)), Some(s(20_500)), Some(s(60_000))]);
        let game = load(text, "t", None, &Setup::default(), &EngineConfig::small()).unwrap();
        let now = std::time::Instant::now();
        // Black: 60 - 5 + 2 - 60 (its flag fell: no increment); White: 60 - 20.5 + 2.
        let c = resumed_clock(text, game.as_ref(), None).unwrap();
        assert_eq!(c.remaining(Side::First, now), Duration::ZERO);
        assert_eq!(c.remaining(Side::Second, now), s(41_500));
        assert_eq!(c.turn_times(3), r.times);
        // The same control given again resumes; another starts both clocks afresh.
        let same = resumed_clock(text, game.as_ref(), Some("1m+2s".parse().unwrap())).unwrap();
        assert_eq!(same.remaining(Side::Second, now), s(41_500));
        let other = resumed_clock(text, game.as_ref(), Some("5m".parse().unwrap())).unwrap();
        assert_eq!(other.remaining(Side::First, now), s(300_000));
        assert_eq!(other.turn_times(3), [None; 3]);
        // An untimed record has no clock unless one is given.
        let plain = "[Game \"Gomoku\"]\n\n1. h8 i9 *\n";
        let game = load(plain, "t", None, &Setup::default(), &EngineConfig::small()).unwrap();
        assert!(resumed_clock(plain, game.as_ref(), None).is_none());
    }

    #[test]
    fn a_record_under_an_opening_rule_reloads_its_steps() {
        let setup = Setup::default();
        let config = EngineConfig::small();
        let mut game = load("[Game \"Gomoku\"]\n\n*\n", "t", None, &setup, &config).unwrap();
        game.set_opening("swap2").unwrap();
        // Swap2: three stones, then the other player takes Black (a swap) and play goes on.
        for step in ["h8", "h9", "j10", "black"] {
            game.opening_answer(step).unwrap();
        }
        game.play_text("g7").unwrap();
        game.play_text("k11").unwrap();
        assert!(game.swapped());
        let text = game.record(["a", "b"], None);
        assert!(
            text.contains("[OpeningSteps \"h8; h9; j10; black\"]"),
            "{text}"
        );
        let back = load(&text, "t", None, &setup, &config).unwrap();
        assert_eq!(back.opening_name(), Some("swap2"));
        assert!(back.swapped());
        assert!(back.opening_ask().is_none());
        assert_eq!(back.record(["a", "b"], None), text);
        // Saved mid-opening: the next step is still asked after the reload.
        let cut = text.replace("; black", "");
        let moves_at = cut.find("\n\n").unwrap();
        let cut = format!("{}\n\n1. h8 h9 2. j10 *\n", &cut[..moves_at]);
        let back = load(&cut, "t", None, &setup, &config).unwrap_or_else(|e| panic!("{e}\n{cut}"));
        assert_eq!(back.opening_ask().map(|a| a.kind), Some("choose"));
        assert!(!back.swapped());
        // Steps that disagree with the moves, and moves played past an open step, are refused.
        let wrong = text.replace("[OpeningSteps \"h8", "[OpeningSteps \"h7");
        let e = load(&wrong, "t", None, &setup, &config).map(|_| ());
        assert!(e.is_err_and(|e| e.to_string().contains("[OpeningSteps")));
        let early = text.replace("; black", "");
        let e = load(&early, "t", None, &setup, &config).map(|_| ());
        let e = e.unwrap_err().to_string();
        assert!(
            e.contains("move 4: g7 comes while the swap2 opening"),
            "{e}"
        );
    }

    #[test]
    fn bad_tag_line() {
        assert_eq!(
            parse("[Game Gomoku]\n"),
            Err("line 1: the tag value must be in double quotes".to_string())
        );
    }
}
