//! Game clocks for people and engines: [`TimeControl`] (base time + Fischer increment, as
//! players write it: `5m+3s`), [`GameClock`] (both sides' clocks through a game, with each
//! turn's time), and the one duration parser of every `qi` option ([`parse_span`]).
//!
//! Every [`GameClock`] method takes the moment it acts at (`now`), so a game's clock is
//! tested with made-up instants, never with the machine's speed.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use game_core::Side;
use game_core::clock::Clock;
use thiserror::Error;

/// The longest `--time`: one day.
pub const MAX_TIME_SECS: f64 = 86_400.0;

/// A time string that cannot be read or is out of range.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TimeError {
    /// Not a duration as people write it.
    #[error(
        "bad time '{0}': expected a number and a unit, like 5s, 500ms, 1.5s, .5s, 2m, 1m30s or \
         1h (units h, m or min, s or sec, ms, in any case; a bare number is seconds)"
    )]
    Unreadable(String),
    /// Zero where a positive time is needed.
    #[error("bad time '{0}': the time must be above zero (a bare number is seconds)")]
    Zero(String),
    /// Above zero but below one millisecond, the clocks' resolution.
    #[error("bad time '{0}': below one millisecond (the shortest time is 1ms)")]
    BelowMillisecond(String),
    /// More than [`MAX_TIME_SECS`].
    #[error("bad time '{0}': too large, the maximum is 86400s (24 hours, 1440m)")]
    TooLarge(String),
}

/// The unit of one `NUMBER UNIT` group of a duration, in seconds, from its name (any case).
fn unit_seconds(unit: &str) -> Option<(f64, u8)> {
    // The rank orders the groups: largest unit first, each unit at most once.
    Some(match unit.to_ascii_lowercase().as_str() {
        "h" | "hr" | "hrs" | "hour" | "hours" => (3600.0, 0),
        "m" | "min" | "mins" | "minute" | "minutes" => (60.0, 1),
        "s" | "sec" | "secs" | "second" | "seconds" => (1.0, 2),
        "ms" | "msec" | "msecs" | "millisecond" | "milliseconds" => (0.001, 3),
        _ => return None,
    })
}

