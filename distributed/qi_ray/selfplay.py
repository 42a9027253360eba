"""Self-play shards on a Ray cluster, gathered into one dataset with its provenance.

Game ``i`` of a seed is the same game in any ``qi selfplay`` run (its opening comes from the
seed and ``i``, each game starts a fresh engine, and a depth or node limit makes its search
deterministic), and qi writes the positions in game order. So the shards ``qi selfplay --seed S
--first-game K --games N`` for consecutive ``K`` concatenated in order are, line for line, the
positions of one run of all the games: the dataset is exactly what ``qi selfplay --seed S
--games TOTAL`` on one machine writes, without its two comment lines.

The dataset is ``positions.txt`` (comment lines with the provenance, then ``result<TAB>position``
lines, the input of ``qi tune``) and ``manifest.json`` (the command, the binary's SHA-256, the
seed and, for every shard, its games, counts, host and time).
"""

from __future__ import annotations

import json
import re
import socket
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import ray

from .binaries import Binary, sha256_of
from .process import run

SUMMARY = re.compile(r"(\d+) games \(\+(\d+) =(\d+) -(\d+)\), (\d+) positions")


@dataclass
class SelfplayConfig:
    """A run: the build, the game, the seed, how many games and how many a shard plays.

    ``args`` are further ``qi selfplay`` arguments (``--depth 4``, ``--rule renju``,
    ``--random-plies 6``); without a depth or node limit qi plays at depth 4.
    """

    qi: str
    game: str
    seed: int
    games: int
    shard_games: int = 50
    args: Sequence[str] = ()
    # Tests only: the first attempt of the shard with this first game kills its worker.
    crash_shard: int | None = None


def shard_argv(cfg: SelfplayConfig, qi: str, first: int, games: int, out: str) -> list[str]:
    """The ``qi selfplay`` command of games ``first..first+games``."""
    return [
        qi, "selfplay", cfg.game, *cfg.args, "--seed", str(cfg.seed),
        "--first-game", str(first), "--games", str(games), "--threads", "1", "--out", out,
    ]


@ray.remote(max_retries=3)
def play_shard(cfg: SelfplayConfig, qi: Binary, first: int, games: int, crash_marker: str | None) -> dict:
    """A Ray task: plays one shard and returns its position lines and counts."""
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="qi-ray-") as tmp:
        out = Path(tmp) / "shard.txt"
        argv = shard_argv(cfg, str(qi.local_path()), first, games, str(out))
        crash = crash_marker if cfg.crash_shard == first else None
        # qi prints a line per game and its summary to stderr.
        _, summary = run(argv, crash_marker=crash, watch=out)
        text = out.read_text()
    m = SUMMARY.search(summary)
    if m is None:
        raise RuntimeError(f"shard {first}: no summary in qi's output: {summary[-300:]}")
    played, wins, draws, losses, positions = map(int, m.groups())
    return {
        "first_game": first,
        "games": games,
        "played": played,
        "results": [wins, draws, losses],
        "positions": positions,
        "lines": [l for l in text.splitlines() if l and not l.startswith("#")],
        "command": " ".join(shard_argv(cfg, "qi", first, games, "shard.txt")),
        "host": socket.gethostname(),
        "seconds": round(time.monotonic() - t0, 3),
    }


def run_selfplay(cfg: SelfplayConfig, out_dir: str | Path, log: Callable[[str], None] = print) -> dict:
    """Plays every shard on the connected cluster and writes the dataset to ``out_dir``.

    Returns the manifest (also written as ``manifest.json``). Raises ``FileExistsError`` when
    ``out_dir`` already holds a dataset, ``RuntimeError`` when a shard fails other than by a
    lost worker.
    """
    out = Path(out_dir)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} is not an empty folder: give a new folder for the dataset")
    if cfg.games <= 0 or cfg.shard_games <= 0:
        raise ValueError("games and shard_games must be above zero")
    qi = Binary.ship(cfg.qi, "qi")
    out.mkdir(parents=True, exist_ok=True)
    marker = str(out / "crash-marker") if cfg.crash_shard is not None else None
    t0 = time.monotonic()
    refs = {}
    for first in range(0, cfg.games, cfg.shard_games):
        n = min(cfg.shard_games, cfg.games - first)
        refs[play_shard.remote(cfg, qi, first, n, marker)] = first
    shards = {}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        shard = ray.get(ready[0])
        shards[shard["first_game"]] = shard
        done = sum(s["played"] for s in shards.values())
        log(f"shard {shard['first_game']}..{shard['first_game'] + shard['games']} done on "
            f"{shard['host']} in {shard['seconds']:.1f} s: {done}/{cfg.games} games")
    ordered = [shards[k] for k in sorted(shards)]
    manifest = {
        "command": " ".join(shard_argv(cfg, "qi", 0, cfg.games, "positions.txt")).replace(
            " --first-game 0", ""
        ),
        "binary_sha256": sha256_of(cfg.qi),
        "game": cfg.game,
        "seed": cfg.seed,
        "games": sum(s["played"] for s in ordered),
        "results": [sum(s["results"][i] for s in ordered) for i in range(3)],
        "positions": sum(s["positions"] for s in ordered),
        "seconds": round(time.monotonic() - t0, 3),
        "shards": [{k: v for k, v in s.items() if k != "lines"} for s in ordered],
    }
    with open(out / "positions.txt", "w") as f:
        # The first line is the one-run command these shards equal, as `qi selfplay` writes
        # it, so that `qi tune` names it in the weights file's header.
        f.write(f"# {manifest['command']}\n")
        f.write(f"# qi-ray: {len(ordered)} shards of {cfg.shard_games} games, binary sha256 "
                f"{manifest['binary_sha256']}; manifest.json has each shard's command\n")
        for s in ordered:
            for line in s["lines"]:
                f.write(line + "\n")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest
