"""National law applies everywhere on the mainland (issue #17, part 1), through the real audit.

An online room owner whose window rake passes the 2010 online opinion's 情节严重 line
(抽头渔利 ≥ 30000) is criminal_serious in every one of the 31 provincial-level divisions,
written by code, full name or ISO alias, and with no jurisdiction at all; 香港 is
outside mainland law: indeterminate, never a mainland tier.
"""

from __future__ import annotations

import pytest

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.findings import IndeterminateFinding, ThresholdFinding
from compliance.service_layer import audit as services
from tests.integration.test_windows import audit, room, write

PROVINCES = {
    "110000": ("北京市", "CN-BJ"),
    "120000": ("天津市", "CN-TJ"),
    "130000": ("河北省", "CN-HE"),
    "140000": ("山西省", "CN-SX"),
    "150000": ("内蒙古自治区", "CN-NM"),
    "210000": ("辽宁省", "CN-LN"),
    "220000": ("吉林省", "CN-JL"),
    "230000": ("黑龙江省", "CN-HL"),
    "310000": ("上海市", "CN-SH"),
    "320000": ("江苏省", "CN-JS"),
    "330000": ("浙江省", "CN-ZJ"),
    "340000": ("安徽省", "CN-AH"),
    "350000": ("福建省", "CN-FJ"),
    "360000": ("江西省", "CN-JX"),
    "370000": ("山东省", "CN-SD"),
    "410000": ("河南省", "CN-HA"),
    "420000": ("湖北省", "CN-HB"),
    "430000": ("湖南省", "CN-HN"),
    "440000": ("广东省", "CN-GD"),
    "450000": ("广西壮族自治区", "CN-GX"),
    "460000": ("海南省", "CN-HI"),
    "500000": ("重庆市", "CN-CQ"),
    "510000": ("四川省", "CN-SC"),
    "520000": ("贵州省", "CN-GZ"),
    "530000": ("云南省", "CN-YN"),
    "540000": ("西藏自治区", "CN-XZ"),
    "610000": ("陕西省", "CN-SN"),
    "620000": ("甘肃省", "CN-GS"),
    "630000": ("青海省", "CN-QH"),
    "640000": ("宁夏回族自治区", "CN-NX"),
    "650000": ("新疆维吾尔自治区", "CN-XJ"),
}
WRITTEN = [(code, w) for code, names in PROVINCES.items() for w in (code, *names)]
CASES = [*WRITTEN, ("000000", None), ("810000", "香港"), ("810000", "CN-HK")]


def _rooms(platform: str, where: str | None) -> list[dict]:
    out = []
    for n in range(8):
        s = room(n, "boss", f"2026-03-{10 + n}", fee=4000, basis="stakes", platform=platform)
        s["jurisdiction"] = where
        if where is None:
            del s["jurisdiction"]
        out.append(s)
    return out


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    """One audit of every case on SQLite, each on a platform of its own."""
    tmp = tmp_path_factory.mktemp("national")
    sessions = [s for i, (_, w) in enumerate(CASES) for s in _rooms(f"p{i:03d}", w)]
    found: list = []
    url = f"sqlite:///{tmp / 'n.sqlite'}"
    engine = make_engine(url)
    ensure_schema(engine)
    services.audit(
        SqlUnitOfWork(engine),
        [write(tmp / "all.jsonl", sessions)],
        services.AuditOptions(),
        found.append,
    )
    return found


def _of(found, i: int, subject: str | None = None):
    return [
        f for f in found if f.platform == f"p{i:03d}" and (subject is None or f.subject == subject)
    ]


@pytest.mark.parametrize(("code", "written"), WRITTEN, ids=[w for _, w in WRITTEN])
def test_an_online_room_owner_past_the_serious_rake_line_is_criminal_serious_in_every_province(
    judged, code, written
):
    i = CASES.index((code, written))
    (boss,) = _of(judged, i, "owner:boss")
    assert (boss.tier, boss.rule, boss.jurisdiction) == (
        "criminal_serious",
        "online-2010-serious-owner",
        code,
    )
    (platform,) = _of(judged, i, f"platform:p{i:03d}")
    assert (platform.tier, platform.rule) == ("criminal_serious", "online-2010-serious-platform")


def test_an_owner_of_sessions_naming_no_place_is_criminal_serious_under_the_national_lines(judged):
    i = CASES.index(("000000", None))
    (boss,) = _of(judged, i, "owner:boss")
    assert (boss.tier, boss.rule, boss.jurisdiction) == (
        "criminal_serious",
        "online-2010-serious-owner",
        "000000",
    )
    players = [f for f in _of(judged, i) if f.subject.startswith("player:")]
    assert players and all(isinstance(f, IndeterminateFinding) for f in players)
    assert {f.missing for f in players} == {"jurisdiction"}


def test_a_player_in_a_province_without_a_standard_is_indeterminate_naming_it(judged):
    i = CASES.index(("120000", "CN-TJ"))
    players = [f for f in _of(judged, i) if f.subject.startswith("player:")]
    assert len(players) == 32
    assert {(f.kind, f.missing, f.jurisdiction) for f in players} == {
        ("indeterminate", "threshold", "120000")
    }
    assert players[0].reason == (
        "no provincial standard of 赌资较大 on file for 天津市 120000 in force on 2026-03-10; "
        "the national lines apply"
    )


@pytest.mark.parametrize("written", ["香港", "CN-HK"])
def test_hong_kong_is_outside_mainland_law_indeterminate_and_never_a_mainland_tier(judged, written):
    i = CASES.index(("810000", written))
    mine = _of(judged, i)
    assert mine and not [f for f in mine if isinstance(f, ThresholdFinding)]
    assert {(f.missing, f.jurisdiction) for f in mine} == {("mainland_law", "810000")}
    assert mine[0].reason.startswith("香港特别行政区 810000 is outside mainland law")


def test_on_postgresql_tianjin_and_no_place_are_criminal_serious_and_hong_kong_is_not(
    pg_url, tmp_path
):
    sessions = [
        *_rooms("tj", "120000"),
        *_rooms("none", None),
        *_rooms("hk", "810000"),
        *_rooms("county", "430102"),
    ]
    summary, windows = audit(pg_url, write(tmp_path / "a.jsonl", sessions))
    owners = {f.platform: f for f in windows if f.subject == "owner:boss"}
    assert {p: (f.tier, f.jurisdiction) for p, f in owners.items()} == {
        "tj": ("criminal_serious", "120000"),
        "none": ("criminal_serious", "000000"),
        "county": ("criminal_serious", "430000"),
    }
    assert summary.tiers["criminal_serious"] == 6
