"""A run of nothing but rejects stores them in bounded batches (issue #16)."""

from __future__ import annotations

from compliance.service_layer import audit as services
from tests.fakes import FakeRuns, FakeUnitOfWork


class CountingRuns(FakeRuns):
    def __init__(self):
        super().__init__()
        self.reject_batches: list[int] = []

    def store_rejects(self, run_id, rejects):
        rejects = list(rejects)
        if rejects:
            self.reject_batches.append(len(rejects))
        super().store_rejects(run_id, rejects)


def test_rejects_are_stored_in_batches_of_their_own(rule_book, tmp_path):
    path = tmp_path / "rejects.jsonl"
    path.write_text("{not json\n" * 2500)
    uow = FakeUnitOfWork(rule_book)
    uow.runs = CountingRuns()
    summary = services.audit(uow, [str(path)], services.AuditOptions())
    assert summary.rejects == len(uow.runs.rejects) == 2500
    assert uow.runs.reject_batches == [1000, 1000, 500]
    assert len(summary.reject_list) == 100
