//! Engines of a match: a process speaking a protocol ([`Client`]) or qi in-process
//! ([`Local`]: a game of the frame with its own engine, for every registered game, and the
//! only way for a game without a protocol, such as Connect Four).

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use game_frame::{Budget, EngineConfig, Game, GameSpec, LEVELS, Level, LevelPick};

use super::client::{Client, Clocks, Fault, Reply, TimeControl};
use super::engine::{EngineSpec, Log, Proto};
use super::referee::{Referee, Variant};

/// Time an in-process engine keeps in reserve under a game clock (the referee's own work
/// between its moves).
const IN_PROCESS_OVERHEAD: Duration = Duration::from_millis(10);

/// qi playing in-process: its own game (built from the match game's opening) and engine.
pub struct Local {
    spec: &'static dyn GameSpec,
    config: EngineConfig,
    depth: Option<u32>,
    nodes: Option<u64>,
    /// A strength level below the full engine.
    level: Option<LevelPick>,
    game: Option<Box<dyn Game>>,
}

impl Local {
    /// An in-process qi for `spec` with the engine spec's options: `hash` (MiB), `threads`,
    /// `depth`, `nodes`, `level` (1..8; its choices seeded from the clock).
    ///
    /// # Errors
    /// A message for an option that is unknown or does not read.
    pub fn new(spec: &'static dyn GameSpec, engine: &EngineSpec) -> Result<Local, String> {
        let mut local = Local {
            spec,
            config: EngineConfig::default(),
            depth: None,
            nodes: None,
            level: None,
            game: None,
        };
        for (k, v) in &engine.options {
            let number = |lo: u64, hi: u64| {
                v.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (lo..=hi).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "bad in-process option {k}={v}: expected a whole number {lo}..={hi}"
                        )
                    })
            };
            match k.to_ascii_lowercase().as_str() {
                "hash" => {
                    local.config.hash_mib = number(
                        game_core::search::MIN_HASH_MIB as u64,
                        game_core::search::MAX_HASH_MIB as u64,
                    )? as usize;
                }
                "threads" => {
                    local.config.threads =
                        number(1, game_core::search::MAX_THREADS as u64)? as usize;
                }
                "depth" => local.depth = Some(number(1, 100)? as u32),
                "nodes" => local.nodes = Some(number(1, u64::MAX)?),
                "level" => {
                    let level = Level::new(number(1, u64::from(LEVELS))? as u8)
                        .map_err(|e| e.to_string())?;
                    local.level = LevelPick::fresh(level);
                }
                _ => {
                    return Err(format!(
                        "unknown in-process option '{k}': expected hash, threads, depth, nodes \
                         or level"
                    ));
                }
            }
        }
        Ok(local)
    }

    /// Forgets the last game.
    fn new_game(&mut self) {
        self.game = None;
    }

    /// Thinks about the referee's position within the clock and answers its turn in the
    /// game's notation.
    fn go(
        &mut self,
        referee: &Referee,
        opening: &game_frame::Opening,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        let played = referee.game.turn_texts();
        // A game of our own from the opening, brought level with the referee's.
        let rebuild = match &self.game {
            Some(g) => g.turn_sides().len() > played.len(),
            None => true,
        };
        if rebuild {
            let game = self
                .spec
                .build(&opening.setup, &self.config)
                .map_err(|e| Fault::Protocol(format!("cannot set up the game: {e}")))?;
            self.game = Some(game);
        }
        let game = self.game.as_mut().expect("built");
        for (_, text) in &played[game.turn_sides().len()..] {
            game.play_text(text)
                .map_err(|e| Fault::Protocol(format!("cannot follow the game: {e}")))?;
        }
        // A game clock goes to the game's own time manager (each game knows how long its
        // games last); a time per move is the turn's time.
        let (time, clock) = match clocks.tc {
            TimeControl::MoveTime(t) => (Some(t), None),
            TimeControl::Game { .. } => (None, clocks.engine_clock(IN_PROCESS_OVERHEAD)),
        };
        let budget = Budget {
            depth: self.depth,
            nodes: self.nodes,
            time,
            clock,
            level: self.level,
            ..Default::default()
        };
        let start = Instant::now();
        let stop = AtomicBool::new(false);
        let thought = game.think(&budget, &stop, &mut |_| {});
        let spent = start.elapsed();
        if let Some(late) = Fault::late(spent, clocks.allowed(), margin) {
            return Err(late);
        }
        Ok((
            match thought.bestmove {
                Some(m) => Reply::Move(m),
                None => Reply::NoMove("no move".to_string()),
            },
            spent,
        ))
    }
}

/// One engine of a match, in a process or in-process.
pub enum Player {
    /// A child process speaking a protocol.
    Process(Box<Client>),
    /// qi in-process.
    Local(Box<Local>),
}

impl Player {
    /// Starts the engine of `engine` for `variant`'s game.
    ///
    /// # Errors
    /// `Err(Ok(message))` when it cannot be started at all (the match stops), `Err(Err(fault))`
    /// when it starts but fails the handshake (it loses the game).
    pub fn start(
        engine: &EngineSpec,
        proto: Proto,
        variant: &Variant,
        log: Option<(Log, String)>,
    ) -> Result<Player, Result<String, Fault>> {
        match proto {
            Proto::InProcess => Local::new(variant.spec, engine)
                .map(|l| Player::Local(Box::new(l)))
                .map_err(Ok),
            _ => Client::start(engine, proto, log).map(|c| Player::Process(Box::new(c))),
        }
    }

    /// Prepares a new game.
    ///
    /// # Errors
    /// A [`Fault`] if a process fails to answer as its protocol requires.
    pub fn new_game(&mut self, referee: &Referee, tc: &TimeControl) -> Result<(), Fault> {
        match self {
            Player::Process(c) => c.new_game(referee, tc),
            Player::Local(l) => {
                l.new_game();
                Ok(())
            }
        }
    }

    /// Asks for a turn in the referee's position under `clocks`.
    ///
    /// # Errors
    /// As [`Client::go`].
    pub fn go(
        &mut self,
        referee: &Referee,
        opening: &game_frame::Opening,
        clocks: &Clocks,
        margin: Duration,
    ) -> Result<(Reply, Duration), Fault> {
        match self {
            Player::Process(c) => c.go(referee, clocks, margin),
            Player::Local(l) => l.go(referee, opening, clocks, margin),
        }
    }

    /// Ends the engine politely.
    pub fn quit(self) {
        if let Player::Process(c) = self {
            c.quit();
        }
    }

    /// Ends the engine at once.
    pub fn kill(self) {
        if let Player::Process(c) = self {
            c.kill();
        }
    }
}
