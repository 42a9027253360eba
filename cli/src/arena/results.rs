//! Result files of `qi match --results FILE` and their merge, `qi match merge FILES`.
//!
//! A match is a list of game pairs: pair `k` is games `2k` and `2k + 1`, one opening played
//! with colours swapped, and the opening of a pair depends only on the seed (or the opening
//! file) and `k`. So a match can be cut into slices (`qi match --pairs 100..120`) that run
//! anywhere, and their result files merged give exactly the numbers of one long match over
//! the same pairs: [`merge`] rebuilds every game's report and runs it through the same
//! tally and summary that `qi match` prints.
//!
//! The file holds one JSON object a line ([`PairLine`]), written when both games of a pair
//! are counted; a game whose partner was never counted (an odd `--games`, or a match an SPRT
//! stopped) is written alone at the end of the match. Times are whole nanoseconds, so sums
//! and means merge exactly.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use game_core::{Outcome, Side};
use serde::{Deserialize, Serialize};

use super::stats::{Sprt, SprtState};
use super::tally::{GameReport, MoveTimes, Tally, result_tag, summary};
use crate::CliError;

/// One game pair of a match, one line of a result file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairLine {
    /// What was played and how; lines of one match agree on it, and only such lines merge.
    #[serde(rename = "match")]
    pub header: MatchHeader,
    /// The pair's number `k` (games `2k` and `2k + 1`), from 0.
    pub pair: usize,
    /// The opening of both games, as people read it.
    pub opening: String,
    /// The first engine's points in the pair in half points (0 = lost both, 4 = won both);
    /// `None` when only one game of the pair was counted.
    pub penta: Option<usize>,
    /// How the games lost by an engine fault (time, crash, illegal move, protocol error)
    /// ended; empty when none was.
    pub faults: Vec<String>,
    /// The pair's counted games (one or two), by game number.
    pub games: Vec<GameLine>,
}

/// The settings a match's result lines share.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchHeader {
    /// The game's registry name (`gomoku`, `xiangqi`, ...).
    pub game: String,
    /// The rule (`--rule`), if one was given.
    pub rule: Option<String>,
    /// The board size (`--size`), if one was given.
    pub size: Option<usize>,
    /// The engines' names; results are the first one's.
    pub engines: [String; 2],
    /// Each engine's protocol, program arguments and options (`proto=gomocup arg=gomocup
    /// option.max_depth=4`): slices played with other engine settings are another match. The
    /// program's path is left out, since it may differ from machine to machine.
    pub settings: [String; 2],
    /// The time control as the match's first line prints it (`10+0.1`, `500ms/move`).
    pub time_control: String,
    /// Where the openings came from: `seed N` or `file PATH (N openings)`.
    pub openings: String,
}

/// One game of a pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLine {
    /// The game's number in the match, from 0.
    pub index: usize,
    /// Which engine (0 or 1) played the first side.
    pub first: usize,
    /// `1-0`, `0-1` or `1/2-1/2`, by side.
    pub result: String,
    /// Why the game ended.
    pub reason: String,
    /// Engine moves played.
    pub plies: usize,
    /// Whether the game was lost by an engine fault rather than by the rules.
    pub fault: bool,
    /// Moves each engine (by engine index) answered.
    pub moves: [u64; 2],
    /// Their time summed, nanoseconds.
    pub time_ns: [u64; 2],
    /// The longest of them, nanoseconds.
    pub max_ns: [u64; 2],
}

/// Pairs a result file may hold: `--pairs` goes up to 500,000.
const MAX_PAIRS: usize = 500_000;

/// `text` with its control characters escaped (`\u{1b}`), so that a result file cannot
/// drive the terminal it is printed to.
fn printable(text: &str) -> String {
    if text.chars().any(char::is_control) {
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect()
    } else {
        text.to_string()
    }
}

impl PairLine {
    /// The line with every text the summary prints made [`printable`].
    fn escaped(mut self) -> PairLine {
        let h = &mut self.header;
        h.game = printable(&h.game);
        h.rule = h.rule.as_deref().map(printable);
        h.engines = h.engines.clone().map(|e| printable(&e));
        h.settings = h.settings.clone().map(|e| printable(&e));
        h.time_control = printable(&h.time_control);
        h.openings = printable(&h.openings);
        self.opening = printable(&self.opening);
        for g in &mut self.games {
            g.reason = printable(&g.reason);
        }
        self
    }
}

