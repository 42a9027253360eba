//! Engines of a match: how they are named on the command line ([`EngineSpec`]) and the
//! running child process ([`Proc`]) whose output a thread reads into a channel, so the
//! referee can wait for a line with a deadline.
//!
//! Every engine runs in a process group of its own, and the whole group is killed when the
//! engine is stopped (after a grace for `quit`), dropped, or when `qi match` itself is
//! interrupted (SIGINT, SIGTERM, SIGHUP: [`install_signal_handler`]), so no engine, nor a
//! process an engine started, outlives the match, even one that ignores `quit` and the end
//! of its input (ElephantEye does).

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
use std::time::Instant;

/// The engine protocols the referee speaks.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proto {
    /// UCCI 3.0 (xiangqi).
    Ucci,
    /// UCI with ICCS moves, ranks 0..9 (xiangqi, as Pikafish speaks it).
    Uci,
    /// Gomocup / Piskvork brain protocol (gomoku, renju).
    Gomocup,
    /// ConnectMore (connect6, as Cloudict speaks it).
    ConnectMore,
    /// No protocol: qi in-process, through the game frame (any registered game).
    InProcess,
}

impl Proto {
    /// Reads `ucci`, `uci`, `gomocup` (or `pbrain`, `piskvork`), `connectmore`.
    ///
    /// # Errors
    /// A message naming the accepted values.
    pub fn parse(text: &str) -> Result<Proto, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "ucci" => Ok(Proto::Ucci),
            "uci" => Ok(Proto::Uci),
            "gomocup" | "pbrain" | "piskvork" => Ok(Proto::Gomocup),
            "connectmore" | "connect6" => Ok(Proto::ConnectMore),
            "inprocess" | "in-process" => Ok(Proto::InProcess),
            other => Err(format!(
                "unknown protocol '{other}': expected ucci, uci, gomocup, connectmore or \
                 inprocess"
            )),
        }
    }

    /// The protocol's name as the command line writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Proto::Ucci => "ucci",
            Proto::Uci => "uci",
            Proto::Gomocup => "gomocup",
            Proto::ConnectMore => "connectmore",
            Proto::InProcess => "inprocess",
        }
    }

    /// The `qi` subcommand that serves this protocol.
    #[must_use]
    pub fn qi_subcommand(self) -> &'static str {
        match self {
            Proto::Ucci => "ucci",
            Proto::Uci => "uci",
            Proto::Gomocup => "gomocup",
            Proto::ConnectMore => "connect6-engine",
            Proto::InProcess => "",
        }
    }
}

/// One engine of the match, as `--engine` (and the `--option`s after it) describe it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in progress lines and records.
    pub name: String,
    /// The program; `None` for qi itself (the running executable).
    pub cmd: Option<PathBuf>,
    /// Extra arguments for an external program.
    pub args: Vec<String>,
    /// The protocol; `None` until the game picks its default.
    pub proto: Option<Proto>,
    /// Options `K=V` in order, sent through the protocol (for qi: `threads`, `hash` in MiB,
    /// `depth`; others are passed as they are).
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// True for qi itself.
    #[must_use]
    pub fn is_qi(&self) -> bool {
        self.cmd.is_none()
    }

    /// Parses `qi[,name=N][,proto=P][,option.K=V]...` or
    /// `cmd=PATH,proto=P[,name=N][,arg=A]...[,option.K=V]...`.
    ///
    /// # Errors
    /// A message naming the bad part and the accepted keys.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: None,
            args: Vec::new(),
            proto: None,
            options: Vec::new(),
        };
        let mut qi = false;
        for (i, part) in text.split(',').map(str::trim).enumerate() {
            if part.is_empty() {
                continue;
            }
            if i == 0 && part.eq_ignore_ascii_case("qi") {
                qi = true;
                continue;
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!(
                    "bad --engine part '{part}' in '{text}': expected qi or KEY=VALUE with \
                     cmd, proto, name, arg or option.NAME"
                ));
            };
            let key_lower = key.trim().to_ascii_lowercase();
            match key_lower.as_str() {
                "cmd" => spec.cmd = Some(PathBuf::from(value)),
                "proto" | "protocol" => spec.proto = Some(Proto::parse(value)?),
                "name" => spec.name = value.to_string(),
                "arg" => spec.args.push(value.to_string()),
                _ if key_lower.starts_with("option.") => {
                    let k = key.trim()["option.".len()..].to_string();
                    if k.is_empty() {
                        return Err(format!("bad --engine part '{part}': empty option name"));
                    }
                    spec.options.push((k, value.to_string()));
                }
                _ => {
                    return Err(format!(
                        "bad --engine key '{key}' in '{text}': expected cmd, proto, name, arg \
                         or option.NAME"
                    ));
                }
            }
        }
        if qi && spec.cmd.is_some() {
            return Err(format!(
                "--engine '{text}': qi is the built-in engine and takes no cmd="
            ));
        }
        if !qi && spec.cmd.is_none() {
            return Err(format!(
                "--engine '{text}': expected qi or cmd=PATH,proto=ucci|uci|gomocup|connectmore"
            ));
        }
        if spec.name.is_empty() {
            spec.name = match &spec.cmd {
                None => "qi".to_string(),
                Some(p) => p.file_stem().map_or_else(
                    || "engine".to_string(),
                    |s| s.to_string_lossy().into_owned(),
                ),
            };
        }
        Ok(spec)
    }

    /// Adds an `--option K=V`.
    ///
    /// # Errors
    /// When there is no `=`.
    pub fn add_option(&mut self, text: &str) -> Result<(), String> {
        let (k, v) = text
            .split_once('=')
            .ok_or_else(|| format!("bad --option '{text}': expected NAME=VALUE, like threads=1"))?;
        let k = k.trim();
        if k.is_empty() {
            return Err(format!("bad --option '{text}': empty option name"));
        }
        self.options.push((k.to_string(), v.trim().to_string()));
        Ok(())
    }
}