/// Parses a duration the way people write it, zero included: a bare number of seconds (`3`,
/// `1.5`, `.5`), or one or more `NUMBER UNIT` groups from the largest unit down (`5s`, `5S`,
/// `500ms`, `1m30s`, `1h 5m`, `.5s`); units `h`, `m`/`min`, `s`/`sec`, `ms` (and their long
/// names), in any case. The one duration parser of every `qi` option.
///
/// # Errors
/// [`TimeError::Unreadable`] for anything else (negative numbers, exponents, a unit twice or
/// out of order), [`TimeError::BelowMillisecond`] above zero but below 1 ms,
/// [`TimeError::TooLarge`] above [`MAX_TIME_SECS`].
pub fn parse_span(text: &str) -> Result<Duration, TimeError> {
    let bad = || TimeError::Unreadable(text.to_string());
    let t = text.trim();
    let is_number = |c: char| c.is_ascii_digit() || c == '.';
    let read_number = |n: &str| -> Result<f64, TimeError> {
        // Digits with at most one point and at least one digit; no sign, no exponent.
        if n.is_empty() || n.ends_with('.') || n.matches('.').count() > 1 {
            return Err(bad());
        }
        n.parse::<f64>().map_err(|_| bad())
    };
    let seconds = if !t.is_empty() && t.chars().all(is_number) {
        read_number(t)?
    } else {
        let mut rest = t;
        let mut total = 0.0;
        let mut last_rank = None;
        while !rest.is_empty() {
            let split = rest.find(|c: char| !is_number(c)).unwrap_or(rest.len());
            let value = read_number(&rest[..split])?;
            rest = rest[split..].trim_start();
            let end = rest
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(rest.len());
            let (scale, rank) = unit_seconds(&rest[..end]).ok_or_else(bad)?;
            if last_rank.is_some_and(|r| rank <= r) {
                return Err(bad());
            }
            last_rank = Some(rank);
            total += value * scale;
            rest = rest[end..].trim_start();
        }
        if last_rank.is_none() {
            return Err(bad());
        }
        total
    };
    if !seconds.is_finite() || seconds > MAX_TIME_SECS {
        return Err(TimeError::TooLarge(text.to_string()));
    }
    if seconds > 0.0 && seconds < 0.001 {
        return Err(TimeError::BelowMillisecond(text.to_string()));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Parses a time above zero, as [`parse_span`] reads it (`5s`, `500ms`, `1m30s`, a bare
/// number of seconds).
///
/// # Errors
/// [`parse_span`]'s errors, and [`TimeError::Zero`] for zero.
pub fn parse_time(text: &str) -> Result<Duration, TimeError> {
    let time = parse_span(text)?;
    if time.is_zero() {
        return Err(TimeError::Zero(text.to_string()));
    }
    Ok(time)
}

/// A game's time control: each side starts with `base` and gains `increment` after each of
/// its turns (Fischer), as tournaments of every game here play (the RIF's renju
/// championships, the xiangqi federations' events, Gomocup's match clock, the ICGA's
/// connect6). A sudden-death control has no increment.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time each side starts with (above zero).
    pub base: Duration,
    /// Time added to a side's clock after each of its turns.
    pub increment: Duration,
}

/// A time control that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TimeControlError {
    /// The base time (before `+`) is not a time above zero.
    #[error(
        "bad clock '{text}': the base time: {source} (a clock is BASE+INCREMENT, like 5m+3s, 10+0.1 or 15m)"
    )]
    Base {
        /// The whole text.
        text: String,
        /// What was wrong with the base.
        source: TimeError,
    },
    /// The increment (after `+`) is not a time, zero included.
    #[error(
        "bad clock '{text}': the increment: {source} (a clock is BASE+INCREMENT, like 5m+3s, 10+0.1 or 15m)"
    )]
    Increment {
        /// The whole text.
        text: String,
        /// What was wrong with the increment.
        source: TimeError,
    },
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `BASE[+INCREMENT]`, each as [`parse_span`] reads it (a bare number is seconds): `5m+3s`,
    /// `10+0.1`, `15m`, `1h+30s`. The base must be above zero.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let base = parse_time(base.trim()).map_err(|source| TimeControlError::Base {
            text: text.to_string(),
            source,
        })?;
        let increment =
            parse_span(increment.trim()).map_err(|source| TimeControlError::Increment {
                text: text.to_string(),
                source,
            })?;
        Ok(TimeControl { base, increment })
    }
}

impl fmt::Display for TimeControl {
    /// As players write it: `5m+3s`, `10s+0.1s`, `15m` (no increment).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", span_text(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", span_text(self.increment))?;
        }
        Ok(())
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag: seconds, `BASE+INCREMENT` (`300+3`, `10+0.1`).
    #[must_use]
    pub fn tag(&self) -> String {
        format!(
            "{}+{}",
            seconds_text(self.base),
            seconds_text(self.increment)
        )
    }
}

/// Seconds with as many decimals as needed (at most three): `300`, `0.1`, `1.25`.
fn seconds_text(d: Duration) -> String {
    let ms = d.as_millis();
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A duration in the largest units that write it exactly: `5m`, `1m30s`, `1.5s`, `100ms`.
fn span_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms == 0 {
        return "0s".into();
    }
    if ms % 1000 != 0 {
        return if ms < 1000 {
            format!("{ms}ms")
        } else {
            format!("{}s", seconds_text(d))
        };
    }
    let s = ms / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if s > 0 {
        out.push_str(&format!("{s}s"));
    }
    out
}

/// A clock reading for people: `4:59`, `1:02:03`, and tenths under ten seconds (`0:09.4`),
/// as game clocks show them. Rounds down: a clock that shows `0:00.0` has run out.
#[must_use]
pub fn clock_text(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    let secs = tenths / 10;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else if secs < 10 {
        format!("{m}:{s:02}.{}", tenths % 10)
    } else {
        format!("{m}:{s:02}")
    }
}

