"""Connecting to a Ray cluster with this package available on every worker."""

from __future__ import annotations

from pathlib import Path

import ray


def connect(address: str | None = None, num_cpus: int | None = None) -> None:
    """Connects the driver to a cluster and ships this package to its workers.

    ``address``: ``None`` joins the cluster ``ray start --head`` started on this machine, or
    starts a private one for this process when there is none (``num_cpus`` sizes it);
    ``"auto"`` requires a running one; ``"ray://HOST:10001"`` is a remote cluster's Ray Client
    address; ``"HOST:6379"`` a head node's address. Workers receive the ``qi_ray`` package through Ray's
    runtime environment (``py_modules``), so nothing but Python and Ray must be installed on them.
    """
    package = Path(__file__).resolve().parent
    ray.init(
        address=address,
        num_cpus=num_cpus if address is None else None,
        runtime_env={"py_modules": [str(package)]},
        include_dashboard=False,
        log_to_driver=False,
    )
