"""可存储: what every audited session passes before it is stored, on any database.

The columns hold money below 10^16 yuan to the cent; PostgreSQL stores no
NUL character in text and no zone offset beyond ±15:59. SQLite takes all of
these, so the same checks here, before storage, make a run's results the same
on both: a session that fails one is a reject naming the field, and the run
goes on (docs/reliability.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from decimal import Decimal

from compliance.domain.audited import AuditedSession
from compliance.domain.rounds import SessionTally
from compliance.errors import LogError

MAX_YUAN = 10**15  # the money columns (Numeric(18, 2)) hold less than 10^16 yuan
EARLIEST_OFFSET = timedelta(hours=-12)  # the zones in use run from UTC−12:00 …
LATEST_OFFSET = timedelta(hours=14)  # … to UTC+14:00
NUL = "\x00"
ESCAPED_NUL = "\\u0000"


def check_figures(summary: SessionTally, point_value: Decimal, fixed_fee: int = 0) -> None:
    """赌资上限: every money figure stored of a session, in yuan, below 10^15.

    Checked on the tallies in points, before they are turned into yuan, so
    no figure is too large even to be rounded to the cent.
    """
    yuan = sum(t.staked + t.won for t in summary.players.values()) * point_value
    if yuan >= MAX_YUAN:
        raise LogError(
            f"stakes beyond any real game: {yuan:.2e} yuan staked and won in the session "
            "(at most 1e+15 is stored); look at bet and base"
        )
    _below("rake", summary.rake, point_value, "the session's rake and room_fee")
    _below("room_fee", fixed_fee, point_value, "the owner's fixed room_fee")
    won = 0
    for pid, t in summary.players.items():
        where = f"player {pid}"
        _below("single_stake", t.max_stake, point_value, where)
        _below("round_win_loss", t.max_round_swing, point_value, where)
        _below("net", abs(t.net), point_value, where)
        _below("table_cap", t.max_cap or 0, point_value, where)
        won += max(t.net, 0)
    _below("table_win_loss", won, point_value, "the session")


def _below(name: str, points: int, point_value: Decimal, where: str) -> None:
    yuan = points * point_value
    if abs(yuan) >= MAX_YUAN:
        raise LogError(
            f"{name} beyond any real game: {yuan:.2e} yuan for {where} "
            "(at most 1e+15 is stored); look at its rounds' stakes, antes and rake"
        )


def check_times(**times: datetime | None) -> None:
    """时区: a time's zone offset is one a clock uses, UTC−12:00 to UTC+14:00."""
    for name, value in times.items():
        if value is None:
            continue
        offset = value.utcoffset()
        if offset is not None and not EARLIEST_OFFSET <= offset <= LATEST_OFFSET:
            raise LogError(
                f"{name} has the zone offset {value.isoformat()[19:]}, "
                "which no clock uses (from -12:00 to +14:00)"
            )


def check_texts(session: AuditedSession) -> None:
    """文字: no stored text of the session holds a NUL character."""
    if not has_nul(session):
        return
    texts = [
        ("platform", session.platform),
        ("session_id", session.session_id),
        ("game", session.game),
        ("room_id", session.room_id),
        ("owner.id", session.owner_id),
        ("jurisdiction", session.jurisdiction),
        ("venue", session.venue),
    ]
    for i, p in enumerate(session.players):
        where = f"players[{i}]"
        texts += [
            (f"{where}.id", p.id),
            (f"{where}.name", p.name),
            (f"{where}.jurisdiction", p.jurisdiction),
            (f"{where}.kin_group", p.kin_group),
        ]
    texts += [(f"a finding's subject {f.subject!r}", f.subject) for f in session.findings]
    _no_nul(texts)


def has_nul(session: AuditedSession) -> bool:
    """Whether any text `check_texts` names holds a NUL (the names are made only then)."""
    texts = [
        session.platform or "",
        session.session_id or "",
        session.game or "",
        session.room_id or "",
        session.owner_id or "",
        session.jurisdiction or "",
        session.venue or "",
    ]
    for p in session.players:
        texts += (p.id or "", p.name or "", p.jurisdiction or "", p.kin_group or "")
    texts += [f.subject or "" for f in session.findings]
    return NUL in "".join(texts)


def _no_nul(texts: Iterable[tuple[str, str | None]]) -> None:
    for name, value in texts:
        if value is not None and NUL in value:
            raise LogError(f"{name} holds a NUL character (\\u0000), which no text column stores")


def check_storable(session: AuditedSession, ended_at: datetime | None = None) -> None:
    """Every check a judged session passes before it is stored; LogError names the field."""
    check_texts(session)
    check_times(started_at=session.started_at, ended_at=ended_at)


def escape_nul(text: str, most: int | None = None) -> str:
    """A text with each NUL written as `\\u0000`, cut to `most` characters (… at the end)."""
    if NUL not in text:
        return text
    text = text.replace(NUL, ESCAPED_NUL)
    if most is not None and len(text) > most:
        text = text[: most - 1] + "…"
    return text
