"""An SPRT of two qi builds on a Ray cluster.

The match is the one ``qi match`` would play with the same arguments and seed: the test build
is the first engine, the base build the second, and game pair ``k`` (one opening, colours
swapped) is the same wherever it is played. Tasks play slices of pairs (``qi match --pairs
A..B --results FILE``) and return the result lines; the driver writes each slice to its own
file in the output folder as it arrives and runs ``qi match merge --json --sprt`` over the
folder, so the verdict, the Elo and the LLR are exactly those ``qi match merge`` (and so
``qi match --sprt`` for the same games) prints. Once a bound is crossed the outstanding tasks
are cancelled; their games are never counted.

A worker that dies mid-task loses only that task, which Ray runs again (``max_retries``); the
task returns its lines only when it completes, and a pair is counted once however often it was
played, so nothing is counted twice.
"""

from __future__ import annotations

import json
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import ray

from .binaries import Binary, sha256_of
from .process import run

# The protocol the two builds are played over, and the qi subcommand serving it, by game.
PROTOCOLS = {
    "gomoku": ("gomocup", "gomocup"),
    "renju": ("gomocup", "gomocup"),
    "xiangqi": ("ucci", "ucci"),
    "connect6": ("connectmore", "connect6-engine"),
}


@dataclass
class SprtConfig:
    """What to play: the builds, the game, the time control, the test and how to slice it.

    ``time`` is ``qi match``'s time option as a pair, ``("--movetime", "100ms")`` or
    ``("--tc", "10+0.1")``; ``sprt`` its ``--sprt`` text (``elo0=0,elo1=5``). Options are
    ``K=V`` texts as ``qi match --option`` takes them (for qi over Gomocup ``max_depth=4``
    limits the depth). ``extra`` are further ``qi match`` arguments (``--rule renju``,
    ``--size 15``, ``--max-plies 300``).
    """

    base: str
    test: str
    game: str
    sprt: str
    time: tuple[str, str] = ("--movetime", "100ms")
    seed: int = 1
    pairs_per_task: int = 4
    max_pairs: int = 10_000
    base_options: Sequence[str] = ()
    test_options: Sequence[str] = ()
    each: Sequence[str] = ()
    extra: Sequence[str] = ()
    max_in_flight: int | None = None
    # Tests only: the first attempt of the task playing this pair kills its worker.
    crash_pair: int | None = None


@dataclass
class SprtResult:
    """The end of a run: the merged summary (``qi match merge --json``), the files, the tasks."""

    summary: dict
    files: list[Path]
    tasks_done: int
    tasks_cancelled: int
    seconds: float
    hosts: dict[str, int] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """``H1``, ``H0`` or ``continue`` (the pair limit was reached first)."""
        return self.summary["sprt"]["verdict"]


def match_argv(cfg: SprtConfig, base: str, test: str, start: int, end: int, results: str) -> list[str]:
    """The ``qi match`` command of pairs ``start..end``, with the builds at ``base`` and ``test``."""
    if cfg.game not in PROTOCOLS:
        raise ValueError(
            f"game {cfg.game!r}: expected one with an engine protocol ({', '.join(PROTOCOLS)})"
        )
    proto, sub = PROTOCOLS[cfg.game]
    argv = [base, "match", cfg.game]
    for name, path, options in (("test", test, cfg.test_options), ("base", base, cfg.base_options)):
        argv += ["--engine", f"cmd={path},proto={proto},arg={sub},name={name}"]
        for o in options:
            argv += ["--option", o]
    for o in cfg.each:
        argv += ["--each", o]
    argv += [*cfg.time, "--seed", str(cfg.seed), *cfg.extra]
    argv += ["--pairs", f"{start}..{end}", "--results", results, "--concurrency", "1"]
    return argv


