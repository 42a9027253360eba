//! `qi play`: the interactive loop, over any [`Game`].
//!
//! The loop reads commands line by line from a [`LineSource`] (any `BufRead`, or standard
//! input read by a thread so that a clock can run out while a person thinks) and writes the
//! transcript to any `Write`, so whole games are tested with in-memory text. The engine's live
//! search line goes to the error stream, at most four times a second.
//!
//! With a game clock ([`PlayConfig::clock`]) each side's clock runs on its turns and gains
//! the increment after them; the engine plays to its own clock with its game's time manager
//! (the one its protocols use); a clock that runs out ends the game as the game's rules say
//! ([`Game::flag_fall`]); the record carries the time control and each turn's time.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use game_core::text::escape_controls;
use game_core::{Outcome, Side};

use game_frame::opening_rule::{AskView, Role};
use game_frame::{
    Budget, Ending, Game, GameClock, Info, ReviewTurn, Style, Thought, clock_text, paint,
};

/// Who plays a side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the prompt.
    Human,
    /// The engine.
    Engine,
}

impl Player {
    /// `human` or `engine`, as in records.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "qi",
        }
    }
}

/// Ctrl-C presses not yet handled (see [`install_interrupt`]).
static INTERRUPTS: AtomicUsize = AtomicUsize::new(0);

/// Set by Ctrl-C: the engine's search stops and it plays its best move so far.
static INTERRUPT_STOP: AtomicBool = AtomicBool::new(false);

/// Whether [`install_interrupt`] installed the handler.
static INTERRUPT_HANDLER: AtomicBool = AtomicBool::new(false);

/// How often a prompt looks for a Ctrl-C press.
const INTERRUPT_POLL: Duration = Duration::from_millis(150);

/// Makes Ctrl-C (SIGINT) a player's key instead of the end of the program: while the engine
/// thinks it moves now (its best move so far); a second press, or one at the prompt, asks
/// whether to save the game before leaving. Returns whether the handler could be installed
/// (once per process).
pub fn install_interrupt() -> bool {
    let installed = ctrlc::set_handler(|| {
        INTERRUPTS.fetch_add(1, Ordering::SeqCst);
        INTERRUPT_STOP.store(true, Ordering::SeqCst);
    })
    .is_ok();
    INTERRUPT_HANDLER.store(installed, Ordering::SeqCst);
    installed
}

fn interrupt_handled() -> bool {
    INTERRUPT_HANDLER.load(Ordering::SeqCst)
}

/// How the loop runs.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Who plays `Side::First` and `Side::Second`.
    pub players: [Player; 2],
    /// The engine's budget per turn (also for `hint`).
    pub budget: Budget,
    /// Board style.
    pub style: Style,
    /// Echo each input line after the prompt (stdin is not a terminal: keeps transcripts
    /// readable).
    pub echo: bool,
    /// The error stream is a terminal: the live line redraws itself in place.
    pub live_in_place: bool,
    /// Whether the live search lines are written at all (a terminal, or `--info`).
    pub live_lines: bool,
    /// The game clock at the start, if the game is played on one (a loaded game's as its
    /// record left it, [`crate::record::resumed_clock`]). The engine then plays to its clock
    /// unless `budget` gives it a time per move.
    pub clock: Option<GameClock>,
    /// Standard output is a terminal: the clock line above the prompt counts down live.
    pub live_clock: bool,
    /// How a loaded game ended although its position goes on (a resignation, a flag fall,
    /// an agreed result: [`crate::record::recorded_ending`]): it starts over, `undo` takes
    /// the resignation back.
    pub ended: Option<Ending>,
}

/// Time the front end keeps in reserve on the engine's clock for its own work (printing,
/// the board), so that the engine's move lands before its flag falls.
const CLOCK_OVERHEAD: Duration = Duration::from_millis(30);

/// Where the prompt's lines come from.
pub trait LineSource {
    /// The next line's bytes (without the line end), waiting at most until `deadline`.
    ///
    /// # Errors
    /// The input's I/O errors.
    fn next_line(&mut self, deadline: Option<Instant>) -> io::Result<Next>;
}

/// What a [`LineSource`] gave.
#[derive(Debug)]
pub enum Next {
    /// A line's bytes.
    Line(Vec<u8>),
    /// The end of the input.
    End,
    /// The deadline passed first.
    Timeout,
}

/// Any `BufRead` as a line source: lines are there at once, so the deadline never passes
/// while waiting (in-memory scripts, tests).
impl<T: BufRead + ?Sized> LineSource for T {
    fn next_line(&mut self, _deadline: Option<Instant>) -> io::Result<Next> {
        let mut bytes = Vec::new();
        if self.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(Next::End);
        }
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        Ok(Next::Line(bytes))
    }
}

/// Standard input read line by line on its own thread, so that waiting for a line can end at
/// a deadline (a clock that runs out while a person thinks).
pub struct StdinLines {
    lines: Receiver<io::Result<Vec<u8>>>,
}

impl StdinLines {
    /// Starts the reading thread; it ends at the end of the input or with the program.
    #[must_use]
    pub fn spawn() -> Self {
        let (send, lines) = channel();
        std::thread::spawn(move || {
            let stdin = io::stdin();
            let mut input = stdin.lock();
            loop {
                let mut bytes = Vec::new();
                let read = input.read_until(b'\n', &mut bytes);
                let end = matches!(read, Ok(0) | Err(_));
                let item = read.map(|_| bytes);
                if send.send(item).is_err() || end {
                    return;
                }
            }
        });
        StdinLines { lines }
    }
}

impl LineSource for StdinLines {
    fn next_line(&mut self, deadline: Option<Instant>) -> io::Result<Next> {
        let received = match deadline {
            None => self
                .lines
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
            Some(d) => self
                .lines
                .recv_timeout(d.saturating_duration_since(Instant::now())),
        };
        match received {
            Ok(Ok(mut bytes)) if !bytes.is_empty() => {
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                }
                Ok(Next::Line(bytes))
            }
            Ok(Ok(_)) | Err(RecvTimeoutError::Disconnected) => Ok(Next::End),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => Ok(Next::Timeout),
        }
    }
}

