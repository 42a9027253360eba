"""The command line: ``python -m qi_ray sprt ...`` and ``python -m qi_ray selfplay ...``.

See the README of this folder for examples on one machine, several machines and Kubernetes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import ray

from .cluster import connect
from .process import QiFailed
from .selfplay import SelfplayConfig, run_selfplay
from .sprt import PROTOCOLS, SprtConfig, run_sprt


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="qi-ray", description=__doc__.splitlines()[0])
    p.add_argument("--address", help="the Ray cluster (default: the local one, or a new one)")
    p.add_argument("--num-cpus", type=int, help="CPUs of a cluster started for this run")
    sub = p.add_subparsers(dest="command", required=True)

    s = sub.add_parser("sprt", help="an SPRT of a test build against a base build")
    s.add_argument("--base", required=True, help="the base qi binary")
    s.add_argument("--test", required=True, help="the test qi binary")
    s.add_argument("--game", required=True, choices=sorted(PROTOCOLS))
    t = s.add_mutually_exclusive_group(required=True)
    t.add_argument("--movetime", help="time per move, e.g. 100ms")
    t.add_argument("--tc", help="game clock BASE+INC in seconds, e.g. 10+0.1")
    s.add_argument("--sprt", required=True, help="bounds as qi match takes them: elo0=0,elo1=5")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--pairs-per-task", type=int, default=4)
    s.add_argument("--max-pairs", type=int, default=10_000)
    s.add_argument("--base-option", action="append", default=[], metavar="K=V")
    s.add_argument("--test-option", action="append", default=[], metavar="K=V")
    s.add_argument("--each", action="append", default=[], metavar="K=V")
    s.add_argument("--rule", help="gomoku rule (freestyle, standard, renju)")
    s.add_argument("--size", type=int)
    s.add_argument("--out", required=True, help="a new folder for the result files")

    f = sub.add_parser("selfplay", help="self-play shards gathered into one dataset")
    f.add_argument("--qi", required=True, help="the qi binary")
    f.add_argument("--game", required=True, choices=SELFPLAY_GAMES)
    f.add_argument("--seed", type=int, required=True)
    f.add_argument("--games", type=int, required=True)
    f.add_argument("--shard-games", type=int, default=50)
    f.add_argument("--depth", type=int)
    f.add_argument("--nodes", type=int)
    f.add_argument("--rule")
    f.add_argument("--size", type=int)
    f.add_argument("--out", required=True, help="a new folder for the dataset")
    return p


# The games `qi selfplay` plays (its registry names).
SELFPLAY_GAMES = ["connect4", "connect6", "gomoku", "renju", "xiangqi"]


def main(argv: list[str] | None = None) -> int:
    """Runs the command line; returns the exit status (2 for a usage error, 1 for a failed run)."""
    a = parser().parse_args(argv)
    binaries = [a.base, a.test] if a.command == "sprt" else [a.qi]
    for b in binaries:
        if not os.path.isfile(b) or not os.access(b, os.X_OK):
            print(f"qi-ray: error: {b} is not an executable file (a qi binary)", file=sys.stderr)
            return 2
    out = Path(a.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        print(f"qi-ray: error: --out {out} is not an empty folder: give a new one", file=sys.stderr)
        return 2
    if a.command == "selfplay" and (a.games <= 0 or a.shard_games <= 0):
        print("qi-ray: error: --games and --shard-games must be above zero", file=sys.stderr)
        return 2
    try:
        return run(a)
    except (OSError, ValueError) as e:
        print(f"qi-ray: error: {e}", file=sys.stderr)
        return 2
    except (QiFailed, RuntimeError) as e:
        print(f"qi-ray: failed: {e}", file=sys.stderr)
        return 1
    finally:
        if ray.is_initialized():
            ray.shutdown()


def run(a: argparse.Namespace) -> int:
    """Connects to the cluster and runs the parsed command."""
    extra = []
    if a.rule:
        extra += ["--rule", a.rule]
    if a.size:
        extra += ["--size", str(a.size)]
    connect(a.address, a.num_cpus)
    if a.command == "sprt":
        cfg = SprtConfig(
            base=a.base,
            test=a.test,
            game=a.game,
            sprt=a.sprt,
            time=("--movetime", a.movetime) if a.movetime else ("--tc", a.tc),
            seed=a.seed,
            pairs_per_task=a.pairs_per_task,
            max_pairs=a.max_pairs,
            base_options=a.base_option,
            test_options=a.test_option,
            each=a.each,
            extra=extra,
        )
        r = run_sprt(cfg, a.out)
        print(
            f"{r.verdict} after {r.summary['games']} games in {r.seconds:.1f} s "
            f"({r.tasks_done} tasks, {r.tasks_cancelled} cancelled, hosts {r.hosts}); "
            f"`qi match merge --sprt {cfg.sprt} {a.out}/pairs-*.jsonl` prints the summary"
        )
        return 0
    args = list(extra)
    if a.depth:
        args += ["--depth", str(a.depth)]
    if a.nodes:
        args += ["--nodes", str(a.nodes)]
    m = run_selfplay(
        SelfplayConfig(qi=a.qi, game=a.game, seed=a.seed, games=a.games, shard_games=a.shard_games, args=args),
        a.out,
    )
    print(json.dumps({k: m[k] for k in ("games", "results", "positions", "seconds")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
