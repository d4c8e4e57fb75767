"""审计: from a log line to a judged session, with no database.

`audit_file` is the one function per partition (a file, or a byte range of
one): it yields every session judged, or the reject it became. The driver
stores the results; a process pool or a distributed engine runs the same
function on other partitions.
"""

from __future__ import annotations

import gc
import zlib
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date

from compliance.domain.audited import AuditedPlayer, AuditedSession
from compliance.domain.claims import is_prize_only, tournament_in_yuan
from compliance.domain.classifier import Classifier, ClassifierOptions, PlayerFacts, SessionFacts
from compliance.domain.findings import ThresholdFinding
from compliance.domain.metrics import (
    PlayerMetrics,
    SessionMetrics,
    add_entry_fees,
    player_metrics,
    session_metrics,
    tally,
    to_yuan,
)
from compliance.domain.rounds import SessionTally
from compliance.domain.rules import RuleBook
from compliance.domain.ruleset import Resolver
from compliance.domain.scene import scene_total
from compliance.domain.storable import NUL, check_figures, check_storable, escape_nul
from compliance.errors import BadValueError, JurisdictionError, LogError, did_you_mean
from compliance.games import get_game
from compliance.logs.reader import MAX_LINE_BYTES, Located, Reject, read_sessions
from compliance.logs.records import ID_LENGTH, Session
from compliance.service_layer.batch_judging import BatchJudge
from compliance.service_layer.duty_sessions import DutySessions, digest_of
from compliance.streams import is_stream

BATCH = 512
"""Sessions judged together: enough for numpy to pay, few enough to stream."""
MAX_PLACES = 10_000
"""Written places whose codes are kept (a hostile log may write a new one every line)."""


@dataclass(slots=True)
class Settled:
    """A session replayed and tallied, not yet measured or judged."""

    item: Located
    summary: SessionTally
    fixed: int  # the owner's fixed room fee, in points (not rake)
    organiser_funded: bool


