"""旁算: the digests of what a parallel run stored, made beside the window judging.

Once the workers have stored every session, the run's session findings and the
stored sessions its windows could sum no longer change; their digests (for the
manifest) are read in one forked process from the database while the driver
judges the windows, which is what stays serial of a run with workers, and so are
the digests of the input files, read once the workers are done with them. A failure
there only means the driver makes them itself afterwards.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from datetime import date
from typing import Any

from compliance.service_layer.manifest import input_digests
from compliance.service_layer.runners import die_with_parent
from compliance.service_layer.unit_of_work import UnitOfWorkFactory


class DigestsAside:
    """The stored digests of a run, being made in a forked process."""

    def __init__(
        self,
        store: UnitOfWorkFactory,
        run_id: int,
        platforms: set[str],
        read_from: date | None,
        inputs: list[str] | None = None,
        names: Mapping[str, str] | None = None,
    ):
        context = multiprocessing.get_context("fork")
        self._pool = ProcessPoolExecutor(
            1, mp_context=context, initializer=die_with_parent, initargs=(os.getpid(),)
        )
        self._future: Future = self._pool.submit(
            stored_digests, store, run_id, set(platforms), read_from
        )
        self._inputs: Future | None = None
        if inputs is not None:
            self._inputs = self._pool.submit(input_digests, inputs, dict(names or {}))

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


def stored_digests(
    store: UnitOfWorkFactory, run_id: int, platforms: set[str], read_from: date | None
) -> dict[str, str]:
    with store() as uow:
        return uow.runs.stored_digests(run_id, platforms, read_from)
