"""Running qi as a child of a Ray task.

The child is tied to the task's worker process: on Linux it gets SIGTERM when the worker dies
(``prctl(PR_SET_PDEATHSIG)``), so a task cancelled by the driver (which kills the worker) or a
worker that crashes leaves no ``qi match`` behind; ``qi match`` in turn kills its engines on
SIGTERM. Elsewhere the child outlives a killed worker until it finishes.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):
        pass


class QiFailed(RuntimeError):
    """qi exited with an error: a bad command, an engine that could not start, a full disk."""


def run(
    argv: list[str], *, crash_marker: str | None = None, watch: Path | None = None
) -> tuple[str, str]:
    """Runs ``argv`` and returns its standard output and its error output.

    ``crash_marker`` (for tests of Ray's retries): when that file does not exist yet, it is
    created, the child runs until ``watch`` has grown past 200 bytes (or 5 s), then the child and
    this whole worker process are killed, as a machine failing mid-task would be. The task's
    retry finds the marker and runs normally.

    Raises :class:`QiFailed` with qi's error output when qi exits with a non-zero status.
    """
    child = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_die_with_parent if os.name == "posix" else None,
    )
    if crash_marker is not None and not os.path.exists(crash_marker):
        Path(crash_marker).write_text(f"worker {os.getpid()} killed mid-task\n")
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and child.poll() is None:
            if watch is not None and watch.exists() and watch.stat().st_size > 200:
                break
            time.sleep(0.02)
        child.kill()
        os._exit(1)
    out, err = child.communicate()
    if child.returncode != 0:
        raise QiFailed(f"{' '.join(argv)} exited with {child.returncode}: {err.strip()}")
    return out, err
