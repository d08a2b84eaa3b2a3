"""Where simulated fights run: in this process, in local worker processes, or on Dask.

Every executor takes the same tasks (a :class:`~fracas.sim.runner.FightSpec`, a
seed and a range of fight indices) and yields ``(task index, ChunkSummary)``
pairs as they complete.  Since fight ``i`` depends only on ``(seed, i)`` and
summaries merge by addition, all executors give identical results.

Dask is imported only when :class:`DaskExecutor` is used, so ``fracas.sim``
works without the ``dask`` extra.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, Protocol

from fracas.core.errors import FracasError
from fracas.sim.fights import FightSpec, run_chunk
from fracas.sim.stats import ChunkSummary

__all__ = [
    "MAX_WORKERS",
    "DaskExecutor",
    "Executor",
    "ExecutorError",
    "InlineExecutor",
    "LocalExecutor",
    "make_executor",
]

Task = tuple[FightSpec, int, int, int]


#: More local worker processes than this is a typo, not a machine.
MAX_WORKERS = 256


class ExecutorError(FracasError):
    """The executor asked for cannot be set up (bad worker count, unknown kind, no scheduler)."""

    exit_code = 2


class Executor(Protocol):
    """Runs chunks of fights and yields their summaries as they complete."""

    name: str
    workers: int

    def run_chunks(self, tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkSummary]]:
        """Yield ``(index into tasks, summary)`` for every task, in completion order."""
        ...


class InlineExecutor:
    """Runs every chunk in this process, one after the other (one worker)."""

    name = "inline"
    workers = 1

    def run_chunks(self, tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkSummary]]:
        for index, task in enumerate(tasks):
            yield index, run_chunk(*task)

    def __enter__(self) -> InlineExecutor:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class LocalExecutor:
    """Local worker processes (``fork`` where available), one per core by default.

    With one worker the chunks run in this process: no pickling, no start-up cost.
    Use it as a context manager so the pool is shut down.
    """

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        count = workers if workers is not None else (os.cpu_count() or 1)
        if not 1 <= count <= MAX_WORKERS:
            raise ExecutorError(f"the number of workers must be from 1 to {MAX_WORKERS}, "
                                f"got {count}")
        self.workers = count
        self._pool: ProcessPoolExecutor | None = None

    def _ensure_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            # fork keeps rule sets registered by hand (tests, plug-ins) in the workers.
            context = multiprocessing.get_context("fork" if "fork" in methods else None)
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        return self._pool

    def run_chunks(self, tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkSummary]]:
        if self.workers == 1:
            yield from InlineExecutor().run_chunks(tasks)
            return
        pool = self._ensure_pool()
        pending: dict[Future[ChunkSummary], int] = {
            pool.submit(run_chunk, *task): index for index, task in enumerate(tasks)
        }
        try:
            while pending:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        finally:
            for future in pending:
                future.cancel()

    def close(self) -> None:
        """Shut the worker processes down."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> LocalExecutor:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class DaskExecutor:
    """Chunks as tasks on a Dask cluster.

    Args:
        scheduler: the scheduler address (``tcp://host:8786``); ignored when
            ``client`` is given.
        client: an existing ``distributed.Client`` (tests pass one on a LocalCluster).

    The workers must be able to import fracas and the rule set; a rule set that is
    registered by hand rather than through an entry point needs a cluster whose
    workers share this process (``LocalCluster(processes=False)``) or import it.
    """

    name = "dask"

    def __init__(self, scheduler: str | None = None, client: Any = None) -> None:
        try:
            from distributed import Client
        except ImportError as exc:
            raise ExecutorError(
                "the Dask executor needs its extra: pip install 'fracas[dask]'"
            ) from exc
        self._owns_client = client is None
        if client is None:
            if not scheduler:
                raise ExecutorError("the Dask executor needs --scheduler ADDRESS")
            try:
                client = Client(scheduler, timeout=10)  # type: ignore[no-untyped-call]
            except OSError as exc:
                raise ExecutorError(
                    f"cannot reach the Dask scheduler at {scheduler}: {exc}"
                ) from None
        self.client = client
        threads = client.nthreads()
        self.workers = max(1, sum(threads.values()))

    def run_chunks(self, tasks: Sequence[Task]) -> Iterator[tuple[int, ChunkSummary]]:
        from distributed import as_completed

        futures = [self.client.submit(run_chunk, *task, pure=False) for task in tasks]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            yield index[future.key], future.result()

    def close(self) -> None:
        """Close the client if this executor opened it."""
        if self._owns_client:
            self.client.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def make_executor(kind: str, workers: int | None = None,
                  scheduler: str | None = None) -> LocalExecutor | DaskExecutor:
    """The executor a command line asked for: ``local`` (default) or ``dask``."""
    if kind == "local":
        return LocalExecutor(workers)
    if kind == "dask":
        return DaskExecutor(scheduler)
    raise ExecutorError(f"unknown executor {kind!r}: use 'local' or 'dask'")