/// `text` as the style shows it: unchanged in Unicode; under `--ascii` without its words
/// that hold non-ASCII characters (a Chinese move note `(H8+7 马8进7)` becomes `(H8+7)`): each
/// is dropped with the space before it, keeping only its closing punctuation.
fn styled(text: &str, style: &Style) -> String {
    if style.unicode || text.is_ascii() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split(' ').enumerate() {
        if word.is_ascii() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(word);
        } else {
            let keep = word.len()
                - word
                    .bytes()
                    .rev()
                    .take_while(|b| b.is_ascii_punctuation())
                    .count();
            out.push_str(&word[keep..]);
        }
    }
    out
}

/// The prompt's `help` for `game`: its own move notation, then the commands.
fn help(game: &dyn Game) -> String {
    format!("Commands:\n  <move>      {}\n{COMMANDS}", game.move_help())
}

/// The commands every game's prompt takes.
const COMMANDS: &str =
    "  undo        take back the last full turn (yours and the engine's reply; the clocks
              keep their time)
  hint        ask the engine for a move
  moves       list the legal moves
  history     the moves played so far, numbered
  review      the engine's evaluation after every turn, a graph of it, and the turns
              that lost most with the better move
  flip        turn the board round (xiangqi)
  new         start a new game with the same players and settings
  resign      give up the game
  save FILE   write the game record to FILE (qi play --load FILE continues it; ~ is your
              home folder; an existing FILE is kept: save! FILE overwrites it)
  help        show this list
  quit        leave
Ctrl-C while the engine thinks makes it move now; pressed again, or at the prompt, it asks
whether to save the game before leaving.";