impl GameLine {
    /// Whether `other` is this game with the same result (its times aside).
    fn same_game(&self, other: &GameLine) -> bool {
        (
            self.index,
            self.first,
            &self.result,
            &self.reason,
            self.plies,
            self.fault,
        ) == (
            other.index,
            other.first,
            &other.result,
            &other.reason,
            other.plies,
            other.fault,
        )
    }

    /// The line of a finished game.
    pub fn of(report: &GameReport) -> GameLine {
        let ns = |d: Duration| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        GameLine {
            index: report.index,
            first: report.first,
            result: result_tag(report.outcome).to_string(),
            reason: report.reason.clone(),
            plies: report.plies,
            fault: report.fault,
            moves: report.times.map(|t| t.moves),
            time_ns: report.times.map(|t| ns(t.total)),
            max_ns: report.times.map(|t| ns(t.max)),
        }
    }

    /// The game's report again (without its record).
    ///
    /// # Errors
    /// A message when the result or the first engine is not one a match writes.
    fn report(&self) -> Result<GameReport, String> {
        let outcome = match self.result.as_str() {
            "1-0" => Outcome::Win(Side::First),
            "0-1" => Outcome::Win(Side::Second),
            "1/2-1/2" => Outcome::Draw,
            other => {
                return Err(format!(
                    "game {}: result '{other}': expected 1-0, 0-1 or 1/2-1/2",
                    self.index
                ));
            }
        };
        if self.first > 1 {
            return Err(format!(
                "game {}: first engine {}: expected 0 or 1",
                self.index, self.first
            ));
        }
        let times = [0, 1].map(|e| MoveTimes {
            moves: self.moves[e],
            total: Duration::from_nanos(self.time_ns[e]),
            max: Duration::from_nanos(self.max_ns[e]),
        });
        Ok(GameReport {
            index: self.index,
            first: self.first,
            outcome,
            reason: self.reason.clone(),
            record: String::new(),
            plies: self.plies,
            times,
            fault: self.fault,
        })
    }
}

impl PairLine {
    /// The line of pair `games[0].index / 2` with its counted games (one or two, in game
    /// order).
    pub fn of(header: &MatchHeader, opening: &str, games: &[&GameReport]) -> PairLine {
        let mut lines: Vec<GameLine> = games.iter().map(|g| GameLine::of(g)).collect();
        lines.sort_by_key(|g| g.index);
        let penta = (games.len() == 2).then(|| games.iter().map(|g| g.halves()).sum());
        PairLine {
            header: header.clone(),
            pair: lines[0].index / 2,
            opening: opening.to_string(),
            penta,
            faults: games
                .iter()
                .filter(|g| g.fault)
                .map(|g| g.reason.clone())
                .collect(),
            games: lines,
        }
    }

    /// Appends the line to `file`.
    ///
    /// # Errors
    /// [`CliError::Failed`] when it cannot be written.
    pub fn write(&self, file: &mut std::fs::File) -> Result<(), CliError> {
        let mut text = serde_json::to_string(self)
            .map_err(|e| CliError::Failed(format!("cannot encode a result line: {e}")))?;
        text.push('\n');
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| CliError::Failed(format!("cannot write the results file: {e}")))
    }
}

/// Options of `qi match merge`.
#[derive(clap::Args, Clone, Debug)]
#[command(after_help = "Examples:\n  \
    qi match merge part-*.jsonl\n  \
    qi match merge a.jsonl b.jsonl --sprt elo0=0,elo1=5 --json")]
