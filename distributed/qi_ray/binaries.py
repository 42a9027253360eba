"""Shipping qi binaries to Ray workers.

The driver reads each binary once and puts its bytes in Ray's object store; a worker writes
them to a cache folder named by the binary's SHA-256 (``$QI_RAY_CACHE``, default
``<tempdir>/qi-ray-bin``) the first time a task needs them. So workers on other machines need
no shared file system and no copy of the project, and two builds never mix up.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import ray


@dataclass(frozen=True)
class Binary:
    """A qi binary as the tasks receive it: its name, its hash and its bytes in the object store."""

    name: str
    sha256: str
    data: "ray.ObjectRef"

    @staticmethod
    def ship(path: str | os.PathLike, name: str) -> "Binary":
        """Reads the executable at ``path`` and puts it in the object store.

        Raises ``FileNotFoundError`` when there is no file and ``PermissionError`` when it is
        not executable.
        """
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"no qi binary at {path}")
        if not os.access(path, os.X_OK):
            raise PermissionError(f"{path} is not executable")
        data = path.read_bytes()
        return Binary(name=name, sha256=hashlib.sha256(data).hexdigest(), data=ray.put(data))

    def local_path(self) -> Path:
        """The binary on this machine (written on first use, then reused): call in a task."""
        cache = Path(os.environ.get("QI_RAY_CACHE", Path(tempfile.gettempdir()) / "qi-ray-bin"))
        target = cache / self.sha256 / "qi"
        if target.exists():
            return target
        target.parent.mkdir(parents=True, exist_ok=True)
        data = ray.get(self.data)
        if hashlib.sha256(data).hexdigest() != self.sha256:
            raise RuntimeError(f"binary {self.name}: the bytes received do not match its hash")
        # Written under a unique name and renamed: tasks on one machine may race.
        fd, tmp = tempfile.mkstemp(dir=target.parent)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o755)
        os.replace(tmp, target)
        return target


def sha256_of(path: str | os.PathLike) -> str:
    """The SHA-256 of a file, hex."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()
