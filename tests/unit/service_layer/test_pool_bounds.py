"""The pool runner keeps a bounded number of partitions in flight (issue #16)."""

from __future__ import annotations

from concurrent.futures import Future

from compliance.service_layer import runners


class InlinePool:
    """Stands in for the process pool: counts partitions submitted and not yet taken."""

    most_in_flight = 0

    def __init__(self, *args, **kwargs):
        self.in_flight = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def shutdown(self, wait=True, cancel_futures=False):
        pass

    def submit(self, fn, task):
        self.in_flight += 1
        InlinePool.most_in_flight = max(InlinePool.most_in_flight, self.in_flight)
        pool = self

        class Taken(Future):
            def result(self, timeout=None):
                pool.in_flight -= 1
                return ([task[1]], {})

        return Taken()


def test_at_most_two_partitions_per_worker_wait_for_the_driver(monkeypatch, tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"{}\n" * 400_000)
    monkeypatch.setattr(runners, "ProcessPoolExecutor", InlinePool)
    monkeypatch.setattr(runners, "TAIL_BYTES", 1000)
    tasks = runners._tasks([str(path)], 2, 1, False)
    starts = list(runners.PoolRunner(2).judge(None, [str(path)], {}))
    assert len(tasks) > 20
    assert starts == [t[1] for t in tasks]
    assert InlinePool.most_in_flight == runners.AHEAD * 2
