"""A fake unit of work: lists in memory and a `committed` flag."""

from __future__ import annotations

from compliance.domain.rules import RuleBook


class FakeUnitOfWork:
    def __init__(self, book: RuleBook | None = None):
        self.book = book
        self.committed = False
        self.runs: list[dict] = []
        self.sessions: dict[tuple[str, str], object] = {}
        self.session_runs: dict[tuple[str, str], int] = {}
        self.rejects: list = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def commit(self):
        self.committed = True

    def has_rules(self):
        return self.book is not None

    def load_rules(self):
        return self.book

    def save_rules(self, book):
        self.book = book
        return {"all": (1, 0)}

    def start_run(self, files, as_of, options):
        self.runs.append({"files": files, "as_of": as_of, "options": options})
        return len(self.runs)

    def finish_run(self, run_id, sessions, rejects, summary):
        self.runs[run_id - 1].update(sessions=sessions, rejects=rejects, summary=summary)

    def store_sessions(self, run_id, batch):
        for s in batch:
            self.sessions[s.key] = s
            self.session_runs[s.key] = run_id

    def refresh_statistics(self):
        pass

    def stored_of_run(self, run_id):
        return sum(1 for run in self.session_runs.values() if run == run_id)

    def store_rejects(self, run_id, rejects):
        self.rejects.extend(rejects)

    def window_figures(self, platforms, start, end, run_id=None):
        return []

    def sessions_behind(self, figures):
        return []

    def store_window_findings(self, run_id, findings):
        self.window_findings = list(findings)
