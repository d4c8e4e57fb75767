"""One runner interface: serial in this process, a process pool, or Dask."""

from __future__ import annotations

from compliance.service_layer import runners


def test_one_worker_runs_serially_and_more_on_a_pool_or_on_dask():
    assert isinstance(runners.runner_for(1, None, None), runners.SerialRunner)
    assert runners.runner_for(3, None, None) == runners.PoolRunner(3, None)
    assert runners.runner_for(2, "local", None) == runners.DaskRunner("local", 2, None)


def test_the_serial_runner_judges_in_file_order_and_notes_the_players(rule_book):
    from compliance.service_layer.audit import AuditOptions, make_auditor
    from tests.conftest import SAMPLES

    players = {}
    path = str(SAMPLES / "douniu.jsonl")
    judged = list(
        runners.SerialRunner().judge(make_auditor(rule_book, AuditOptions()), [path], players)
    )
    assert [s.source_line for s in judged] == sorted(s.source_line for s in judged)
    expected: dict[str, set[str]] = {}
    for s in judged:
        expected.setdefault(s.platform, set()).update(
            p.id for p in s.players if p.metrics is not None
        )
    assert players == expected and expected