@dataclass(slots=True)
class Auditor:
    """The judging half of a run: the classifier and the game classes, built once."""

    classifier: Classifier
    game_classes: dict[str, str]
    default_jurisdiction: str | None = None
    as_of: date | None = None
    priors: dict[tuple[str, str], tuple[date, ...]] = field(default_factory=dict)
    latest_day: date | None = None
    max_line_bytes: int = MAX_LINE_BYTES
    names: dict[str, str] = field(default_factory=dict)
    """A spooled copy's path → the name the input was given (`-`, a FIFO's path)."""
    store_names: bool = True  # False: no player's name leaves the log (audit --no-names)
    keep_lines: bool = False  # store every session's line (streams' lines are kept always)
    per_rule_set: bool = True
    """Judge per rule set where a session allows (False: every player by the reference)."""
    duty_sessions: bool = False  # also yield each batch's DutySessions (duties were given)
    judge: BatchJudge = field(default_factory=BatchJudge, repr=False, compare=False)
    places: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def audit(self, item: Located) -> AuditedSession:
        """Replay, measure and classify one session; LogError if it cannot be replayed."""
        return self.judged(self.settle(item))

    def settle(self, item: Located) -> Settled:
        """Replay and tally one session, fees and prize added; LogError if it cannot be."""
        s = item.session
        check_dated(s, self.latest_day)
        ids = [p.id for p in s.players]
        if len(set(ids)) != len(ids):
            raise LogError("a player id appears twice in players")
        game = get_game(s.game)
        fused = getattr(game, "tally_session", None)
        summary = fused(s, ids) if fused else tally(game.replay(s), ids)
        fixed = 0
        if s.owner and s.owner.fee_basis != "fixed":
            summary.rake += s.owner.room_fee
        elif s.owner:
            fixed = s.owner.room_fee
        if s.prize and s.prize.funded_by == "entry_fees" and s.prize.entry_fee:
            add_entry_fees(summary, s.prize.entry_fee)
        organiser_funded = bool(s.prize and s.prize.funded_by == "organiser")
        in_yuan = tournament_in_yuan(s.tournament, organiser_funded, s.point_value)
        if in_yuan is not None:
            summary.issues.insert(0, in_yuan)
        return Settled(item, summary, fixed, organiser_funded)

    def judged(self, settled: Settled) -> AuditedSession:
        """参照判定: the settled session measured and classified player by player."""
        item, summary, fixed = settled.item, settled.summary, settled.fixed
        s = item.session
        measured: list[PlayerMetrics] | None = None
        session_figures = None
        if s.point_value is not None:
            check_figures(summary, s.point_value, fixed)
            pv = s.point_value
            measured = [player_metrics(p.id, summary.players[p.id], pv) for p in s.players]
            session_figures = session_metrics(summary, measured, pv)
        fallback = s.jurisdiction or self.default_jurisdiction
        venue = venue_of(s, self.classifier.options.venue)
        players = self.players_of(s, fallback, measured)
        facts = SessionFacts(
            platform=s.platform,
            session_id=s.session_id,
            game=s.game,
            game_class=self.game_classes.get(s.game),
            day=s.started_at.date(),
            jurisdiction=fallback,
            players=tuple(
                PlayerFacts(
                    p.id,
                    p.jurisdiction,
                    p.kin_group,
                    p.metrics,
                    public_servant=src.public_servant,
                    minor=src.minor,
                    priors=self.priors.get((s.platform, p.id), ()),
                )
                for p, src in zip(players, s.players, strict=True)
            ),
            metrics=session_figures,
            rake=summary.rake,
            organiser_prize=is_prize_only(s.tournament, settled.organiser_funded, s.point_value),
            venue=venue,
            issues=tuple(summary.issues),
            scene_cash=scene_total(s.scene_cash, (p.scene_cash for p in s.players)),
        )
        findings = self.classifier.classify(facts, self.as_of)
        tiers = {f.player: f.tier for f in findings if isinstance(f, ThresholdFinding)}
        for player in players:
            player.tier = tiers.get(player.id)
        return self.session_of(settled, venue, players, session_figures, findings)

    def players_of(
        self, s: Session, fallback: str | None, measured: list[PlayerMetrics] | None
    ) -> list[AuditedPlayer]:
        """The session's players as stored, with their figures (`measured`, seat by seat)."""
        names, code = self.store_names, self.place(fallback)
        figures: Sequence[PlayerMetrics | None] = (
            measured if measured is not None else [None] * len(s.players)
        )
        return [
            AuditedPlayer(
                p.id,
                p.name if names else "",
                p.jurisdiction or fallback,
                p.kin_group,
                metrics,
                None,
                p.jurisdiction or s.jurisdiction,
                self.place(p.jurisdiction) if p.jurisdiction else code,
            )
            for p, metrics in zip(s.players, figures, strict=True)
        ]

    def session_of(
        self,
        settled: Settled,
        venue: str,
        players: list[AuditedPlayer],
        figures: SessionMetrics | None,
        findings: list,
    ) -> AuditedSession:
        """The judged session as stored, checked storable (LogError names what is not)."""
        item, s, fixed = settled.item, settled.item.session, settled.fixed
        fallback = s.jurisdiction or self.default_jurisdiction
        judged = AuditedSession(
            platform=s.platform,
            session_id=s.session_id,
            game=s.game,
            room_id=s.room_id,
            owner_id=s.owner.id if s.owner else None,
            started_at=s.started_at,
            day=s.started_at.date(),
            jurisdiction=fallback,
            venue=venue,
            rounds=settled.summary.rounds,
            point_value=s.point_value,
            metrics=figures,
            players=players,
            source_file=item.file,
            source_line=item.line,
            source_offset=item.offset,
            line_sha256=item.digest,
            line=zlib.compress(item.raw) if item.raw is not None else None,
            findings=findings,
            minors=sum(1 for p in s.players if p.minor),
            jurisdiction_written=s.jurisdiction,
            jurisdiction_code=self.place(fallback),
            fixed_fee=to_yuan(fixed, s.point_value) if s.point_value is not None else None,
        )
        check_storable(judged, s.ended_at)
        return judged

    def place(self, written: str | None) -> str | None:
        """法域代码: the code of the jurisdiction a log names by code, name or alias; what it
        wrote when the rule book knows no such place."""
        if written is None:
            return None
        found = self.places.get(written)
        if found is None:
            try:
                found = self.classifier.resolver.lookup(written).code
            except JurisdictionError:
                found = written
            if len(self.places) < MAX_PLACES:
                self.places[written] = found
        return found

    def venue(self, s: Session) -> str:
        return venue_of(s, self.classifier.options.venue)

    def audit_file(
        self, path: str, start: int = 0, end: int | None = None
    ) -> Iterator[AuditedSession | Reject | DutySessions]:
        """Every session of one partition judged, or the reject it became; BATCH sessions
        at a time, judged per rule set where they can be (service_layer/batch_judging.py).
        With `duty_sessions`, each batch is preceded by the duty digests of its sessions."""
        name = self.names.get(path)
        keep = self.keep_lines or name is not None or is_stream(path)
        waiting: list[Located | Reject] = []
        for item in read_sessions(path, start, end, self.max_line_bytes, name, keep, get_game):
            waiting.append(item)
            if len(waiting) >= BATCH:
                yield from self._batch(waiting)
                waiting = []
        yield from self._batch(waiting)

    def _batch(
        self, items: list[Located | Reject]
    ) -> Iterator[AuditedSession | Reject | DutySessions]:
        if self.duty_sessions:
            digests = [digest_of(i.session) for i in items if isinstance(i, Located)]
            if digests:
                yield DutySessions(digests)
        settled: list[Settled | Reject] = [
            item if isinstance(item, Reject) else self._guarded(self.settle, item) for item in items
        ]
        ready = [s for s in settled if isinstance(s, Settled)]
        judged = iter(self.judge.judge(self, ready) if self.per_rule_set else [None] * len(ready))
        for item in settled:
            if isinstance(item, Reject):
                yield storable_reject(item)
                continue
            fast = next(judged)
            if fast is None:
                done = self._guarded(self.judged, item)
            else:
                players, figures, findings, _, venue = fast
                done = self._guarded(self.session_of, item, venue, players, figures, findings)
            yield storable_reject(done) if isinstance(done, Reject) else done

    @staticmethod
    def _guarded(step, item, *args):
        """`step(item, *args)`, or the reject its session becomes (a LogError, or an
        internal error)."""
        located = item if isinstance(item, Located) else item.item
        try:
            return step(item, *args)
        except LogError as exc:
            return Reject(located.file, located.line, located.session.session_id, str(exc))
        except Exception as exc:  # noqa: BLE001 - one bad session must not end a run
            reason = f"internal error replaying it ({type(exc).__name__}: {exc}); please report"
            return Reject(located.file, located.line, located.session.session_id, reason)


