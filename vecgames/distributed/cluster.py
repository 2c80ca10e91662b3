"""Connecting to a Ray cluster and mapping a function over shards, with a progress bar,
retries of shards whose worker died, and each shard's result taken exactly once."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Sequence
from typing import Any

from ..core.simulation import even_bounds
from ..core.validation import check_int

CONNECT_TIMEOUT_S = 5.0


def _ray():
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('backend="ray" needs Ray: pip install -e ".[ray]"') from error
    return ray


def check_address(address: Any) -> tuple[str, int] | None:
    """The (host, port) of a remote address; None for None, "auto" and "local"."""
    if address is None:
        return None
    if not isinstance(address, str):
        raise TypeError(f"address must be a str ('auto', 'local', 'host:port' or "
                        f"'ray://host:port') or None, got {type(address).__name__}")
    if address in ("auto", "local"):
        return None
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"address must be 'host:port', 'ray://host:port', 'auto' or "
                         f"'local', got {address!r}")
    return host.strip("[]"), int(port)


def _check_reachable(address: str, timeout: float) -> None:
    """Fail fast on an address nothing listens at (``ray.init`` would wait for minutes)."""
    host, port = check_address(address) or ("", 0)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as error:
        raise ConnectionError(
            f"cannot reach the Ray cluster at {address!r} ({error}); start one with "
            f"`ray start --head` on that machine, or leave address unset to run a local "
            f"Ray on this one") from error


def connect(address: str | None = None, *, timeout: float = CONNECT_TIMEOUT_S) -> Any:
    """Connect to Ray once per process and return the ``ray`` module.

    ``address``: None does what ``ray.init()`` does (the cluster in ``RAY_ADDRESS`` if set,
    else one started on this machine with ``ray start``, else a private Ray on this machine);
    ``"local"`` always a private one; ``"auto"`` the one started here with ``ray start``;
    ``"host:port"`` / ``"ray://host:port"`` a remote one. A remote address (given, or in
    ``RAY_ADDRESS``) is checked first: nothing listening is a ``ConnectionError`` within
    ``timeout`` seconds, where ``ray.init`` would wait for minutes. A process already
    connected keeps its connection (an address given is still checked).
    """
    ray = _ray()
    if address is not None and check_address(address) is not None:  # checked, connected or not
        _check_reachable(address, timeout)
    if ray.is_initialized():
        return ray
    from_env = os.environ.get("RAY_ADDRESS") or None
    if address is None and from_env not in (None, "auto", "local"):
        _check_reachable(from_env, timeout)
    try:
        ray.init(address=address, log_to_driver=False)
    except ConnectionError as error:
        raise ConnectionError(f"cannot reach a Ray cluster at {address!r}: {error}") from error
    return ray


SHARDS_PER_SLOT = 4  # a few shards per task slot even out uneven workers and show progress


def shard_count(address: str | None, num_shards: int | None, cpus_per_shard: int,
                most: int | None = None) -> tuple[int, int]:
    """Check the sharding options, connect, and return ``(num_shards, cpus_per_shard)``:
    ``num_shards`` as given, else ``SHARDS_PER_SLOT`` per task slot (cluster CPUs /
    ``cpus_per_shard``), at most ``most`` (and at least 1)."""
    cpus_per_shard = check_int(cpus_per_shard, "cpus_per_shard", 1, 1024)
    if num_shards is not None:
        num_shards = check_int(num_shards, "num_shards", 1, 2**31 - 1)
    check_address(address)
    connect(address)
    if cpus_per_shard > cluster_cpus():  # such a task would wait forever for its CPUs
        raise ValueError(f"cpus_per_shard must be at most the cluster's {cluster_cpus()} "
                         f"CPUs, got {cpus_per_shard}")
    if num_shards is None:
        num_shards = SHARDS_PER_SLOT * max(cluster_cpus() // cpus_per_shard, 1)
        if most is not None:
            num_shards = max(min(num_shards, most), 1)
    return num_shards, cpus_per_shard


def cluster_cpus() -> int:
    """CPUs the connected cluster has in all."""
    return max(int(_ray().cluster_resources().get("CPU", 1)), 1)


def split_evenly(items: Sequence[Any], parts: int) -> list[Any]:
    """``items`` in ``parts`` contiguous, non-empty slices (fewer if there are fewer items),
    their sizes differing by at most one."""
    parts = min(check_int(parts, "parts", 1), len(items))
    bounds = even_bounds(len(items), parts)
    return [items[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def run_sharded(fn: Callable[[Any], Any], shards: Sequence[Any], *, sizes: Sequence[int],
                cpus_per_shard: int = 1, max_retries: int = 3, progress: bool = True,
                unit: str = "games", env_vars: dict[str, str] | None = None) -> list[Any]:
    """``[fn(shard) for shard in shards]``, each call a Ray task; results in shard order.

    A shard whose worker process dies (killed, out of memory, node lost) is run again, up to
    ``max_retries`` times; an exception raised by ``fn`` itself is not retried but raised
    here. Each shard's result is taken once, whatever the retries. ``sizes`` (work per shard)
    drive the progress bar; ``env_vars`` are set in the workers that run the shards (Ray
    starts workers of their own for them).
    """
    ray = _ray()
    cpus_per_shard = check_int(cpus_per_shard, "cpus_per_shard", 1)
    max_retries = check_int(max_retries, "max_retries", 0)
    task = ray.remote(_shard_task).options(
        num_cpus=cpus_per_shard, max_retries=max_retries,
        runtime_env={"env_vars": dict(env_vars)} if env_vars else None)
    refs = [task.remote(fn, shard, cpus_per_shard) for shard in shards]
    index = {ref: k for k, ref in enumerate(refs)}
    results: list[Any] = [None] * len(refs)
    bar = _progress_bar(sum(sizes), unit) if progress else None
    pending = list(refs)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                k = index[ref]
                results[k] = ray.get(ref)
                if bar is not None:
                    bar.update(sizes[k])
    except BaseException:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if bar is not None:
            bar.close()
    return results


def _shard_task(fn: Callable[[Any], Any], shard: Any, threads: int) -> Any:
    """A shard on the worker: as many Numba threads as CPUs the task holds."""
    from ..core.simulation import max_threads, numba_threads

    with numba_threads(min(threads, max_threads())):
        return fn(shard)


def _progress_bar(total: int, unit: str):
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the ray extra
        return None
    return tqdm(total=total, unit=f" {unit}", unit_scale=True, dynamic_ncols=True)