pub struct MergeArgs {
    /// Result files of `qi match --results` (one JSON line per game pair).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The SPRT to judge the merged games by, as `qi match --sprt` takes it.
    #[arg(long, value_name = "PARAMS")]
    pub sprt: Option<String>,
    /// Print the summary as one JSON object (for programs) instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Where a line came from, for messages.
fn at(path: &std::path::Path, line: usize) -> String {
    format!("{}:{line}", path.display())
}

/// Reads the result files: every pair once, by pair number. A pair found again (a slice
/// played twice) is counted once, from the file given first; stderr says so when the two
/// differ (their times always do).
///
/// # Errors
/// [`CliError::Usage`] for a file that cannot be read, a line that is not a result line, or
/// lines of different matches (engines, game, time control or openings differ).
pub fn read(files: &[PathBuf]) -> Result<BTreeMap<usize, PairLine>, CliError> {
    let usage = CliError::Usage;
    let mut pairs: BTreeMap<usize, (PairLine, String)> = BTreeMap::new();
    let mut first: Option<(MatchHeader, String)> = None;
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read {}: {e}", path.display())))?;
        for (i, raw) in text.lines().enumerate() {
            if raw.trim().is_empty() {
                continue;
            }
            let here = at(path, i + 1);
            let line: PairLine = serde_json::from_str(raw).map_err(|e| {
                usage(format!(
                    "{here}: not a result line of `qi match --results`: {e}"
                ))
            })?;
            if line.games.is_empty() || line.games.len() > 2 {
                return Err(usage(format!(
                    "{here}: pair {} has {} games: expected 1 or 2",
                    line.pair,
                    line.games.len()
                )));
            }
            if line.pair >= MAX_PAIRS {
                return Err(usage(format!(
                    "{here}: pair {}: expected a pair number below {MAX_PAIRS}",
                    line.pair
                )));
            }
            if let Some(g) = line.games.iter().find(|g| g.index / 2 != line.pair) {
                return Err(usage(format!(
                    "{here}: game {} is not in pair {} (games {} and {})",
                    g.index,
                    line.pair,
                    2 * line.pair,
                    2 * line.pair + 1
                )));
            }
            if line.games.len() == 2 && line.games[0].index == line.games[1].index {
                return Err(usage(format!(
                    "{here}: pair {} holds game {} twice",
                    line.pair, line.games[0].index
                )));
            }
            for g in &line.games {
                g.report().map_err(|e| usage(format!("{here}: {e}")))?;
                // Engine 0 plays the first side in the even game of every pair.
                if g.first != g.index % 2 {
                    return Err(usage(format!(
                        "{here}: game {}: first engine {}: a match has engine {} play first \
                         in game {}",
                        g.index,
                        g.first,
                        g.index % 2,
                        g.index
                    )));
                }
            }
            if line.penta.is_some_and(|p| p > 4) {
                return Err(usage(format!(
                    "{here}: pentanomial bucket {}: expected 0 to 4 half points",
                    line.penta.unwrap_or_default()
                )));
            }
            let line = line.escaped();
            match &first {
                None => first = Some((line.header.clone(), here.clone())),
                Some((header, there)) if *header != line.header => {
                    return Err(usage(format!(
                        "{here} is from another match than {there}: {} against {}",
                        describe(&line.header),
                        describe(header)
                    )));
                }
                Some(_) => {}
            }
            match pairs.get(&line.pair) {
                Some((seen, _)) if *seen == line => {}
                // The same pair played twice (a slice run again elsewhere): its games are
                // counted once, a whole pair before a lone game, else the first read.
                Some((seen, there)) => {
                    let same = seen.games.len() == line.games.len()
                        && seen
                            .games
                            .iter()
                            .zip(&line.games)
                            .all(|(a, b)| a.same_game(b));
                    let keep_new = line.games.len() > seen.games.len();
                    eprintln!(
                        "qi: {here}: pair {} was read before at {there} ({}); counted once, \
                         from {}",
                        line.pair,
                        if same {
                            "the same games, other times"
                        } else {
                            "other games"
                        },
                        if keep_new {
                            "here (both its games)"
                        } else {
                            "there"
                        }
                    );
                    if keep_new {
                        pairs.insert(line.pair, (line, here));
                    }
                }
                None => {
                    pairs.insert(line.pair, (line, here));
                }
            }
        }
    }
    Ok(pairs.into_iter().map(|(k, (line, _))| (k, line)).collect())
}

/// Refuses to append to a result file of another match: its first line must have `header`'s
/// settings (an empty or new file is fine).
///
/// # Errors
/// [`CliError::Usage`] naming the file and both matches.
pub fn check_appendable(path: &std::path::Path, header: &MatchHeader) -> Result<(), CliError> {
    let Ok(text) = std::fs::read_to_string(path) else {
        // Missing (it will be created) or unreadable (opening it for appending says why).
        return Ok(());
    };
    let Some(first) = text.lines().find(|l| !l.trim().is_empty()) else {
        return Ok(());
    };
    match serde_json::from_str::<PairLine>(first) {
        Ok(line) if line.header == *header => Ok(()),
        Ok(line) => Err(CliError::Usage(format!(
            "--results {} holds another match ({}); this one is {}: give a new file",
            path.display(),
            describe(&line.escaped().header),
            describe(header)
        ))),
        Err(e) => Err(CliError::Usage(format!(
            "--results {}: not a result file of `qi match --results` ({e}): give a new file",
            path.display()
        ))),
    }
}

