"""The fake unit of work: in-memory repositories and a `committed` flag."""

from __future__ import annotations

from compliance.domain.duties.rows import DutyBook
from compliance.domain.ruleedit import overlay
from compliance.domain.rules import RuleBook


class FakeRules:
    def __init__(self, book: RuleBook | None = None):
        self.book = book
        self.saved: list[tuple] = []

    def has_any(self):
        return self.book is not None

    def load(self):
        return self.book

    def digest(self):
        return "0" * 64

    def hold_lock(self):
        self.locked = True

    def save(self, book, actor, reason):
        self.saved.append((book, actor, reason))
        self.book = overlay(self.book, book) if self.book else book
        return {"threshold_bands": (0, len(book.bands))}


class FakeRuns:
    def __init__(self):
        self.runs: list[dict] = []
        self.sessions: dict[tuple[str, str], object] = {}
        self.session_runs: dict[tuple[str, str], int] = {}
        self.rejects: list = []
        self.repeated: dict[int, int] = {}
        self.manifests: dict[int, dict] = {}

    def start(self, files, as_of, options):
        self.runs.append({"files": files, "as_of": as_of, "options": options})
        return len(self.runs)

    def finish(self, run_id, sessions, rejects, summary):
        self.runs[run_id - 1].update(sessions=sessions, rejects=rejects, summary=summary)

    def store_sessions(self, run_id, batch):
        for s in batch:
            if self.session_runs.get(s.key) == run_id:
                self.repeated[run_id] = self.repeated.get(run_id, 0) + 1
            self.sessions[s.key] = s
            self.session_runs[s.key] = run_id

    def prepare_sessions(self, run_id, batch):
        return run_id, list(batch)

    def write_prepared(self, prepared):
        self.store_sessions(*prepared)

    def store_rejects(self, run_id, rejects):
        self.rejects.extend(rejects)

    def count_stored(self, run_id):
        return sum(1 for run in self.session_runs.values() if run == run_id)

    def count_repeated(self, run_id):
        return self.repeated.get(run_id, 0)

    def refresh_statistics(self):
        pass

    def stored_sessions(self):
        return []

    def store_manifest(self, run_id, manifest):
        self.manifests[run_id] = manifest

    def manifest(self, run_id):
        return self.manifests.get(run_id)

    def digests(self, run_id, platforms, read_from, stored=None):
        return {}

    def stored_digests(self, run_id, platforms, read_from):
        return {}

    def count_sessions(self):
        return 0


class FakeWindows:
    def __init__(self):
        self.findings: list = []

    def figures(self, platforms, start, end, run_id=None):
        return []

    def ledgers(
        self, platforms, end, read_from=None, run_id=None, starts=None, kinds=(), share=(0, 1)
    ):
        return []

    def sessions_behind(self, figures):
        return []

    def store_findings(self, run_id, findings):
        self.findings.extend(findings)

    def scope(self):
        return set(), None


class FakeTrail:
    def verify(self):
        raise NotImplementedError

    def entries(self, limit=None):
        return []


class FakeReports:
    def latest_run(self):
        raise NotImplementedError

    def descendants(self, code):
        return (code,)

    def fetch(self, query):
        raise NotImplementedError


class FakeReview:
    """No waiver and no review: an audit's end reads nothing more."""

    def waivers(self):
        return []

    def reviews(self):
        return {}


class FakeDuties:
    """The duty rows and duty findings, in memory."""

    def __init__(self):
        self.book = None
        self.stored: dict[int, list] = {}

    def has_any(self):
        return self.book is not None

    def save(self, book, actor, reason):
        self.book = book
        return len(book.duties), 0

    def delete(self, ids, actor, reason):
        kept = [d for d in self.book.duties if d.id not in ids]
        deleted, self.book = len(self.book.duties) - len(kept), DutyBook(kept)
        return deleted

    def load(self):
        return self.book

    def store_findings(self, run_id, findings):
        self.stored.setdefault(run_id, []).extend(findings)

    def findings(self, run_id):
        return list(self.stored.get(run_id, []))

    def statuses(self, run_id):
        return None

    def session_results(self, run_id):
        return iter(())


class FakeUnitOfWork:
    def __init__(self, book: RuleBook | None = None):
        self.committed = False
        self.duties = FakeDuties()
        self.rules = FakeRules(book)
        self.runs = FakeRuns()
        self.windows = FakeWindows()
        self.trail = FakeTrail()
        self.reports = FakeReports()
        self.review = FakeReview()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass

    def commit(self):
        self.committed = True

    def rollback(self):
        pass

    def worker_factory(self):
        return None
