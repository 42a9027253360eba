"""The Ray driver on a real local Ray cluster (two CPUs, started here) with this build's qi.

``QI_BIN`` names the qi binary; ``cargo test -p cli --test ray_driver`` sets it and runs these
tests when Python has ray and pytest. Games are limited by depth, not time, so every game is
the same on any machine and under any load: the Ray runs must give exactly the games the local
commands give on the same seeds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import ray

from qi_ray.cluster import connect
from qi_ray.selfplay import SelfplayConfig, run_selfplay
from qi_ray.sprt import SprtConfig, match_argv, merge, run_sprt

QI = os.environ.get("QI_BIN")


@pytest.fixture(scope="session")
def qi() -> str:
    if not QI:
        pytest.skip("QI_BIN is not set: run these through `cargo test -p cli --test ray_driver`")
    return QI


@pytest.fixture(scope="session")
def cluster():
    connect(None, num_cpus=2)
    assert ray.cluster_resources().get("CPU") == 2
    yield
    ray.shutdown()


def data_lines(path: Path) -> list[str]:
    return [l for l in path.read_text().splitlines() if l and not l.startswith("#")]


def without_times(summary: dict) -> dict:
    """The figures that depend on the games only (time per move is measured, not played)."""
    return {k: v for k, v in summary.items() if k != "time_per_move"}


def test_sprt_accepts_depth_4_over_depth_1_as_the_local_match_does(qi, cluster, tmp_path):
    cfg = SprtConfig(
        base=qi,
        test=qi,
        game="gomoku",
        sprt="elo0=0,elo1=200",
        time=("--movetime", "60s"),
        seed=11,
        pairs_per_task=2,
        max_pairs=40,
        base_options=["max_depth=1"],
        test_options=["max_depth=4"],
        extra=["--size", "15"],
        crash_pair=0,
    )
    lines: list[str] = []
    r = run_sprt(cfg, tmp_path / "ray", log=lines.append)
    assert r.verdict == "H1", lines
    assert r.summary["wins"] > r.summary["losses"]
    assert len(lines) == r.tasks_done
    # The task of pairs 0..2 was killed once and retried.
    assert (tmp_path / "ray" / "crash-marker").exists()
    assert any(f.name == "pairs-000000-000002.jsonl" for f in r.files)
    # The verdict and every figure equal `qi match merge` over the same files.
    assert merge(qi, r.files, cfg.sprt) == r.summary
    # No pair counted twice: every file holds its own pairs, each once.
    seen = []
    for f in r.files:
        start, end = map(int, re.findall(r"\d+", f.name))
        pairs = [json.loads(l)["pair"] for l in f.read_text().splitlines()]
        assert pairs == sorted(pairs) and set(pairs) <= set(range(start, end)), f
        seen += pairs
    assert len(seen) == len(set(seen)) == r.summary["pair_lines"]
    # The same pairs played by local `qi match --pairs` give the same games and figures.
    local = []
    for f in r.files:
        start, end = map(int, re.findall(r"\d+", f.name))
        out = tmp_path / f"local-{start}.jsonl"
        subprocess.run(match_argv(cfg, qi, qi, start, end, str(out)), check=True, capture_output=True)
        local.append(out)
    assert without_times(merge(qi, local, cfg.sprt)) == without_times(r.summary)


def test_selfplay_shards_equal_one_local_run_and_a_killed_shard_counts_once(qi, cluster, tmp_path):
    args = ["--depth", "2", "--size", "15"]
    cfg = SelfplayConfig(qi=qi, game="gomoku", seed=5, games=8, shard_games=2, args=args, crash_shard=4)
    m = run_selfplay(cfg, tmp_path / "ray", log=lambda _: None)
    assert (tmp_path / "ray" / "crash-marker").exists()
    assert [s["first_game"] for s in m["shards"]] == [0, 2, 4, 6]
    # The merged counts are the sums of the shards'.
    assert m["games"] == sum(s["played"] for s in m["shards"]) == 8
    assert m["positions"] == sum(s["positions"] for s in m["shards"])
    assert m["results"] == [sum(s["results"][i] for s in m["shards"]) for i in range(3)]
    merged = data_lines(tmp_path / "ray" / "positions.txt")
    assert len(merged) == m["positions"] > 0
    # One local run of all eight games (two threads) writes the same positions, in order.
    one = tmp_path / "one.txt"
    subprocess.run(
        [qi, "selfplay", "gomoku", *args, "--seed", "5", "--games", "8", "--threads", "2", "--out", str(one)],
        check=True,
        capture_output=True,
    )
    assert merged == data_lines(one)
    assert json.loads((tmp_path / "ray" / "manifest.json").read_text()) == m


def test_usage_errors_are_refused_before_anything_starts(tmp_path, capsys):
    from qi_ray.__main__ import main

    out = tmp_path / "out"
    common = ["--game", "gomoku", "--movetime", "1s", "--sprt", "elo0=0,elo1=5", "--out", str(out)]
    assert main(["sprt", "--base", str(tmp_path / "none"), "--test", str(tmp_path / "none"), *common]) == 2
    assert "is not an executable file" in capsys.readouterr().err
    assert not out.exists()
    (out / "x").mkdir(parents=True)
    exe = QI or "/bin/true"
    assert main(["sprt", "--base", exe, "--test", exe, *common]) == 2
    assert "is not an empty folder" in capsys.readouterr().err
