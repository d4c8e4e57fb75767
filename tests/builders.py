"""One-line builders: a game's rounds in a session log, a player's figures, a session around them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime
from decimal import Decimal
from typing import Any

import msgspec

from compliance.domain.classifier import PlayerFacts, SessionFacts
from compliance.domain.metrics import PlayerMetrics, SessionMetrics
from compliance.logs.records import Player, Session, Variant


def session_of(
    game: str,
    rounds: list[Any],
    players: Iterable[str],
    variant: Variant | Mapping[str, Any] | None = None,
    buy_in: int | None = None,
    session_id: str | None = None,
) -> Session:
    """A stakelog/1 session of `game`: these rounds, these players, this variant."""
    if not isinstance(variant, Variant):
        variant = msgspec.convert(dict(variant or {}), Variant)
    extra = {} if buy_in is None else {"buy_in": buy_in}
    return Session(
        format="stakelog/1",
        session_id=session_id or f"{game}-test",
        platform="test",
        game=game,
        started_at=datetime(2026, 1, 1, tzinfo=UTC),
        players=[Player(id=p, **extra) for p in players],
        rounds=msgspec.Raw(msgspec.json.encode(rounds)),
        variant=variant,
    )


def figures(
    pid: str = "p1",
    stake: float = 0,
    capital: float | None = None,
    win_loss: float = 0,
    round_swing: float | None = None,
    banker_rounds: int = 0,
) -> PlayerMetrics:
    """A player's figures in yuan; capital defaults to ten times the stake."""
    cap = Decimal(str(capital if capital is not None else stake * 10))
    return PlayerMetrics(
        player_id=pid,
        single_stake=Decimal(str(stake)),
        round_win_loss=Decimal(str(round_swing if round_swing is not None else stake)),
        session_win_loss=Decimal(str(abs(win_loss))),
        net=Decimal(str(win_loss)),
        total_staked=cap,
        capital=cap,
        rounds=10,
        banker_rounds=banker_rounds,
    )


def session(
    *players: PlayerMetrics,
    game: str = "douniu",
    game_class: str | None = "banker_card",
    day: str = "2026-03-01",
    where: str | None = "430000",
    kin: str | None = None,
    rake: int = 0,
    homes: dict[str, str] | None = None,
) -> SessionFacts:
    """A session of these players; per-capita and scene figures follow from their capital."""
    players = players or (figures(),)
    scene = sum((p.capital for p in players), Decimal(0))
    metrics = SessionMetrics(
        headcount=len(players),
        scene_capital=scene,
        per_capita_capital=(scene / len(players)).quantize(Decimal("0.01")),
        table_win_loss=sum((p.net for p in players if p.net > 0), Decimal(0)),
        rake=Decimal(rake),
        rounds=10,
    )
    return SessionFacts(
        platform="test",
        session_id="s1",
        game=game,
        game_class=game_class,
        day=date.fromisoformat(day),
        jurisdiction=where,
        players=tuple(
            PlayerFacts(p.player_id, (homes or {}).get(p.player_id), kin, p) for p in players
        ),
        metrics=metrics,
        rake=rake,
    )