def auditor_for(
    book: RuleBook,
    classifier: ClassifierOptions,
    jurisdiction: str | None = None,
    as_of: date | None = None,
    priors: dict[tuple[str, str], tuple[date, ...]] | None = None,
) -> Auditor:
    """The auditor of a run; BadValueError for a version or jurisdiction the book lacks."""
    groups = sorted({i.version_group for i in book.instruments.values() if i.version_group})
    for group, chosen in classifier.versions.items():
        members = sorted(i.id for i in book.instruments.values() if i.version_group == group)
        if chosen not in members:
            raise BadValueError(
                f"--rule-version {group}={chosen}: "
                + (
                    f"choose one of {', '.join(members)}{did_you_mean(chosen, members)}"
                    if members
                    else f"no such version group{did_you_mean(group, groups)}"
                )
            )
    resolver = Resolver(book, classifier.versions)
    if jurisdiction:
        try:
            resolver.lookup(jurisdiction)
        except JurisdictionError as exc:
            raise BadValueError(
                f"--jurisdiction: {exc} (a code, name or alias: 430000, hunan, 湖南)"
            ) from None
    return Auditor(
        classifier=Classifier(resolver, classifier),
        game_classes={code: g.game_class for code, g in book.game_types.items()},
        default_jurisdiction=jurisdiction,
        as_of=as_of,
        priors=priors or {},
    )


def storable_reject(reject: Reject) -> Reject:
    """A reject as it can be stored: each NUL of its texts written as `\\u0000`."""
    sid = reject.session_id
    texts = (reject.file, reject.reason, sid or "")
    if not any(NUL in t for t in texts):
        return reject
    return Reject(
        escape_nul(reject.file),
        reject.line,
        escape_nul(sid, ID_LENGTH) if sid is not None else None,
        escape_nul(reject.reason),
    )


@contextmanager
def few_collections(threshold: int = 200_000) -> Iterator[None]:
    """Fewer cyclic-GC passes while a run streams millions of short-lived acyclic objects.

    What lives before the run (the rules, the interpreter) is frozen out of
    the collector's sight; reference counting frees the rest as it goes.
    Measured: about 15 % of an audit (docs/performance.md); at 50,000 a store's batch
    (500 judged sessions and their rows, all alive at once) still met some ten young
    collections and a full one, 3–4 % of a stored audit; at 200,000 few.
    """
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(threshold, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def venue_of(s: Session, default: str) -> str:
    """场所: where the session was played, as logged; the run's default (`--venue`) where
    the log names none or writes `unknown`."""
    return default if s.venue in (None, "unknown") else s.venue


EARLIEST_DAY = date(2000, 1, 1)


def check_dated(s: Session, latest_day: date | None) -> None:
    """开局日期: a session dated before 2000 or after the run's bound is no log of a real game."""
    day = s.started_at.date()
    if day < EARLIEST_DAY or (latest_day is not None and day > latest_day):
        bound = f" nor after {latest_day} (a day after the run started)" if latest_day else ""
        raise LogError(
            f"started_at {day.isoformat()} is out of range: no session is dated before "
            f"{EARLIEST_DAY.isoformat()}{bound}"
        )
