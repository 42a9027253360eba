//! Self-play (`qi selfplay`): qi plays itself from varied, seeded openings and writes the quiet positions
//! of every game with the game's result, the data `qi tune` fits the evaluation to.
//!
//! Output: [`tune::data`]'s text format, `# ` comment lines first (the command, so that a
//! weights file can say which data made it), then one `result<TAB>position` line per quiet
//! position. A run is one shard: runs with different `--seed`s on different machines write
//! independent files, and `qi tune` reads them all. Game `i` of a seed is the same game in any
//! run (its opening comes from the seed and `i`, its engine starts fresh, and a depth or node
//! limit makes the search deterministic), and the positions are written in game order
//! whatever the thread count; so the games `K..K+N` of a seed (`--first-game K --games N`)
//! are exactly those games of one longer run, and shards of consecutive games concatenated
//! in order give that run's positions line for line.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use game_core::tune::{Features, Tunable, quiescence};
use game_core::zobrist::SplitMix64;
use game_core::{Position, Score};

use crate::FrameError;
use crate::config::{Budget, EngineConfig};
use crate::rules::Rules;

/// How the games are played.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Number of games.
    pub games: usize,
    /// The number of the first game (games `first_game..first_game + games` of the seed).
    pub first_game: usize,
    /// The engine's limit per turn (depth or nodes).
    pub budget: Budget,
    /// Games played at once, each on its own thread with a one-thread engine.
    pub threads: usize,
    /// Transposition table per engine, MiB.
    pub hash_mib: usize,
    /// Seed of the random openings: game `i` of seed `s` always opens the same way.
    pub seed: u64,
    /// Random plies from the start (or from each opening line) before the engine plays.
    pub random_plies: usize,
    /// Opening positions to start from in turn (`None`: the start position each time).
    pub openings: Option<Vec<String>>,
    /// A game still running after this many plies is scored a draw.
    pub max_plies: usize,
    /// The command line, written as the file's first comment.
    pub command: String,
}

/// What the run produced, for the summary line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// First side's wins, draws, second side's wins.
    pub results: [usize; 3],
    /// Positions written.
    pub positions: usize,
}

/// Whether `position` is quiet for tuning: the evaluation is linear there, the side to move
/// is not in check (facing a four), and a bounded quiescence search (8 plies, 20 000 nodes)
/// finds nothing better than the static evaluation.
pub fn is_quiet<P: Tunable>(position: &P, features: &mut Features) -> bool {
    if position.in_check() || !position.features(features) {
        return false;
    }
    let stand = position.static_eval();
    let eval = |p: &P| -> Score { p.static_eval() };
    let mut budget = 20_000u64;
    let mut pos = position.clone();
    let q = quiescence(
        &mut pos,
        &eval,
        -game_core::score::MAX_EVAL,
        game_core::score::MAX_EVAL,
        8,
        &mut budget,
    );
    q == stand
}

/// A move chosen uniformly from the game's search moves (near the stones for the stone games),
/// or `None` when the game is over.
fn random_move<P: Position>(
    pos: &P,
    rng: &mut SplitMix64,
    moves: &mut Vec<P::Move>,
) -> Option<P::Move> {
    if pos.generate_search_moves(moves).is_some() || moves.is_empty() {
        return None;
    }
    let (x, next) = rng.next();
    *rng = next;
    Some(moves[(x % moves.len() as u64) as usize])
}

/// One self-play game.
#[derive(Clone, Debug)]
pub struct Played<R> {
    /// The quiet positions' texts, in order.
    pub quiet: Vec<String>,
    /// The first side's result: `1-0`, `0-1`, `1/2-1/2` (a draw also for a game stopped at
    /// `max_plies`).
    pub result: &'static str,
    /// The final position (the tests check the result against it).
    pub end: R,
}

/// One game from `start`. `None` when the random opening already ended the game.
pub fn play_game<R: Rules + Tunable>(
    start: &R,
    settings: &Settings,
    rng: &mut SplitMix64,
    stop: &AtomicBool,
) -> Option<Played<R>> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..settings.random_plies {
        let mv = random_move(&pos, rng, &mut moves)?;
        pos.play_input(mv);
        if pos.ending().is_some() {
            return None;
        }
    }
    let config = EngineConfig {
        hash_mib: settings.hash_mib,
        threads: 1,
    };
    let mut engine = R::new_engine(&config);
    let mut quiet = Vec::new();
    let mut features = Features::new();
    let mut plies = settings.random_plies;
    let result = loop {
        if let Some(ending) = pos.ending() {
            break ending.result_tag();
        }
        if plies >= settings.max_plies || stop.load(Ordering::Relaxed) {
            break "1/2-1/2";
        }
        if is_quiet(&pos, &mut features) {
            quiet.push(pos.to_text());
        }
        let decision = R::think(&mut engine, &pos, &settings.budget, stop, &mut |_| {});
        if decision.turn.is_empty() {
            // No move although the game is not over: score what the rules say, else a draw.
            break "1/2-1/2";
        }
        for mv in decision.turn {
            pos.play_input(mv);
            plies += 1;
        }
    };
    Some(Played {
        quiet,
        result,
        end: pos,
    })
}

/// The output, written in game order.
struct Ordered<'a> {
    out: &'a mut (dyn Write + Send),
    /// The next game (counted from the run's first) to write.
    next: usize,
    /// Finished games waiting for an earlier one, with their text.
    pending: BTreeMap<usize, String>,
}