/// A match's settings in one line of text.
fn describe(h: &MatchHeader) -> String {
    let mut game = h.game.clone();
    if let Some(rule) = &h.rule {
        game.push_str(&format!(" {rule}"));
    }
    if let Some(size) = h.size {
        game.push_str(&format!(" {size}x{size}"));
    }
    format!(
        "{game}, {} vs {}, {}, {}",
        h.engines[0], h.engines[1], h.time_control, h.openings
    ) + &format!(
        " ({}: {}; {}: {})",
        h.engines[0], h.settings[0], h.engines[1], h.settings[1]
    )
}

/// The tally of the merged pairs: every game through [`Tally::add`] in pair order.
fn tally(pairs: &BTreeMap<usize, PairLine>) -> Tally {
    let mut tally = Tally::default();
    for line in pairs.values() {
        for g in &line.games {
            tally.add(&g.report().expect("checked when read"));
        }
    }
    tally
}

/// Runs `qi match merge`: prints the summary `qi match` prints for the same games (text), or
/// the same figures as one JSON object (`--json`).
///
/// # Errors
/// [`CliError::Usage`] for a bad `--sprt` or result file (see [`read`]); output errors.
pub fn merge(args: &MergeArgs) -> Result<(), CliError> {
    let sprt = Sprt::parse_option(args.sprt.as_deref()).map_err(CliError::Usage)?;
    let pairs = read(&args.files)?;
    let Some(header) = pairs.values().next().map(|l| l.header.clone()) else {
        return Err(CliError::Usage(format!(
            "no result line in {}: expected the files `qi match --results` writes",
            args.files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    let tally = tally(&pairs);
    let mut out = std::io::stdout().lock();
    if args.json {
        let json = summary_json(&header, &tally, sprt.as_ref(), pairs.len());
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "qi match merge: {} pairs from {} file{}: {}",
        pairs.len(),
        args.files.len(),
        if args.files.len() == 1 { "" } else { "s" },
        describe(&header)
    )?;
    summary(&mut out, &header.engines, &tally, sprt.as_ref(), None)
}

/// The summary's figures as JSON: counts, score, both Elo estimates with their intervals
/// (`null` where infinite), the SPRT's LLR, bounds and verdict, endings and time per move.
fn summary_json(
    header: &MatchHeader,
    tally: &Tally,
    sprt: Option<&Sprt>,
    lines: usize,
) -> serde_json::Value {
    let wdl = &tally.wdl;
    let elo = |e: Option<(f64, f64, f64)>| {
        e.map(|(elo, low, high)| serde_json::json!({"elo": elo, "low": low, "high": high}))
    };
    let sprt = sprt.map(|s| {
        let llr = s.llr(wdl);
        let (lower, upper) = s.bounds();
        let verdict = match s.state(llr) {
            SprtState::H1 => "H1",
            SprtState::H0 => "H0",
            SprtState::Continue => "continue",
        };
        serde_json::json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": llr, "lower": lower, "upper": upper, "verdict": verdict,
        })
    });
    let times: Vec<serde_json::Value> = header
        .engines
        .iter()
        .zip(&tally.times)
        .map(|(name, t)| {
            serde_json::json!({
                "engine": name, "moves": t.moves, "mean_ms": t.mean_ms(),
                "max_ms": t.max.as_secs_f64() * 1000.0,
            })
        })
        .collect();
    serde_json::json!({
        "match": header,
        "pair_lines": lines,
        "games": wdl.games(),
        "wins": wdl.wins,
        "draws": wdl.draws,
        "losses": wdl.losses,
        "score": wdl.score(),
        "elo": elo(wdl.elo()),
        "pentanomial": tally.penta.counts,
        "pairs": tally.penta.pairs(),
        "pentanomial_elo": elo(tally.penta.elo()),
        "sprt": sprt,
        "endings": tally.endings(),
        "time_per_move": times,
    })
}
