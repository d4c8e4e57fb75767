"""The per-rule-set judge against the per-player reference: the same findings, the same
stored rows and the same JSON Lines bytes, on simulated logs of every game with
tournaments, entry fees, priors, kin groups, fee bases and game-class factors."""

from __future__ import annotations

import dataclasses
import random
from datetime import date, timedelta
from decimal import Decimal

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compliance import ruledata
from compliance.db.finding_rows import LineIds
from compliance.db.session_rows import finding_values, player_values, session_values
from compliance.domain.cents import cents, scale_of, within_bounds
from compliance.domain.classifier import ClassifierOptions
from compliance.domain.findings import with_format
from compliance.domain.rounds import PlayerTally, SessionTally
from compliance.domain.rules import Multiplier
from compliance.domain.storable import check_figures
from compliance.domain.templates import fixed
from compliance.errors import LogError
from compliance.games import game_codes
from compliance.logs.reader import Reject
from compliance.service_layer import audit as services
from compliance.service_layer.simulate import SimulationSpec, generate

BOOK = ruledata.load_book()
FACTORED = dataclasses.replace(
    BOOK,
    multipliers=[
        *BOOK.multipliers,
        Multiplier("430000", "banker_card", Decimal("1.5")),
        Multiplier("420000", "mahjong", Decimal("2")),
    ],
)
PLACES = ("430000", "420000", "360000", "610000", "510000", "440606", "440699", "810000", "湖南")
POINT_VALUES = ("0.1", "1", "2", "0.0125", "0.3333", "5", "0.05")
FAST = {"fast": 0, "reference": 0}
POINTS = st.one_of(st.integers(0, 10**6), st.integers(0, 10**16))


def varied(line: bytes, rng: random.Random) -> bytes:
    """A simulated session with what the reference alone may judge mixed in."""
    s = msgspec.json.decode(line)
    s["point_value"] = rng.choice(POINT_VALUES)
    roll = rng.random()
    if roll < 0.06:
        s["tournament"] = True
        s["prize"] = {"funded_by": "organiser"}
        if rng.random() < 0.5:
            s.pop("point_value")
    elif roll < 0.12:
        s["prize"] = {"funded_by": "entry_fees", "entry_fee": rng.choice((5, 50, 500))}
    elif roll < 0.16:
        s["scene_cash"] = str(rng.choice((100, 2000, 9999.5)))
    elif roll < 0.2:
        s.pop("point_value")
    if rng.random() < 0.15:
        s["owner"]["fee_basis"] = rng.choice(("stakes", "results"))
    if rng.random() < 0.2:
        s["jurisdiction"] = rng.choice(PLACES)
    if rng.random() < 0.1:
        s["venue"] = rng.choice(("public_place", "private_home", "unknown"))
    if rng.random() < 0.1:
        s["players"][0]["jurisdiction"] = rng.choice(PLACES)
    if rng.random() < 0.05:
        s["players"][-1]["public_servant"] = True
    if rng.random() < 0.05:
        kin = "王家"
        for p in s["players"]:
            p["kin_group"] = kin
    return msgspec.json.encode(s) + b"\n"


def judged(path: str, options: services.AuditOptions, book, fast: bool) -> list:
    auditor = services.make_auditor(book, options)
    auditor.per_rule_set = fast
    out = []
    lines = LineIds()
    for item in auditor.audit_file(path):
        if isinstance(item, Reject):
            out.append(("reject", item))
            continue
        out.append(
            (
                [with_format(f.to_json()) for f in item.findings],
                [f.to_dict() for f in item.findings],
                [
                    (f.kind, getattr(f, "tier", None), getattr(f, "check", None))
                    for f in item.findings
                ],
                session_values(1, item),
                [repr(row) for row in player_values(item)],
                finding_values(1, item, lines),
                repr(item.metrics),
            )
        )
    if fast:
        FAST["fast"] += auditor.judge.fast
        FAST["reference"] += auditor.judge.reference
    return out + [sorted(lines.take_used().items())]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    games=st.lists(st.sampled_from(game_codes()), min_size=1, max_size=8, unique=True),
    sessions=st.integers(1, 24),
    anomalies=st.sampled_from((0.0, 0.05)),
    high=st.sampled_from((0.1, 0.6)),
    factored=st.booleans(),
    scope=st.sampled_from(("player", "table")),
    as_of=st.sampled_from((None, date(2026, 3, 1))),
    with_priors=st.booleans(),
)
def test_the_fast_path_writes_what_the_reference_writes(
    tmp_path_factory, seed, games, sessions, anomalies, high, factored, scope, as_of, with_priors
):
    rng = random.Random(seed)
    spec = SimulationSpec(
        games=tuple(games), sessions=sessions, seed=seed, anomalies=anomalies, high_stakes=high
    )
    path = tmp_path_factory.mktemp("log") / "log.jsonl"
    lines = [varied(line, rng) for line, _, _ in generate(spec)]
    path.write_bytes(b"".join(lines))
    priors = {}
    if with_priors:
        for line in lines[::3]:
            s = msgspec.json.decode(line)
            day = date.fromisoformat(s["started_at"][:10])
            priors[(s["platform"], s["players"][0]["id"])] = (day - timedelta(days=40),)
    options = services.AuditOptions(
        as_of=as_of, priors=priors, classifier=ClassifierOptions(win_loss_scope=scope)
    )
    book = FACTORED if factored else BOOK
    assert judged(str(path), options, book, True) == judged(str(path), options, book, False)