impl Ordered<'_> {
    /// Takes the text of game `slot` and writes every game now in order.
    fn put(&mut self, slot: usize, text: String) -> std::io::Result<()> {
        self.pending.insert(slot, text);
        while let Some(text) = self.pending.remove(&self.next) {
            self.out.write_all(text.as_bytes())?;
            self.next += 1;
        }
        self.out.flush()
    }
}

/// Plays `settings.games` games from `start` on `settings.threads` threads and writes the
/// quiet positions to `out` (see the module documentation). Prints a line per finished game
/// to stderr.
///
/// # Errors
/// [`FrameError::Usage`] for an opening that does not read; [`FrameError::Failed`] when writing
/// fails.
pub fn run<R: Rules + Tunable>(
    start: &R,
    settings: &Settings,
    out: &mut (dyn Write + Send),
) -> Result<Summary, FrameError> {
    let openings: Vec<R> = match &settings.openings {
        None => vec![start.clone()],
        Some(lines) => lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                R::from_text(l)
                    .map_err(|e| FrameError::Usage(format!("--openings: line {}: {e}", i + 1)))
            })
            .collect::<Result<_, _>>()?,
    };
    if openings.is_empty() {
        return Err(FrameError::Usage(
            "--openings: the file has no position".to_string(),
        ));
    }
    writeln!(out, "# {}", settings.command)?;
    writeln!(
        out,
        "# games {}..{} of seed {}, {} random plies; result<TAB>position (tune::data)",
        settings.first_game,
        settings.first_game + settings.games,
        settings.seed,
        settings.random_plies
    )?;
    // Games finish in any order on several threads; their positions are written in game
    // order: a finished game waits in `pending` until those before it are written.
    let out = Mutex::new(Ordered {
        out,
        next: 0,
        pending: BTreeMap::new(),
    });
    let summary = Mutex::new(Summary::default());
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<FrameError>> = Mutex::new(None);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let slot = next.fetch_add(1, Ordering::Relaxed);
                    if slot >= settings.games || stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let game = settings.first_game + slot;
                    let opening = &openings[game % openings.len()];
                    let mut rng = SplitMix64::new(
                        settings.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game as u64,
                    );
                    // A random opening may end the game at once (rare): draw another.
                    let played =
                        (0..20).find_map(|_| play_game(opening, settings, &mut rng, &stop));
                    let Some(Played {
                        quiet: positions,
                        result,
                        ..
                    }) = played
                    else {
                        let write = out.lock().expect("output lock").put(slot, String::new());
                        if let Err(e) = write {
                            *failed.lock().expect("error lock") = Some(e.into());
                            stop.store(true, Ordering::Relaxed);
                            break;
                        }
                        continue;
                    };
                    let mut text = String::new();
                    for p in &positions {
                        text.push_str(result);
                        text.push('\t');
                        text.push_str(p);
                        text.push('\n');
                    }
                    let write = out.lock().expect("output lock").put(slot, text);
                    if let Err(e) = write {
                        *failed.lock().expect("error lock") = Some(e.into());
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let mut s = summary.lock().expect("summary lock");
                    s.games += 1;
                    s.positions += positions.len();
                    s.results[match result {
                        "1-0" => 0,
                        "0-1" => 2,
                        _ => 1,
                    }] += 1;
                    eprintln!(
                        "game {}/{}: {result}, {} positions (total {}; +{} ={} -{})",
                        s.games,
                        settings.games,
                        positions.len(),
                        s.positions,
                        s.results[0],
                        s.results[1],
                        s.results[2]
                    );
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().expect("error lock") {
        return Err(e);
    }
    Ok(summary.into_inner().expect("summary lock"))
}

/// A game's self-play conformance check (for its crate's tests): plays `games` games of
/// `random_plies` random plies then depth 2 from `start`, and checks that every game's result
/// is the one its rules give the final position (a draw when stopped at the ply limit), that
/// every quiet position written reads back to the same text, is quiet and is not over.
///
/// # Panics
/// When a check fails, or when no game wrote a position.
pub fn check_games<R: Rules + Tunable>(start: &R, random_plies: usize, games: u64) {
    let settings = Settings {
        games: 1,
        first_game: 0,
        budget: Budget {
            depth: Some(2),
            ..Budget::default()
        },
        threads: 1,
        hash_mib: 1,
        seed: 5,
        random_plies,
        openings: None,
        max_plies: 400,
        command: "test".to_string(),
    };
    let stop = AtomicBool::new(false);
    let mut features = Features::new();
    let mut seen = 0;
    for g in 0..games {
        let mut rng = SplitMix64::new(g);
        let Some(played) = play_game(start, &settings, &mut rng, &stop) else {
            continue;
        };
        match played.end.ending() {
            Some(ending) => assert_eq!(played.result, ending.result_tag()),
            // Stopped at the ply limit: a draw.
            None => assert_eq!(played.result, "1/2-1/2"),
        }
        for text in &played.quiet {
            let pos = R::from_text(text).expect("selfplay positions read back");
            assert_eq!(&pos.to_text(), text);
            assert!(is_quiet(&pos, &mut features), "{text}");
            assert!(pos.ending().is_none(), "{text}");
            seen += 1;
        }
    }
    assert!(seen > 0, "no game wrote a quiet position");
}
