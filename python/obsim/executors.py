"""Where the runs of a sweep execute.

- :class:`InlineExecutor`: in this process, one after the other (``--jobs 1``).
- :class:`LocalExecutor`: a local process pool, all cores by default
  (``--jobs N``); worker processes are spawned, not forked.
- :class:`DaskExecutor`: a Dask distributed cluster (``pip install
  'obsim[dask]'``): ``--executor dask --scheduler tcp://HOST:8786``, or a
  ``LocalCluster`` on this machine when no address is given. On SLURM/PBS
  start the scheduler and workers with dask-jobqueue (see README).

Every executor calls the same task function on the same task dicts; each
worker writes its run into the result store itself (the store must be on a
file system all workers see), so the results do not depend on the executor.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

Task = Dict[str, Any]
Outcome = Dict[str, Any]
TaskFn = Callable[[Task], Outcome]

EXECUTORS = ("local", "dask")
"""Names accepted by ``--executor``."""


def default_jobs() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


class Executor:
    """Runs ``fn(task)`` for every task and yields the outcomes as they end."""

    name = "executor"

    def run(self, fn: TaskFn, tasks: Sequence[Task]) -> Iterator[Outcome]:  # pragma: no cover
        raise NotImplementedError

    def describe(self) -> str:
        return self.name

    def close(self) -> None:
        """Release workers (idempotent)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class InlineExecutor(Executor):
    """One run at a time in this process (debugging, ``--jobs 1``)."""

    name = "inline"

    def run(self, fn: TaskFn, tasks: Sequence[Task]) -> Iterator[Outcome]:
        for t in tasks:
            yield fn(t)


class LocalExecutor(Executor):
    """A pool of ``jobs`` spawned worker processes."""

    name = "local"

    def __init__(self, jobs: Optional[int] = None) -> None:
        self.jobs = max(1, jobs or default_jobs())
        self._pool: Any = None

    def describe(self) -> str:
        return f"local process pool, {self.jobs} worker{'s' if self.jobs != 1 else ''}"

    def run(self, fn: TaskFn, tasks: Sequence[Task]) -> Iterator[Outcome]:
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        if not tasks:
            return
        self._pool = ProcessPoolExecutor(
            max_workers=min(self.jobs, len(tasks)), mp_context=multiprocessing.get_context("spawn")
        )
        # Keep a bounded window of submitted tasks so that an interrupt does
        # not leave thousands queued, and results stream back in order of end.
        pending = set()
        it = iter(tasks)
        window = self.jobs * 2
        try:
            for t in it:
                pending.add(self._pool.submit(fn, t))
                if len(pending) >= window:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        outcome = fut.result()
                    except BrokenProcessPool as e:
                        raise RuntimeError(
                            "a worker process died. If run_experiment is called from a script, guard the "
                            "call with `if __name__ == '__main__':` (workers are spawned and import the "
                            "main module); code read from stdin cannot use the pool: pass jobs=1"
                        ) from e
                    yield outcome
                    nxt = next(it, None)
                    if nxt is not None:
                        pending.add(self._pool.submit(fn, nxt))
        finally:
            for fut in pending:
                fut.cancel()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskExecutor(Executor):
    """Dask distributed: a running scheduler at ``scheduler``, or a
    ``LocalCluster`` of ``jobs`` single-threaded worker processes."""

    name = "dask"

    def __init__(self, scheduler: Optional[str] = None, jobs: Optional[int] = None) -> None:
        try:
            from distributed import Client, LocalCluster
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("the dask executor needs dask distributed: pip install 'obsim[dask]'") from e
        self.scheduler = scheduler
        self._cluster: Any = None
        self._client: Any = None
        if scheduler:
            self._client = Client(scheduler)  # type: ignore[no-untyped-call]
        else:
            self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=max(1, jobs or default_jobs()),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            self._client = Client(self._cluster)  # type: ignore[no-untyped-call]

    def describe(self) -> str:
        if self.scheduler:
            return f"dask scheduler {self.scheduler}"
        n = len(self._cluster.workers) if self._cluster is not None else 0
        return f"dask LocalCluster, {n} workers"

    def run(self, fn: TaskFn, tasks: Sequence[Task]) -> Iterator[Outcome]:
        from distributed import as_completed

        futures: List[Any] = [
            self._client.submit(fn, t, key=f"obsim-run-{t['key']}", pure=False) for t in tasks
        ]
        try:
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                yield fut.result()
        finally:
            self._client.cancel([f for f in futures if not f.done()])

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def make_executor(
    kind: str = "local", jobs: Optional[int] = None, scheduler: Optional[str] = None
) -> Executor:
    """The executor called ``kind`` (``"local"`` or ``"dask"``); ``local``
    with ``jobs=1`` runs inline."""
    if kind == "local":
        if scheduler:
            raise ValueError("--scheduler is only for --executor dask")
        if jobs == 1:
            return InlineExecutor()
        return LocalExecutor(jobs)
    if kind == "dask":
        return DaskExecutor(scheduler, jobs)
    raise ValueError(f"unknown executor {kind!r}; expected one of {', '.join(EXECUTORS)}")


__all__ = [
    "EXECUTORS",
    "DaskExecutor",
    "Executor",
    "InlineExecutor",
    "LocalExecutor",
    "default_jobs",
    "make_executor",
]