/// Runs a game to its end (or `quit`, or the end of the input).
///
/// # Errors
/// Only I/O errors of the streams.
pub fn run(
    game: &mut dyn Game,
    config: &PlayConfig,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<()> {
    // Ctrl-C stops the engine's search (see `install_interrupt`).
    let stop: &AtomicBool = &INTERRUPT_STOP;
    // `flip` turns the board round: the loop's own copy of the settings.
    let mut own = config.clone();
    let config = &mut own;
    // A resignation or a flag fall: the game ends although the position does not.
    let mut decided: Option<Ending> = config.ended.clone();
    let mut announced = false;
    let mut clock = config.clock.clone();
    let humans = config.players.contains(&Player::Human);
    show_board(game, config, out)?;
    loop {
        let ending = decided.clone().or_else(|| game.ending());
        if let Some(end) = &ending {
            if let Some(c) = clock.as_mut() {
                c.pause(Instant::now());
            }
            if !announced {
                announce(game, end, out)?;
                show_clock(game, clock.as_ref(), config, out)?;
                announced = true;
                if !humans {
                    writeln!(out)?;
                    write!(out, "{}", record(game, config, clock.as_ref(), Some(end)))?;
                    return Ok(());
                }
                writeln!(
                    out,
                    "Type 'save FILE' to keep the game record, {}'new' for another game, or \
                     'quit'.",
                    if end.reason.ends_with(OUT_OF_TIME) {
                        ""
                    } else {
                        "'undo' to take back, "
                    }
                )?;
            }
            let line = match prompt(input, out, config, "game over> ", None)? {
                Prompted::Line(line) => line,
                Prompted::Interrupt => {
                    let text = record(game, config, clock.as_ref(), ending.as_ref());
                    if leave_or_save(&text, input, out, config)? {
                        return Ok(());
                    }
                    continue;
                }
                Prompted::End | Prompted::Timeout => return Ok(()),
            };
            match command(&line) {
                Command::Quit => return Ok(()),
                Command::New => {
                    restart(game, config, &mut clock);
                    decided = None;
                    announced = false;
                    show_board(game, config, out)?;
                }
                Command::History => writeln!(out, "{}", history(game))?,
                Command::Review => review(game, config, stop, out)?,
                Command::Save(file, force) => {
                    let text = record(game, config, clock.as_ref(), ending.as_ref());
                    save(&text, &file, force, out)?;
                }
                Command::Undo => {
                    if ending
                        .as_ref()
                        .is_some_and(|e| e.reason.ends_with(OUT_OF_TIME))
                    {
                        writeln!(out, "The game was lost on time: it cannot be taken back.")?;
                        continue;
                    }
                    if decided.take().is_none() && !undo(game, config, clock.as_mut(), out)? {
                        continue;
                    }
                    announced = false;
                    show_board(game, config, out)?;
                }
                Command::Help => writeln!(out, "{}", help(game))?,
                Command::Empty => {}
                Command::Extra(word) => writeln!(out, "{}", extra_words(&word))?,
                _ => writeln!(
                    out,
                    "The game is over ({}): save FILE, {}new or quit.",
                    end.reason,
                    if end.reason.ends_with(OUT_OF_TIME) {
                        ""
                    } else {
                        "undo, "
                    }
                )?,
            }
            continue;
        }
        if let Some(ask) = game.opening_ask() {
            // The opening rule's step, taken by the player it asks (clocks stopped).
            if !opening_step(game, config, &ask, input, out, stop)? {
                return Ok(());
            }
            continue;
        }
        let side = game.side_to_move();
        let name = game.side_name(side);
        if let Some(c) = clock.as_mut() {
            c.start(side, Instant::now());
        }
        if player_of(game, config, side) == Player::Engine {
            let budget = turn_budget(config, clock.as_ref(), side);
            show_clock(game, clock.as_ref(), config, out)?;
            // A Ctrl-C since the last move (or during the search) makes it move now.
            let thought = think(game, config, &budget, stop, err, true)?;
            let presses = INTERRUPTS.swap(0, Ordering::SeqCst);
            INTERRUPT_STOP.store(false, Ordering::SeqCst);
            if presses >= 2 {
                let text = record(game, config, clock.as_ref(), None);
                if leave_or_save(&text, input, out, config)? {
                    return Ok(());
                }
            }
            let now = Instant::now();
            if let Some(c) = clock.as_mut() {
                if c.flagged(now) == Some(side) {
                    // The move came after the flag fell: it does not count.
                    if thought.bestmove.is_some() {
                        game.undo_turn();
                    }
                    decided = Some(flag_ending(game, side));
                    continue;
                }
                c.press(game.turn_sides().len().saturating_sub(1), now);
            }
            match &thought.bestmove {
                Some(mv) => {
                    let note = thought
                        .note
                        .as_ref()
                        .map_or(String::new(), |n| format!(" ({n})"));
                    let line = format!(
                        "{name} (qi) plays {mv}{note}   [{}, depth {}, {} nodes, {:.2} s]",
                        thought.score_text(),
                        thought.depth,
                        thought.nodes,
                        thought.time_ms as f64 / 1000.0
                    );
                    writeln!(out, "{}", styled(&line, &config.style))?;
                    show_board(game, config, out)?;
                }
                None => {
                    // No move although the game is not over: nothing sensible is left.
                    writeln!(out, "{name} (qi) has no move.")?;
                    return Ok(());
                }
            }
            continue;
        }
        let line = match prompt(
            input,
            out,
            config,
            &format!("{name} to move> "),
            clock.as_ref().map(|c| (&*game, c)),
        )? {
            Prompted::Line(line) => line,
            Prompted::End => return Ok(()),
            Prompted::Timeout => {
                writeln!(out)?;
                decided = Some(flag_ending(game, side));
                continue;
            }
            Prompted::Interrupt => {
                let text = record(game, config, clock.as_ref(), None);
                if leave_or_save(&text, input, out, config)? {
                    return Ok(());
                }
                continue;
            }
        };
        // A line that arrived after the flag fell does not count.
        if let Some(c) = &clock
            && c.flagged(Instant::now()) == Some(side)
        {
            decided = Some(flag_ending(game, side));
            continue;
        }
        match command(&line) {
            Command::Empty => {}
            Command::Quit => return Ok(()),
            Command::Help => writeln!(out, "{}", styled(&help(game), &config.style))?,
            Command::History => writeln!(out, "{}", history(game))?,
            Command::Review => review(game, config, stop, out)?,
            Command::Flip => {
                if game.board().flippable {
                    config.style.flipped = !config.style.flipped;
                    show_board(game, config, out)?;
                } else {
                    writeln!(
                        out,
                        "{}'s board looks the same from both sides: nothing to flip",
                        game.name()
                    )?;
                }
            }
            Command::New => {
                restart(game, config, &mut clock);
                show_board(game, config, out)?;
            }
            Command::Moves => {
                let moves = game.legal_moves();
                let plural = if moves.len() == 1 { "" } else { "s" };
                writeln!(out, "{} legal move{plural}:", moves.len())?;
                writeln!(out, "{}", wrap(&moves, 78))?;
            }
            Command::Hint => {
                // A hint thinks on the asking side's own clock, at full strength.
                let budget = Budget {
                    level: None,
                    ..turn_budget(config, clock.as_ref(), side)
                };
                let thought = think(game, config, &budget, stop, err, false)?;
                INTERRUPTS.store(0, Ordering::SeqCst);
                INTERRUPT_STOP.store(false, Ordering::SeqCst);
                if let Some(mv) = &thought.bestmove {
                    let note = thought
                        .note
                        .as_ref()
                        .map_or(String::new(), |n| format!("{n}, "));
                    let line = format!("hint: {mv} ({note}{})", thought.score_text());
                    writeln!(out, "{}", styled(&line, &config.style))?;
                }
            }
            Command::Undo => {
                if undo(game, config, clock.as_mut(), out)? {
                    show_board(game, config, out)?;
                }
            }
            Command::Resign => {
                decided = Some(Ending::resignation(side, name));
            }
            Command::Save(file, force) => {
                let text = record(game, config, clock.as_ref(), None);
                save(&text, &file, force, out)?;
            }
            Command::BadSave => writeln!(out, "save needs a file name: save FILE (or save! FILE)")?,
            Command::Extra(word) => writeln!(out, "{}", extra_words(&word))?,
            Command::Move(text) if game.foul(&text).is_some() => {
                // A move the rules would take and lose on (renju's forbidden points): refused,
                // with the rule, as the page refuses it.
                let why = game.foul(&text).unwrap_or_default();
                writeln!(out, "{}", escape_controls(&why))?;
            }
            Command::Move(text) => match game.play_text(&text) {
                Ok(mv) => {
                    if let Some(c) = clock.as_mut()
                        && game.side_to_move() != side
                    {
                        c.press(game.turn_sides().len().saturating_sub(1), Instant::now());
                    }
                    writeln!(
                        out,
                        "{}",
                        styled(&format!("{name} plays {mv}"), &config.style)
                    )?;
                    show_board(game, config, out)?;
                }
                Err(e) => writeln!(
                    out,
                    "{} (type 'moves' for the legal moves, 'help' for commands)",
                    escape_controls(&e.to_string())
                )?,
            },
        }
    }
}

/// The moves played so far, numbered by full rounds from the first side's turn as records
/// number them: `1. h8 i9  2. h9 ...` (wrapped), or a word when there are none.
fn history(game: &dyn Game) -> String {
    let turns = game.turn_texts();
    if turns.is_empty() {
        return "No moves yet.".to_string();
    }
    let mut words = Vec::new();
    let mut number = 1;
    for (i, (side, text)) in turns.iter().enumerate() {
        match side {
            Side::First => words.push(format!("{number}. {text}")),
            Side::Second if i == 0 => words.push(format!("{number}... {text}")),
            Side::Second => words.push(text.clone()),
        }
        if *side == Side::Second {
            number += 1;
        }
    }
    wrap(&words, 78)
}

/// Time a review spends on each position when the engine has no time per move (a game
/// clock): a whole game of 60 turns in about 12 s.
const REVIEW_TIME: Duration = Duration::from_millis(200);

/// The budget of a review's search of each position: the engine's depth or node limit when it
/// has one (the same review every time), else a tenth of its time per move (20 ms to 1 s), or
/// [`REVIEW_TIME`] on a clock. Always at full strength.
fn review_budget(config: &PlayConfig) -> Budget {
    let b = &config.budget;
    if b.depth.is_some() || b.nodes.is_some() {
        return Budget {
            depth: b.depth,
            nodes: b.nodes,
            ..Budget::default()
        };
    }
    let time = b.time.map_or(REVIEW_TIME, |t| {
        (t / 10).clamp(Duration::from_millis(20), Duration::from_secs(1))
    });
    Budget {
        time: Some(time),
        ..Budget::default()
    }
}

/// `review`: every turn with the evaluation after it (the first side's view), what it lost
/// and the engine's better turn, the turns that lost most marked `??`, and the evaluation as
/// a one-line graph. Ctrl-C cuts the review short.
fn review(
    game: &mut dyn Game,
    config: &PlayConfig,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if game.turn_sides().is_empty() {
        return writeln!(out, "No moves yet: nothing to review.");
    }
    writeln!(out, "Reviewing {} turns...", game.turn_sides().len())?;
    let turns = game.review(&review_budget(config), stop);
    INTERRUPTS.store(0, Ordering::SeqCst);
    INTERRUPT_STOP.store(false, Ordering::SeqCst);
    let sides = [game.side_name(Side::First), game.side_name(Side::Second)];
    let worst = game_frame::worst_turns(&turns);
    let mut number = 1;
    for (i, t) in turns.iter().enumerate() {
        let label = match t.side {
            Side::First => format!("{number}."),
            Side::Second => format!("{number}..."),
        };
        if t.side == Side::Second {
            number += 1;
        }
        let mark = if worst.contains(&i) { "??" } else { "  " };
        let mut line = format!(
            "{mark} {label:<6} {:<10} {:<16}",
            t.played,
            t.score_text(sides)
        );
        if let Some(best) = &t.best
            && t.lost >= 50
        {
            line.push_str(&format!(
                "lost {:.2}, better {best}",
                f64::from(t.lost.min(game_frame::REVIEW_MATE)) / 100.0
            ));
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    writeln!(
        out,
        "Graph (high: {} ahead, low: {} ahead): {}",
        sides[0],
        sides[1],
        evaluation_graph(&turns, !config.style.unicode)
    )?;
    if worst.is_empty() {
        writeln!(
            out,
            "No turn lost half a unit or more against a better one."
        )?;
    } else {
        let named: Vec<String> = worst
            .iter()
            .map(|&i| {
                let t = &turns[i];
                format!("{} (better {})", t.played, t.best.as_deref().unwrap_or("?"))
            })
            .collect();
        writeln!(out, "Turns that lost most: {}", named.join(", "))?;
    }
    Ok(())
}

/// The evaluation after each turn as one line of bar characters, one a turn: high for the
/// first side, low for the second (`▁` to `█`, or `_.-=#` with `ascii`), clipped at five
/// units either way; a forced result is the top or the bottom.
fn evaluation_graph(turns: &[ReviewTurn], ascii: bool) -> String {
    let bars: Vec<char> = if ascii {
        "_.-=#".chars().collect()
    } else {
        "▁▂▃▄▅▆▇█".chars().collect()
    };
    let top = bars.len() - 1;
    turns
        .iter()
        .map(|t| {
            let cp = match (t.score_cp, t.mate) {
                (_, Some(m)) if m > 0 => 500,
                (_, Some(_)) => -500,
                (Some(cp), None) => cp.clamp(-500, 500),
                (None, None) => 0,
            };
            // -500..=500 onto 0..=top.
            let i = (i64::from(cp + 500) * top as i64 + 500) / 1000;
            bars[usize::try_from(i).unwrap_or(0).min(top)]
        })
        .collect()
}

/// `new`: the game from its start again, the clocks at their base.
fn restart(game: &mut dyn Game, config: &PlayConfig, clock: &mut Option<GameClock>) {
    game.restart();
    *clock = config
        .clock
        .as_ref()
        .map(|c| GameClock::new(c.time_control()));
}

/// After Ctrl-C: asks whether to save the game (`text`, its record) before leaving. A file
/// name saves it and leaves, `no` leaves without saving, an empty line (or anything else
/// that is not a file that saves) goes back to the game. Returns whether to leave.
fn leave_or_save(
    text: &str,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    config: &PlayConfig,
) -> io::Result<bool> {
    writeln!(
        out,
        "Ctrl-C: leave the game? Type a file name to save it and leave, 'no' to leave without \
         saving, or press Enter to go back to the game."
    )?;
    let line = match prompt(input, out, config, "save as> ", None)? {
        Prompted::Line(line) => line,
        // A second Ctrl-C or the end of the input: leave.
        Prompted::Interrupt | Prompted::End | Prompted::Timeout => return Ok(true),
    };
    match line.as_str() {
        "" => Ok(false),
        "no" | "n" => Ok(true),
        file => {
            let before = std::path::Path::new(&expand_home(file)).exists();
            save(text, file, false, out)?;
            // Saved (a new file): leave; refused (it exists, or cannot be written): stay.
            Ok(!before && std::path::Path::new(&expand_home(file)).exists())
        }
    }
}

/// One step of the opening rule ([`Game::opening_ask`]): the engine answers it, or the
/// person asked types the answer (or `help`, `quit`). Returns false when the person quits
/// or the input ends.
fn opening_step(
    game: &mut dyn Game,
    config: &PlayConfig,
    ask: &AskView,
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    stop: &AtomicBool,
) -> io::Result<bool> {
    let who = config.players[ask.role.index()];
    // The side the player asked holds now, for people: "Black (qi)".
    let holding = if Role::holding(Side::First, game.swapped()) == ask.role {
        Side::First
    } else {
        Side::Second
    };
    let label = format!(
        "{} ({})",
        game.side_name(holding),
        match who {
            Player::Human => "you",
            Player::Engine => "qi",
        }
    );
    if who == Player::Engine {
        let said = game.opening_engine(&config.budget, stop);
        INTERRUPTS.store(0, Ordering::SeqCst);
        INTERRUPT_STOP.store(false, Ordering::SeqCst);
        let line = format!("{label}, {}: {said}", ask.rule);
        writeln!(out, "{}", styled(&line, &config.style))?;
        if matches!(ask.kind, "place" | "pick") {
            show_board(game, config, out)?;
        }
        return Ok(true);
    }
    writeln!(out, "{} opening: {label}, {}.", ask.rule, ask.prompt)?;
    let line = match prompt(input, out, config, &format!("{label}> "), None)? {
        Prompted::Line(line) => line,
        Prompted::Interrupt => {
            let text = game.record(player_names(game, config), None);
            return Ok(!leave_or_save(&text, input, out, config)?);
        }
        Prompted::End | Prompted::Timeout => return Ok(false),
    };
    // The prompt's commands that make sense before the first free move; the rest wait.
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    match command(&line) {
        Command::Empty => {}
        Command::Quit => return Ok(false),
        Command::Help => {
            writeln!(out, "{}", styled(&help(game), &config.style))?;
            writeln!(out, "Now, for the {} opening:", ask.rule)?;
            for c in &ask.options {
                writeln!(out, "  {:<11} {}", c.key, c.text)?;
            }
        }
        Command::History => writeln!(out, "{}", history(game))?,
        Command::Save(file, force) => {
            let text = game.record(player_names(game, config), None);
            save(&text, &file, force, out)?;
        }
        Command::BadSave => writeln!(out, "save needs a file name: save FILE")?,
        Command::Extra(word) => writeln!(out, "{}", extra_words(&word))?,
        Command::Hint
        | Command::Undo
        | Command::Moves
        | Command::Review
        | Command::Flip
        | Command::New
        | Command::Resign => writeln!(
            out,
            "'{word}' waits until the {} opening is over; now: {}.",
            ask.rule, ask.prompt
        )?,
        Command::Move(_) => match game.opening_answer(&line) {
            Ok(done) => {
                writeln!(
                    out,
                    "{}",
                    styled(&format!("{label}: {done}"), &config.style)
                )?;
                if matches!(ask.kind, "place" | "pick") {
                    show_board(game, config, out)?;
                }
            }
            Err(e) => writeln!(out, "{}", escape_controls(&e))?,
        },
    }
    Ok(true)
}

/// How a flag fall's reason ends ([`Ending::time_forfeit`]).
const OUT_OF_TIME: &str = "ran out of time";

/// `side`'s flag fell: the ending the game's rules give it.
fn flag_ending(game: &dyn Game, side: Side) -> Ending {
    Ending::time_forfeit(game.flag_fall(side), game.side_name(side))
}

/// The engine's budget for `side`'s turn (or a hint for it): the configured limits, on
/// `side`'s clock when the game has one and no time per move was given.
fn turn_budget(config: &PlayConfig, clock: Option<&GameClock>, side: Side) -> Budget {
    match clock {
        Some(c) if config.budget.time.is_none() => {
            config
                .budget
                .with_clock(c.engine_clock(side, Instant::now(), CLOCK_OVERHEAD))
        }
        _ => config.budget.clone(),
    }
}

/// Writes the clock line, when the game has a clock.
fn show_clock(
    game: &dyn Game,
    clock: Option<&GameClock>,
    config: &PlayConfig,
    out: &mut dyn Write,
) -> io::Result<()> {
    match clock {
        Some(c) => writeln!(out, "{}", clock_line(game, c, Instant::now(), config)),
        None => Ok(()),
    }
}

/// Both clocks for people: `Clock (5m+3s): Black 4:58 ◀   White 5:00` (the running one
/// marked). On a live terminal the line fits its width, so that redrawing it in place
/// rewrites one row: without the time control when narrow, cut at the edge when narrower.
fn clock_line(game: &dyn Game, clock: &GameClock, now: Instant, config: &PlayConfig) -> String {
    let mark = if config.style.unicode { "◀" } else { "*" };
    let side_text = |side: Side| {
        let running = if clock.running() == Some(side) {
            format!(" {mark}")
        } else {
            String::new()
        };
        format!(
            "{} {}{running}",
            game.side_name(side),
            clock_text(clock.remaining(side, now))
        )
    };
    let both = format!("{}   {}", side_text(Side::First), side_text(Side::Second));
    let full = format!("Clock ({}): {both}", clock.time_control());
    let width = config
        .live_clock
        .then(|| terminal_size::terminal_size().map(|(w, _)| usize::from(w.0)))
        .flatten();
    fit_width(full, both, width)
}

/// `full` when it fits in `width - 1` columns (the last column left free: a full row wraps
/// on some terminals), else `short`, cut to fit when it does not either; `full` without a
/// width.
fn fit_width(full: String, short: String, width: Option<usize>) -> String {
    let Some(width) = width else { return full };
    let room = width.saturating_sub(1);
    if full.chars().count() <= room {
        full
    } else {
        short.chars().take(room).collect()
    }
}

/// The game record, with the time control and each turn's time when played on a clock.
fn record(
    game: &dyn Game,
    config: &PlayConfig,
    clock: Option<&GameClock>,
    ending: Option<&Ending>,
) -> String {
    let players = player_names(game, config);
    match clock {
        Some(c) => {
            let extra = [("TimeControl", c.time_control().tag())];
            let times = c.turn_times(game.turn_sides().len());
            game.record_with(players, ending, "qi", &extra, &times)
        }
        None => game.record(players, ending),
    }
}

/// The players by side, first side first (`config.players` is by role: the player who
/// began first; an opening rule's swap gives each the other side).
fn player_names(game: &dyn Game, config: &PlayConfig) -> [&'static str; 2] {
    [Side::First, Side::Second].map(|s| player_of(game, config, s).name())
}

/// Who plays `side` now.
fn player_of(game: &dyn Game, config: &PlayConfig, side: Side) -> Player {
    config.players[Role::holding(side, game.swapped()).index()]
}

fn announce(game: &dyn Game, end: &Ending, out: &mut dyn Write) -> io::Result<()> {
    let text = match end.outcome {
        Outcome::Win(side) => format!(
            "Game over: {}, {}.",
            win_words(game, side, &end.reason),
            end.result_tag()
        ),
        Outcome::Draw => format!("Game over: draw ({}), 1/2-1/2.", end.reason),
    };
    writeln!(out, "{text}")
}

/// "White wins (five in a row)", or for a forbidden move "White wins: Black played a
/// forbidden move (double three)" (no nested parentheses).
pub fn win_words(game: &dyn Game, winner: game_core::Side, reason: &str) -> String {
    if reason.starts_with("forbidden move") {
        format!(
            "{} wins: {} played a {reason}",
            game.side_name(winner),
            game.side_name(winner.opponent())
        )
    } else {
        format!("{} wins ({reason})", game.side_name(winner))
    }
}

/// Takes back turns until a human is to move again, at least one human turn undone.
/// Returns whether anything was undone.
fn undo(
    game: &mut dyn Game,
    config: &PlayConfig,
    clock: Option<&mut GameClock>,
    out: &mut dyn Write,
) -> io::Result<bool> {
    let sides = game.turn_sides();
    let Some(last_human) = sides
        .iter()
        .rposition(|&s| player_of(game, config, s) == Player::Human)
    else {
        writeln!(out, "Nothing to undo.")?;
        return Ok(false);
    };
    let count = sides.len() - last_human;
    let mut taken = Vec::new();
    for _ in 0..count {
        if let Some(side) = game.undo_turn() {
            taken.push(side);
        }
    }
    if taken.is_empty() {
        // Game::undo_turn keeps an opening rule's turns.
        writeln!(
            out,
            "Nothing to undo: the opening rule's stones ({}) cannot be taken back.",
            game.opening_name().unwrap_or("opening")
        )?;
        return Ok(false);
    }
    if let Some(c) = clock {
        c.take_back(game.turn_sides().len());
    }
    // Say what was taken back, in the order it was played.
    let one_human = config
        .players
        .iter()
        .filter(|p| **p == Player::Human)
        .count()
        == 1;
    let words: Vec<String> = taken
        .iter()
        .rev()
        .map(|&side| match player_of(game, config, side) {
            Player::Human if one_human => "your last move".to_string(),
            Player::Human => format!("{}'s last move", game.side_name(side)),
            Player::Engine => "the engine's reply".to_string(),
        })
        .collect();
    writeln!(out, "Took back {}.", words.join(" and "))?;
    Ok(true)
}

/// The answer to a command word followed by more words (`undo undo`): one command a line.
fn extra_words(word: &str) -> String {
    format!("'{word}' takes nothing after it: one command or move a line (type 'help')")
}

/// `~` or `~/...` at the start of `file` read as the home folder (`$HOME`), if it is set.
fn expand_home(file: &str) -> std::path::PathBuf {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty());
    match (file.strip_prefix('~'), home) {
        (Some(""), Some(home)) => home.into(),
        (Some(rest), Some(home)) if rest.starts_with('/') => {
            std::path::Path::new(&home).join(&rest[1..])
        }
        _ => file.into(),
    }
}

/// Writes the record `text` to `file` (`~` expanded); an existing file is kept unless `force`.
fn save(text: &str, file: &str, force: bool, out: &mut dyn Write) -> io::Result<()> {
    let path = expand_home(file);
    let shown = escape_controls(file);
    if path.is_dir() {
        return writeln!(
            out,
            "{shown} is a folder: save to a file name, such as {}/game.txt",
            shown.trim_end_matches('/')
        );
    }
    if !force && path.exists() {
        return writeln!(
            out,
            "{shown} exists and was kept: save! {shown} overwrites it, or save to another name"
        );
    }
    match std::fs::write(&path, text) {
        Ok(()) => writeln!(out, "Saved the game record to {}.", path.display()),
        Err(e) => writeln!(out, "cannot write {}: {e}", escape_controls(file)),
    }
}

fn show_board(game: &dyn Game, config: &PlayConfig, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out)?;
    write!(out, "{}", game.render(&config.style))?;
    writeln!(out)
}

fn think(
    game: &mut dyn Game,
    config: &PlayConfig,
    budget: &Budget,
    stop: &AtomicBool,
    err: &mut dyn Write,
    play: bool,
) -> io::Result<Thought> {
    let mut last_shown: Option<Instant> = None;
    let mut shown_any = false;
    let in_place = config.live_in_place;
    let mut io_error = None;
    let live = config.live_lines;
    let mut info = |i: &Info| {
        if !live {
            return;
        }
        let now = Instant::now();
        if last_shown.is_some_and(|t| now.duration_since(t).as_millis() < 250) {
            return;
        }
        last_shown = Some(now);
        let line = live_line(i);
        let result = if in_place {
            write!(err, "\r\x1b[K{line}").and_then(|()| err.flush())
        } else {
            writeln!(err, "{line}")
        };
        shown_any = true;
        if let Err(e) = result {
            io_error.get_or_insert(e);
        }
    };
    let thought = if play {
        game.engine_turn(budget, stop, &mut info)
    } else {
        game.think(budget, stop, &mut info)
    };
    if let Some(e) = io_error {
        return Err(e);
    }
    if in_place && shown_any {
        write!(err, "\r\x1b[K")?;
        err.flush()?;
    }
    Ok(thought)
}

/// The live search line: `info depth 6 score +35 nodes 12345 nps 100000 time 120 pv h8 i9`.
#[must_use]
pub fn live_line(i: &Info) -> String {
    format!(
        "info depth {} score {} nodes {} nps {} time {} pv {}",
        i.depth,
        i.score,
        i.nodes,
        i.nps,
        i.time_ms,
        i.pv.join(" ")
    )
}

/// A line typed at the prompt as text: UTF-8, or else GB18030 (which includes GBK and
/// GB2312: a Chinese terminal typing 炮二平五 sends it so).
///
/// # Errors
/// Where the bytes stop being UTF-8, when they are no GB18030 text either.
fn decode_line(bytes: Vec<u8>) -> Result<String, String> {
    match String::from_utf8(bytes) {
        Ok(line) => Ok(line),
        Err(e) => {
            let bytes = e.as_bytes();
            if let Some(text) =
                encoding_rs::GB18030.decode_without_bom_handling_and_without_replacement(bytes)
            {
                return Ok(text.into_owned());
            }
            let at = e.utf8_error().valid_up_to();
            Err(format!(
                "the line is neither UTF-8 nor GB18030 text (byte {:#04x} at byte {}): type it again",
                bytes[at],
                at + 1
            ))
        }
    }
}

/// What the prompt got.
enum Prompted {
    /// A line, trimmed.
    Line(String),
    /// The end of the input.
    End,
    /// The side to move's clock ran out first.
    Timeout,
    /// Ctrl-C was pressed ([`install_interrupt`]).
    Interrupt,
}

/// Prints `text` and reads a line. With a clock (the game and its clock) the clock line comes
/// first, the wait ends when the running clock runs out, and on a terminal the clock line
/// counts down in place every tenth of a second under ten seconds, else every second.
fn prompt(
    input: &mut dyn LineSource,
    out: &mut dyn Write,
    config: &PlayConfig,
    text: &str,
    clock: Option<(&dyn Game, &GameClock)>,
) -> io::Result<Prompted> {
    let line = loop {
        if let Some((game, c)) = clock {
            writeln!(out, "{}", clock_line(game, c, Instant::now(), config))?;
        }
        write!(out, "{}", paint(config.style.color, "1", text))?;
        out.flush()?;
        let flag = clock.and_then(|(_, c)| c.flag_time());
        let bytes = loop {
            // On a terminal: wake up to redraw the clock line above the prompt.
            let tick = match (clock, config.live_clock) {
                (Some((_, c)), true) => {
                    let now = Instant::now();
                    let left = c.running().map_or(Duration::MAX, |s| c.remaining(s, now));
                    let step = if left < Duration::from_secs(10) {
                        Duration::from_millis(100)
                    } else {
                        Duration::from_secs(1)
                    };
                    Some(now + step)
                }
                _ => None,
            };
            // With a Ctrl-C handler: wake up now and then to see a press.
            let tick = match (tick, interrupt_handled()) {
                (t, true) => Some(
                    t.unwrap_or(Instant::now() + INTERRUPT_POLL)
                        .min(Instant::now() + INTERRUPT_POLL),
                ),
                (t, false) => t,
            };
            let wake = match (tick, flag) {
                (Some(t), Some(f)) => Some(t.min(f)),
                (t, f) => t.or(f),
            };
            match input.next_line(wake)? {
                Next::Line(bytes) => break bytes,
                Next::End => {
                    writeln!(out)?;
                    return Ok(Prompted::End);
                }
                Next::Timeout if flag.is_some_and(|f| Instant::now() >= f) => {
                    return Ok(Prompted::Timeout);
                }
                Next::Timeout if INTERRUPTS.swap(0, Ordering::SeqCst) > 0 => {
                    // The press is the prompt's: no search is to stop for it.
                    INTERRUPT_STOP.store(false, Ordering::SeqCst);
                    writeln!(out)?;
                    return Ok(Prompted::Interrupt);
                }
                Next::Timeout => {
                    if let Some((game, c)) = clock {
                        // Save the cursor, rewrite the line above, restore the cursor: what
                        // the person has typed so far stays where it is.
                        let line = clock_line(game, c, Instant::now(), config);
                        write!(out, "\x1b7\x1b[1A\r\x1b[2K{line}\x1b8")?;
                        out.flush()?;
                    }
                }
            }
        };
        match decode_line(bytes) {
            Ok(line) => break line.trim().to_string(),
            // A line in no encoding we read is refused; the game goes on.
            Err(why) => writeln!(out, "{why}")?,
        }
    };
    if config.echo {
        writeln!(out, "{}", escape_controls(&line))?;
    }
    Ok(Prompted::Line(line))
}

enum Command {
    Empty,
    Quit,
    Help,
    Moves,
    History,
    Review,
    Flip,
    New,
    Hint,
    Undo,
    Resign,
    /// `save FILE` (false) or `save! FILE` (true: overwrite).
    Save(String, bool),
    BadSave,
    /// A command word followed by more words (`undo undo`).
    Extra(String),
    Move(String),
}

fn command(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("").to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    match (first.as_str(), rest.len()) {
        ("", _) => Command::Empty,
        ("quit" | "exit" | "q", 0) => Command::Quit,
        ("help" | "?", 0) => Command::Help,
        ("moves", 0) => Command::Moves,
        ("history", 0) => Command::History,
        ("review", 0) => Command::Review,
        ("flip", 0) => Command::Flip,
        ("new", 0) => Command::New,
        ("hint", 0) => Command::Hint,
        ("undo", 0) => Command::Undo,
        ("resign", 0) => Command::Resign,
        ("save" | "save!", 0) => Command::BadSave,
        ("save", _) => Command::Save(rest.join(" "), false),
        ("save!", _) => Command::Save(rest.join(" "), true),
        (
            "quit" | "exit" | "q" | "help" | "moves" | "history" | "review" | "flip" | "new"
            | "hint" | "undo" | "resign",
            _,
        ) => Command::Extra(first),
        _ => Command::Move(line.to_string()),
    }
}

/// Words joined with spaces, wrapped at `width` columns.
#[must_use]
pub fn wrap(words: &[String], width: usize) -> String {
    let mut text = String::new();
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > width {
            text.push_str(&line);
            text.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    text.push_str(&line);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_frame::{EngineConfig, Session};

    #[test]
    fn the_clock_line_fits_a_narrow_terminal() {
        let full = || "Clock (5m+3s): Black 4:58 ◀   White 5:00".to_string();
        let short = || "Black 4:58 ◀   White 5:00".to_string();
        assert_eq!(fit_width(full(), short(), None), full());
        assert_eq!(fit_width(full(), short(), Some(80)), full());
        assert_eq!(fit_width(full(), short(), Some(40)), short());
        assert_eq!(fit_width(full(), short(), Some(13)), "Black 4:58 ◀");
    }

    #[test]
    fn ascii_style_drops_non_ascii_words() {
        let ascii = Style {
            unicode: false,
            color: false,
            flipped: false,
        };
        let unicode = Style {
            unicode: true,
            ..ascii
        };
        let line = "Red plays h2e2 (C2.5 炮二平五)";
        assert_eq!(styled(line, &ascii), "Red plays h2e2 (C2.5)");
        assert_eq!(
            styled("Black plays h9g7 (H8+7 马8进7)", &ascii),
            "Black plays h9g7 (H8+7)"
        );
        assert_eq!(styled(line, &unicode), line);
        assert_eq!(
            styled("or the Chinese notation 炮二平五", &ascii),
            "or the Chinese notation"
        );
        assert!(styled("a × b ✓ 車", &ascii).is_ascii());
    }
    use crate::testgame::TicTacToe;
    use game_core::Side;

    fn run_script(players: [Player; 2], script: &str) -> (String, Box<dyn Game>) {
        let mut game: Box<dyn Game> =
            Box::new(Session::new(TicTacToe::new(), &EngineConfig::small()));
        let config = PlayConfig {
            players,
            budget: Budget {
                depth: Some(9),
                ..Budget::default()
            },
            style: Style {
                unicode: false,
                color: false,
                flipped: false,
            },
            echo: true,
            live_in_place: false,
            live_lines: true,
            clock: None,
            live_clock: false,
            ended: None,
        };
        let mut out = Vec::new();
        let mut err = Vec::new();
        run(
            game.as_mut(),
            &config,
            &mut script.as_bytes(),
            &mut out,
            &mut err,
        )
        .unwrap();
        (String::from_utf8(out).unwrap(), game)
    }

    #[test]
    fn human_vs_human_to_a_win() {
        let (out, game) = run_script([Player::Human; 2], "1\n4\n2\n5\n3\n");
        assert!(
            out.contains("Game over: X wins (three in a row), 1-0."),
            "{out}"
        );
        assert_eq!(game.turn_sides().len(), 5);
    }

    #[test]
    fn bad_moves_reprompt_and_change_nothing() {
        let (out, game) = run_script([Player::Human; 2], "1\n1\n0\nfoo bar\n\nsave\n");
        assert!(
            out.contains("bad square '1': expected a free square 1..9"),
            "{out}"
        );
        assert!(out.contains("bad square '0'"), "{out}");
        assert!(out.contains("bad square 'foo bar'"), "{out}");
        assert!(out.contains("save needs a file name"), "{out}");
        assert_eq!(game.turn_sides(), [Side::First]);
    }

    #[test]
    fn undo_takes_back_the_engine_reply_too() {
        let (out, game) = run_script([Player::Human, Player::Engine], "1\nundo\nundo\n");
        assert!(
            out.contains("Took back your last move and the engine's reply."),
            "{out}"
        );
        assert!(out.contains("Nothing to undo."), "{out}");
        assert!(game.turn_sides().is_empty());
    }

    #[test]
    fn engine_against_itself_draws_and_prints_the_record() {
        let (out, game) = run_script([Player::Engine; 2], "");
        assert!(
            out.contains("Game over: draw (board full), 1/2-1/2."),
            "{out}"
        );
        assert!(out.contains("[Result \"1/2-1/2\"]"), "{out}");
        assert_eq!(game.turn_sides().len(), 9);
    }

    #[test]
    fn resign_and_hint() {
        let (out, _) = run_script([Player::Human, Player::Engine], "hint\nresign\nfoo\nquit\n");
        assert!(out.contains("hint: "), "{out}");
        assert!(
            out.contains("Game over: O wins (X resigned), 0-1."),
            "{out}"
        );
        assert!(out.contains("The game is over (X resigned)"), "{out}");
    }

    /// Random lines (bytes in no encoding, control characters, command words with random
    /// arguments, coordinates) at the prompt of every real game never end the game or the
    /// program: after 2,000 of them `moves` is still answered.
    #[test]
    fn random_lines_at_every_prompt_are_answered_and_the_game_goes_on() {
        const WORDS: &[&str] = &[
            "undo",
            "moves",
            "help",
            "h8",
            "j10",
            "j9l11",
            "h2e2",
            "C2.5",
            "炮二平五",
            "a1",
            "z99",
            "12,7",
            "load",
            "~",
            "-",
            "0",
            "999999999999",
            "\u{7}",
            "é",
            "",
        ];
        // Every registered game.
        let games: Vec<(&str, Box<dyn Game>)> = crate::registry::GAMES
            .iter()
            .map(|g| {
                let game = g
                    .build(&game_frame::Setup::default(), &EngineConfig::small())
                    .expect("the default setup");
                (g.name(), game)
            })
            .collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for (name, mut game) in games {
            let mut script = Vec::new();
            let mut lines = 0;
            while lines < 2_000 {
                let mut line = Vec::new();
                match next() % 3 {
                    0 => {
                        // Raw bytes, newlines excepted.
                        for _ in 0..next() % 12 {
                            let b = (next() % 256) as u8;
                            line.push(if b == b'\n' { b' ' } else { b });
                        }
                    }
                    1 => {
                        line.extend_from_slice(WORDS[next() % WORDS.len()].as_bytes());
                        line.push(b' ');
                        line.extend_from_slice(WORDS[next() % WORDS.len()].as_bytes());
                    }
                    _ => {
                        let letter = b'a' + (next() % 27) as u8;
                        line.extend_from_slice(
                            format!("{}{}", letter as char, next() % 21).as_bytes(),
                        );
                    }
                }
                // Commands that end the session or write files are not what is tested here.
                let text = String::from_utf8_lossy(&line).trim().to_ascii_lowercase();
                let first = text.split_whitespace().next().unwrap_or("");
                if matches!(
                    first,
                    "quit" | "exit" | "q" | "resign" | "save" | "save!" | "hint"
                ) {
                    continue;
                }
                script.extend_from_slice(&line);
                script.push(b'\n');
                lines += 1;
            }
            script.extend_from_slice(b"moves\nquit\n");
            let config = PlayConfig {
                players: [Player::Human; 2],
                budget: Budget {
                    depth: Some(1),
                    ..Budget::default()
                },
                style: Style {
                    unicode: false,
                    color: false,
                    flipped: false,
                },
                echo: false,
                live_in_place: false,
                live_lines: false,
                clock: None,
                live_clock: false,
                ended: None,
            };
            let (mut out, mut err) = (Vec::new(), Vec::new());
            run(game.as_mut(), &config, &mut &script[..], &mut out, &mut err)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let out = String::from_utf8_lossy(&out);
            let tail = &out[out.len().saturating_sub(4_000)..];
            assert!(
                tail.contains("legal move") || tail.contains("The game is over"),
                "{name}: the last 'moves' got no answer:\n{tail}"
            );
        }
    }
}