/// A turn's time as PGN's `%emt` writes it: `0:00:03.2` (hours, minutes, seconds and
/// tenths, rounded down).
#[must_use]
pub fn emt_text(t: Duration) -> String {
    let tenths = t.as_millis() / 100;
    let secs = tenths / 10;
    format!(
        "{}:{:02}:{:02}.{}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        tenths % 10
    )
}

/// Reads a `%emt` time: `0:00:03.2`, `1:02:03`, `0:03.25` or `3.2` (hours and minutes
/// optional, a decimal fraction of seconds, kept to the millisecond); `None` for anything
/// else.
#[must_use]
pub fn parse_emt(text: &str) -> Option<Duration> {
    let mut parts = text.trim().rsplit(':');
    let seconds: f64 = parts.next()?.parse().ok()?;
    let minutes: u64 = parts.next().map_or(Some(0), |m| m.parse().ok())?;
    let hours: u64 = parts.next().map_or(Some(0), |h| h.parse().ok())?;
    if parts.next().is_some() || !seconds.is_finite() || seconds < 0.0 {
        return None;
    }
    Some(
        Duration::from_secs(hours * 3600 + minutes * 60)
            + Duration::from_millis((seconds * 1000.0).round() as u64),
    )
}

/// Both sides' clocks through one game: the side to move's clock runs from [`start`] until
/// its turn is complete ([`press`], which adds the increment) or the game stops it
/// ([`pause`]). A side whose clock reaches zero while running has lost on time
/// ([`flagged`]; the frame's [`Rules::flag_fall`](crate::Rules::flag_fall) says what that
/// means in each game).
///
/// [`start`]: GameClock::start
/// [`press`]: GameClock::press
/// [`pause`]: GameClock::pause
/// [`flagged`]: GameClock::flagged
#[derive(Clone, Debug)]
pub struct GameClock {
    tc: TimeControl,
    remaining: [Duration; 2],
    running: Option<(Side, Instant)>,
    /// Each timed turn's number (0-based, in the game's turn list) and its time.
    turn_times: Vec<(usize, Duration)>,
}

impl GameClock {
    /// Both clocks at the time control's base, neither running.
    #[must_use]
    pub fn new(tc: TimeControl) -> Self {
        GameClock {
            tc,
            remaining: [tc.base; 2],
            running: None,
            turn_times: Vec::new(),
        }
    }

    /// The clocks of a game resumed from its record (`qi play --load`, a record given to
    /// `qi serve`): both at the base, then each of `turns` (the side that played it and its
    /// time, `None` for an untimed turn) spent and the increment added as [`press`] does;
    /// neither running. The turns' times are kept for the record.
    ///
    /// [`press`]: GameClock::press
    #[must_use]
    pub fn resumed(tc: TimeControl, turns: &[(Side, Option<Duration>)]) -> Self {
        let mut clock = GameClock::new(tc);
        for (turn, &(side, spent)) in turns.iter().enumerate() {
            let Some(spent) = spent else { continue };
            let r = &mut clock.remaining[side.index()];
            *r = r.saturating_sub(spent);
            if !r.is_zero() {
                *r += tc.increment;
            }
            clock.turn_times.push((turn, spent));
        }
        clock
    }

