"""旁算: what a parallel run makes beside the driver's window judging, in forked processes.

Once the workers have stored every session, the run's session findings and the
stored sessions its windows could sum no longer change; their digests (for the
manifest) are read in one forked process from the database while the driver
judges the windows, which is what stays serial of a run with workers, and so are
the digests of the input files, read once the workers are done with them. The first
share of the players' windows is judged in another (window_judging.py), the rest by the
driver. A failure there only means the driver makes them itself afterwards.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import date
from typing import Any

from compliance.domain.windows import WindowFinding
from compliance.service_layer.manifest import input_digests
from compliance.service_layer.runners import die_with_parent
from compliance.service_layer.unit_of_work import UnitOfWorkFactory
from compliance.service_layer.window_judging import (
    KINDS_ASIDE,
    SHARE_ASIDE,
    WindowRun,
    judged_windows,
)


class DigestsAside:
    """The stored digests of a run, being made in a forked process; with `windows`, the
    first share of its players' window findings in a second."""

    def __init__(
        self,
        store: UnitOfWorkFactory,
        run_id: int,
        platforms: set[str],
        read_from: date | None,
        inputs: list[str] | None = None,
        names: Mapping[str, str] | None = None,
        windows: WindowRun | None = None,
    ):
        context = multiprocessing.get_context("fork")
        self._pool = ProcessPoolExecutor(
            1 if windows is None else 2,
            mp_context=context,
            initializer=die_with_parent,
            initargs=(os.getpid(),),
        )
        self._windows: Future | None = None
        if windows is not None:
            self._windows = self._pool.submit(players_windows, store, windows)
        self._future: Future = self._pool.submit(
            stored_digests, store, run_id, set(platforms), read_from
        )
        self._inputs: Future | None = None
        if inputs is not None:
            self._inputs = self._pool.submit(input_digests, inputs, dict(names or {}))

    def players_windows(self) -> list[WindowFinding] | None:
        """The first share of the players' window findings, in the order the driver would
        judge them, or None if not judged here or the process could not judge them."""
        try:
            return self._windows.result() if self._windows is not None else None
        except Exception:  # the driver judges them itself
            return None

    def result(self) -> dict[str, str] | None:
        """The digests, or None if the process could not make them."""
        try:
            return self._future.result()
        except Exception:  # the driver makes them itself
            return None
        finally:
            if self._inputs is None:
                self._pool.shutdown(wait=False)

    def inputs(self) -> list[dict[str, Any]] | None:
        """The input files' digests (`manifest.input_digests`), or None if not made here."""
        try:
            return self._inputs.result() if self._inputs is not None else None
        except Exception:  # the driver makes them itself
            return None
        finally:
            self._pool.shutdown(wait=False)  # it ends while the driver stores the manifest

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def players_windows(store: UnitOfWorkFactory, run: WindowRun) -> list[WindowFinding]:
    with store() as uow:
        return list(judged_windows(uow, run, KINDS_ASIDE, SHARE_ASIDE))


def stored_digests(
    store: UnitOfWorkFactory, run_id: int, platforms: set[str], read_from: date | None
) -> dict[str, str]:
    with store() as uow:
        return uow.runs.stored_digests(run_id, platforms, read_from)