/// A shared engine log file (`--log FILE`).
pub type Log = std::sync::Arc<std::sync::Mutex<std::fs::File>>;

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecvError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (exited or crashed); the text says how, if known.
    Eof(String),
}

/// Process groups of the running engines (0 = a free slot), read by the signal handler,
/// which may not take locks.
#[cfg(unix)]
static GROUPS: [std::sync::atomic::AtomicI32; 256] =
    [const { std::sync::atomic::AtomicI32::new(0) }; 256];

/// Remembers the process group `pid` for the signal handler (forgotten when the slots are
/// full: the group is still killed when its [`Proc`] ends).
#[cfg(unix)]
fn register_group(pid: i32) {
    use std::sync::atomic::Ordering;
    for slot in &GROUPS {
        if slot
            .compare_exchange(0, pid, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return;
        }
    }
}

/// Kills the process group `pid` and forgets it.
#[cfg(unix)]
fn kill_group(pid: i32) {
    use std::sync::atomic::Ordering;
    // SAFETY: kill(2) with a negative pid signals the process group; no memory is touched.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
    for slot in &GROUPS {
        let _ = slot.compare_exchange(pid, 0, Ordering::AcqRel, Ordering::Acquire);
    }
}

#[cfg(unix)]
extern "C" fn on_signal(signal: libc::c_int) {
    use std::sync::atomic::Ordering;
    for slot in &GROUPS {
        let pid = slot.load(Ordering::Acquire);
        if pid > 0 {
            // SAFETY: kill(2) is async-signal-safe.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    // SAFETY: _exit(2) is async-signal-safe; the shell sees 128 + the signal number.
    unsafe { libc::_exit(128 + signal) }
}

/// Makes SIGINT, SIGTERM and SIGHUP kill every engine's process group before `qi` exits
/// (with status 128 + the signal number). Call once before engines start.
pub fn install_signal_handler() {
    #[cfg(unix)]
    // SAFETY: `on_signal` only calls async-signal-safe functions and reads atomics.
    unsafe {
        let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::signal(signal, handler);
        }
    }
}

/// A running engine process: its stdin, and a channel of its stdout lines read by a thread.
pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Option<String>>,
    eof: bool,
    /// The process group has been killed (see [`Proc::kill`]).
    killed: bool,
    /// Where every line sent (`>`) and received (`<`) is logged, and this engine's label.
    pub log: Option<(Log, String)>,
}