def test_the_fast_path_judges_most_of_the_demo_log(tmp_path):
    """The demo's log (every game, anomalies at 1 %) goes almost wholly the fast way."""
    spec = SimulationSpec(games=tuple(game_codes()), sessions=300, seed=7, anomalies=0.01)
    path = tmp_path / "demo.jsonl"
    path.write_bytes(b"".join(line for line, _, _ in generate(spec)))
    auditor = services.make_auditor(BOOK, services.AuditOptions())
    fast = list(auditor.audit_file(str(path)))
    assert auditor.judge.fast > 0 and auditor.judge.share < 0.01
    reference = services.make_auditor(BOOK, services.AuditOptions())
    reference.per_rule_set = False
    slow = list(reference.audit_file(str(path)))
    assert [with_format(f.to_json()) for s in fast for f in s.findings] == [
        with_format(f.to_json()) for s in slow for f in s.findings
    ]


@given(st.integers(-(10**18), 10**18), st.sampled_from(POINT_VALUES + ("0.0005", "3", "0.005")))
def test_cents_round_as_to_yuan_does(points, point_value):
    pv = Decimal(point_value)
    assert Decimal(cents(points, scale_of(pv))).scaleb(-2) == (Decimal(points) * pv).quantize(
        Decimal("0.01")
    )


@given(
    st.lists(
        st.tuples(*[POINTS] * 4, st.integers(-(10**16), 10**16)),
        min_size=1,
        max_size=6,
    ),
    POINTS,
    POINTS,
    st.sampled_from(POINT_VALUES + ("0.0001", "99999999.9999")),
)
def test_within_bounds_is_check_figures_in_integers(players, rake, fixed_fee, point_value):
    tallies = {
        str(i): PlayerTally(max_stake=a, max_round_swing=b, staked=c, won=d, net=e)
        for i, (a, b, c, d, e) in enumerate(players)
    }
    summary = SessionTally(tallies)
    summary.rake = rake
    pv = Decimal(point_value)
    try:
        check_figures(summary, pv, fixed_fee)
        refused = False
    except LogError:
        refused = True
    assert within_bounds(summary, scale_of(pv), fixed_fee) is not refused


@given(st.integers(-(10**12), 10**12), st.integers(-4, 0))
def test_fixed_writes_what_decimal_writes(coefficient, exponent):
    assert fixed(coefficient, exponent) == str(Decimal(coefficient).scaleb(exponent))


@pytest.fixture(scope="module", autouse=True)
def the_fast_path_was_taken():
    yield
    if FAST["fast"] + FAST["reference"]:
        assert FAST["fast"] > 0, "no player-session of the varied logs went the fast way"


def test_a_templated_finding_crosses_to_another_process_whole(tmp_path):
    """A pool worker sends its sessions back pickled: findings, stored text and line."""
    import pickle

    spec = SimulationSpec(games=("douniu",), sessions=3, seed=2)
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"".join(line for line, _, _ in generate(spec)))
    auditor = services.make_auditor(BOOK, services.AuditOptions())
    (first, *_) = list(auditor.audit_file(str(path)))
    for f in first.findings:
        back = pickle.loads(pickle.dumps(f))
        assert (back.to_json(), back.subject, back.kind, back.tier) == (
            f.to_json(),
            f.subject,
            f.kind,
            f.tier,
        )
        assert (back.own, back.line, back.jurisdiction) == (f.own, f.line, f.jurisdiction)
        assert f.jurisdiction == msgspec.json.decode(f.to_json())["jurisdiction"]