@ray.remote(max_retries=3)
def play_pairs(cfg: SprtConfig, base: Binary, test: Binary, start: int, end: int, crash_marker: str | None) -> dict:
    """A Ray task: plays pairs ``start..end`` and returns their result lines."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="qi-ray-") as tmp:
        results = Path(tmp) / "pairs.jsonl"
        argv = match_argv(cfg, str(base.local_path()), str(test.local_path()), start, end, str(results))
        crash = crash_marker if cfg.crash_pair is not None and start <= cfg.crash_pair < end else None
        run(argv, crash_marker=crash, watch=results)
        lines = results.read_text() if results.exists() else ""
    return {
        "start": start,
        "end": end,
        "lines": lines,
        "host": socket.gethostname(),
        "seconds": time.monotonic() - t0,
    }


def merge(qi: str, files: Sequence[Path], sprt: str) -> dict:
    """``qi match merge --json --sprt SPRT FILES`` as a dict (qi's own statistics)."""
    argv = [qi, "match", "merge", "--json", "--sprt", sprt, *map(str, files)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"qi match merge failed: {done.stderr.strip()}")
    return json.loads(done.stdout)


def progress_line(s: dict) -> str:
    """One line of progress: games, W/D/L, the pentanomial Elo, the LLR and its bounds."""
    sp = s["sprt"]
    pe = s.get("pentanomial_elo")
    elo = "" if not pe or pe["elo"] is None else f"  Elo {pe['elo']:+.1f}"
    return (
        f"{s['pairs']} pairs, {s['games']} games: +{s['wins']} ={s['draws']} -{s['losses']}{elo}"
        f"  LLR {sp['llr']:.3f} [{sp['lower']:.3f}, {sp['upper']:.3f}] {sp['verdict']}"
    )


def run_sprt(cfg: SprtConfig, out_dir: str | Path, log: Callable[[str], None] = print) -> SprtResult:
    """Runs the SPRT on the connected Ray cluster, writing slices to ``out_dir``.

    ``out_dir`` must be empty or new (its files are the run's results). Returns when a bound
    is crossed or ``cfg.max_pairs`` pairs are counted. Raises ``RuntimeError`` when a task
    fails for a reason other than a lost worker (a bad option, an engine that cannot start).
    """
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} is not an empty folder: give a new folder for the results")
    match_argv(cfg, "BASE", "TEST", 0, 1, "FILE")  # checks the game before anything starts
    base = Binary.ship(cfg.base, "base")
    test = Binary.ship(cfg.test, "test")
    out.mkdir(parents=True, exist_ok=True)
    (out / "run.json").write_text(
        json.dumps(
            {
                "base": {"path": str(cfg.base), "sha256": sha256_of(cfg.base)},
                "test": {"path": str(cfg.test), "sha256": sha256_of(cfg.test)},
                "command": match_argv(cfg, "BASE", "TEST", 0, cfg.max_pairs, "FILE"),
                "sprt": cfg.sprt,
            },
            indent=2,
        )
        + "\n"
    )
    marker = str(out / "crash-marker") if cfg.crash_pair is not None else None
    in_flight = cfg.max_in_flight or max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    pending: dict = {}
    next_pair = 0
    files: list[Path] = []
    hosts: dict[str, int] = {}
    done_tasks = 0
    summary: dict | None = None
    t0 = time.monotonic()
    while True:
        while len(pending) < in_flight and next_pair < cfg.max_pairs:
            end = min(next_pair + cfg.pairs_per_task, cfg.max_pairs)
            pending[play_pairs.remote(cfg, base, test, next_pair, end, marker)] = (next_pair, end)
            next_pair = end
        if not pending:
            break
        ready, _ = ray.wait(list(pending), num_returns=1)
        ref = ready[0]
        start, end = pending.pop(ref)
        got = ray.get(ref)
        done_tasks += 1
        hosts[got["host"]] = hosts.get(got["host"], 0) + 1
        path = out / f"pairs-{start:06d}-{end:06d}.jsonl"
        path.write_text(got["lines"])
        files.append(path)
        summary = merge(cfg.base, files, cfg.sprt)
        log(progress_line(summary))
        if summary["sprt"]["verdict"] != "continue":
            break
    cancelled = len(pending)
    for ref in pending:
        ray.cancel(ref, force=True)
    for ref in pending:
        # Collected so that Ray does not report the cancelled tasks' errors as unhandled.
        try:
            ray.get(ref)
        except (ray.exceptions.TaskCancelledError, ray.exceptions.WorkerCrashedError):
            pass
        except ray.exceptions.RayError:
            pass
    if summary is None:
        raise RuntimeError("no pair was played (max_pairs is 0)")
    return SprtResult(
        summary=summary,
        files=sorted(files),
        tasks_done=done_tasks,
        tasks_cancelled=cancelled,
        seconds=time.monotonic() - t0,
        hosts=hosts,
    )