impl Proc {
    /// Starts `program args...` in a process group of its own, with piped stdin/stdout
    /// (stderr discarded).
    ///
    /// # Errors
    /// The spawn error, with the program's name.
    pub fn spawn(program: &std::path::Path, args: &[String]) -> Result<Proc, String> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start engine {}: {e}", program.display()))?;
        #[cfg(unix)]
        register_group(child.id() as i32);
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if tx.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Ok(Proc {
            child,
            stdin,
            lines: rx,
            eof: false,
            killed: false,
            log: None,
        })
    }

    fn log_line(&self, dir: char, line: &str) {
        if let Some((log, label)) = &self.log {
            let mut f = log
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let _ = writeln!(f, "{label} {dir} {line}");
        }
    }

    /// How the process ended, if it has: `exited with status N` or `killed by a signal`.
    fn exit_text(&mut self) -> String {
        // Give a dying process a moment to be reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return match status.code() {
                    Some(c) => format!("engine exited with status {c}"),
                    None => "engine killed by a signal".to_string(),
                };
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        "engine closed its output".to_string()
    }

    /// Writes one line (with `\n`) and flushes.
    ///
    /// # Errors
    /// [`RecvError::Eof`] when the pipe is closed (the engine is gone).
    pub fn send(&mut self, line: &str) -> Result<(), RecvError> {
        self.log_line('>', line);
        let ok = match &mut self.stdin {
            Some(w) => writeln!(w, "{line}").and_then(|()| w.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            Err(RecvError::Eof(self.exit_text()))
        }
    }

    /// The next line, waiting until `deadline`.
    ///
    /// # Errors
    /// [`RecvError::Timeout`] at the deadline, [`RecvError::Eof`] when the engine closed its
    /// output.
    pub fn recv(&mut self, deadline: Instant) -> Result<String, RecvError> {
        if self.eof {
            return Err(RecvError::Eof(self.exit_text()));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Some(line)) => {
                self.log_line('<', &line);
                Ok(line)
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                Err(RecvError::Eof(self.exit_text()))
            }
            Err(RecvTimeoutError::Timeout) => Err(RecvError::Timeout),
        }
    }

    /// Throws away the lines already received (late output of an earlier request).
    ///
    /// # Errors
    /// [`RecvError::Eof`] if the engine is gone.
    pub fn drain(&mut self) -> Result<(), RecvError> {
        loop {
            match self.lines.try_recv() {
                Ok(Some(_)) => {}
                Ok(None) | Err(TryRecvError::Disconnected) => {
                    self.eof = true;
                    return Err(RecvError::Eof(self.exit_text()));
                }
                Err(TryRecvError::Empty) => return Ok(()),
            }
        }
    }

    /// Sends `quit_line` (if any), waits up to `grace` for the process to end, then kills it.
    pub fn stop(mut self, quit_line: Option<&str>, grace: std::time::Duration) {
        if let Some(q) = quit_line {
            let _ = self.send(q);
        }
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        self.kill();
    }

    /// Kills the engine's process group (the engine and whatever it started, even when the
    /// engine itself has exited) and reaps the engine. Only once: afterwards the group id may
    /// belong to someone else.
    fn kill(&mut self) {
        if self.killed {
            return;
        }
        self.killed = true;
        #[cfg(unix)]
        kill_group(self.child.id() as i32);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let q = EngineSpec::parse("qi").unwrap();
        assert!(q.is_qi());
        assert_eq!(q.name, "qi");
        let q = EngineSpec::parse("qi,name=fast,option.hash=16,proto=uci").unwrap();
        assert_eq!(q.name, "fast");
        assert_eq!(q.proto, Some(Proto::Uci));
        assert_eq!(q.options, vec![("hash".to_string(), "16".to_string())]);
        let e = EngineSpec::parse(
            "cmd=/usr/bin/pikafish,proto=uci,name=pika,arg=-x,arg=y,option.Hash=64",
        )
        .unwrap();
        assert_eq!(
            e.cmd.as_deref(),
            Some(std::path::Path::new("/usr/bin/pikafish"))
        );
        assert_eq!(e.args, vec!["-x", "y"]);
        assert_eq!(e.name, "pika");
        let e = EngineSpec::parse("cmd=./engines/pbrain-rapfi,proto=gomocup").unwrap();
        assert_eq!(e.name, "pbrain-rapfi");
        for bad in [
            "",
            "cmd=x,proto=xboard",
            "cmd=x,colour=red",
            "qi,cmd=x",
            "proto=uci",
            "cmd=x,option.=3",
            "nonsense",
        ] {
            assert!(EngineSpec::parse(bad).is_err(), "{bad}");
        }
    }
}