    /// The time control.
    #[must_use]
    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    /// The side whose clock runs, if any.
    #[must_use]
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(side, _)| side)
    }

    /// Starts `side`'s clock at `now` (the other's stops without an increment); a clock
    /// already running for `side` keeps its start.
    pub fn start(&mut self, side: Side, now: Instant) {
        if self.running() == Some(side) {
            return;
        }
        self.pause(now);
        self.running = Some((side, now));
    }

    /// Stops the running clock at `now` without an increment (a game that ended, an undo).
    pub fn pause(&mut self, now: Instant) {
        if let Some((side, since)) = self.running.take() {
            let spent = now.saturating_duration_since(since);
            let r = &mut self.remaining[side.index()];
            *r = r.saturating_sub(spent);
        }
    }

    /// The running side completed turn number `turn` (0-based) at `now`: its clock stops,
    /// gains the increment unless it ran out, and the turn's time is kept for the record.
    /// Returns the turn's time, or `None` when no clock was running.
    pub fn press(&mut self, turn: usize, now: Instant) -> Option<Duration> {
        let (side, since) = self.running?;
        let spent = now.saturating_duration_since(since);
        self.pause(now);
        let r = &mut self.remaining[side.index()];
        if !r.is_zero() {
            *r += self.tc.increment;
        }
        self.turn_times.push((turn, spent));
        Some(spent)
    }

    /// `side`'s time left at `now` (zero once its flag has fallen).
    #[must_use]
    pub fn remaining(&self, side: Side, now: Instant) -> Duration {
        let r = self.remaining[side.index()];
        match self.running {
            Some((s, since)) if s == side => r.saturating_sub(now.saturating_duration_since(since)),
            _ => r,
        }
    }

    /// The side whose running clock has reached zero at `now`, if any.
    #[must_use]
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        let (side, _) = self.running?;
        self.remaining(side, now).is_zero().then_some(side)
    }

    /// When the running side's flag falls, if a clock runs.
    #[must_use]
    pub fn flag_time(&self) -> Option<Instant> {
        self.running
            .map(|(side, since)| since + self.remaining[side.index()])
    }

    /// `side`'s clock as the engine's time manager reads it at `now` ([`Clock::allocate`] or
    /// the game's own allocation): its time left and the increment, keeping `overhead` in
    /// reserve for the front end's own work.
    #[must_use]
    pub fn engine_clock(&self, side: Side, now: Instant, overhead: Duration) -> Clock {
        Clock {
            remaining: self.remaining(side, now),
            increment: self.tc.increment,
            moves_to_go: None,
            overhead,
        }
    }

    /// Each timed turn's time by turn number (0-based), `None` for a turn played without the
    /// clock (a setup move) or taken back; as long as the game's turn list `turns`.
    #[must_use]
    pub fn turn_times(&self, turns: usize) -> Vec<Option<Duration>> {
        let mut out = vec![None; turns];
        for &(turn, spent) in &self.turn_times {
            if let Some(slot) = out.get_mut(turn) {
                *slot = Some(spent);
            }
        }
        out
    }

    /// Forgets the times of turns from number `turns` on (they were taken back); the clocks
    /// keep their readings, as on a real clock.
    pub fn take_back(&mut self, turns: usize) {
        self.turn_times.retain(|&(turn, _)| turn < turns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_read_and_write_as_players_do() {
        for (text, base, inc, shown, tag) in [
            ("5m+3s", 300_000, 3_000, "5m+3s", "300+3"),
            ("10+0.1", 10_000, 100, "10s+100ms", "10+0.1"),
            ("15m", 900_000, 0, "15m", "900+0"),
            ("1h + 30s", 3_600_000, 30_000, "1h+30s", "3600+30"),
            ("1m30s+1.5", 90_000, 1_500, "1m30s+1.5s", "90+1.5"),
            ("2+0", 2_000, 0, "2s", "2+0"),
        ] {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!((tc.base, tc.increment), (ms(base), ms(inc)), "{text}");
            assert_eq!(tc.to_string(), shown);
            assert_eq!(tc.tag(), tag);
            assert_eq!(shown.parse::<TimeControl>(), Ok(tc));
        }
        for bad in [
            "", "0+3", "+3", "5m+", "5m+x", "fast", "-5m", "5m+-1s", "5m+3s+1s",
        ] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        let e = "0+3".parse::<TimeControl>().unwrap_err().to_string();
        assert!(
            e.starts_with("bad clock '0+3': the base time: bad time '0'"),
            "{e}"
        );
        let e = "5m+x".parse::<TimeControl>().unwrap_err().to_string();
        assert!(e.contains("the increment: bad time 'x'"), "{e}");
    }

    #[test]
    fn clock_readings() {
        assert_eq!(clock_text(ms(300_000)), "5:00");
        assert_eq!(clock_text(ms(59_999)), "0:59");
        assert_eq!(clock_text(ms(9_999)), "0:09.9");
        assert_eq!(clock_text(ms(99)), "0:00.0");
        assert_eq!(clock_text(ms(3_723_000)), "1:02:03");
    }

    #[test]
    fn clocks_run_for_the_side_to_move_and_gain_the_increment() {
        let t0 = Instant::now();
        let mut c = GameClock::new("10+1".parse().unwrap());
        c.start(Side::First, t0);
        assert_eq!(c.remaining(Side::First, t0 + ms(4_000)), ms(6_000));
        assert_eq!(c.remaining(Side::Second, t0 + ms(4_000)), ms(10_000));
        assert_eq!(c.press(0, t0 + ms(4_000)), Some(ms(4_000)));
        assert_eq!(c.remaining(Side::First, t0 + ms(9_000)), ms(7_000));
        c.start(Side::Second, t0 + ms(4_000));
        assert_eq!(c.flag_time(), Some(t0 + ms(14_000)));
        assert_eq!(c.flagged(t0 + ms(13_999)), None);
        assert_eq!(c.flagged(t0 + ms(14_000)), Some(Side::Second));
        // A flag that fell gains no increment.
        c.press(1, t0 + ms(15_000));
        assert_eq!(c.remaining(Side::Second, t0 + ms(20_000)), Duration::ZERO);
        assert_eq!(c.turn_times(3), [Some(ms(4_000)), Some(ms(11_000)), None]);
        c.take_back(1);
        assert_eq!(c.turn_times(2), [Some(ms(4_000)), None]);
        // Pausing keeps the time used so far, with no increment.
        let mut c = GameClock::new("1m".parse().unwrap());
        c.start(Side::Second, t0);
        c.pause(t0 + ms(1_500));
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(Side::Second, t0 + ms(9_000)), ms(58_500));
        assert_eq!(c.press(0, t0), None);
        let e = c.engine_clock(Side::Second, t0, ms(20));
        assert_eq!(
            (e.remaining, e.increment, e.overhead),
            (ms(58_500), Duration::ZERO, ms(20))
        );
    }

    #[test]
    fn emt_times_read_back_and_resume_a_game_s_clocks() {
        for (d, text) in [
            (ms(3_249), "0:00:03.2"),
            (ms(3_723_000), "1:02:03.0"),
            (ms(59_999), "0:00:59.9"),
        ] {
            assert_eq!(emt_text(d), text);
            assert_eq!(parse_emt(text), Some(ms(d.as_millis() as u64 / 100 * 100)));
        }
        assert_eq!(parse_emt("0:03.25"), Some(ms(3_250)));
        assert_eq!(parse_emt("12"), Some(ms(12_000)));
        for bad in ["", "x", "1:2:3:4", "-1", "0:00:nan", "a:00:01"] {
            assert_eq!(parse_emt(bad), None, "{bad}");
        }
        // 10 s + 1 s: Black spends 4 s and 11 s (its flag fell: no increment), White 2 s;
        // a setup turn counts for nobody.
        let c = GameClock::resumed(
            "10+1".parse().unwrap(),
            &[
                (Side::First, None),
                (Side::Second, Some(ms(4_000))),
                (Side::First, Some(ms(2_000))),
                (Side::Second, Some(ms(11_000))),
            ],
        );
        let now = Instant::now();
        assert_eq!(c.running(), None);
        assert_eq!(c.remaining(Side::First, now), ms(9_000));
        assert_eq!(c.remaining(Side::Second, now), Duration::ZERO);
        assert_eq!(
            c.turn_times(4),
            [None, Some(ms(4_000)), Some(ms(2_000)), Some(ms(11_000))]
        );
    }
}
