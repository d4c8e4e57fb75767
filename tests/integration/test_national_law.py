"""National law applies everywhere on the mainland (issue #17, part 1), through the real audit.

An online room owner whose window rake and participants pass the 2010 online opinion's
情节严重 lines (抽头渔利 ≥ 30000, 参赌人数 ≥ 120) is criminal_serious in every one of the
31 provincial-level divisions, written by code, full name, short name, pinyin or ISO
alias, and with no jurisdiction at all; 台湾, 香港 and 澳门 are outside mainland law:
indeterminate, never a mainland tier, for the owner and the platform too; a code the book
does not know is indeterminate naming it, never silence.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from compliance.db.engine import ensure_schema, make_engine
from compliance.db.models import WindowFindingRow, table_of
from compliance.db.unit_of_work import SqlUnitOfWork
from compliance.domain.findings import IndeterminateFinding, ThresholdFinding
from compliance.service_layer import audit as services
from tests.integration.test_windows import audit, room, write

WINDOWS = table_of(WindowFindingRow)

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
PINYIN = {
    "110000": "beijing",
    "120000": "tianjin",
    "130000": "hebei",
    "140000": "shanxi",
    "150000": "neimenggu",
    "210000": "liaoning",
    "220000": "jilin",
    "230000": "heilongjiang",
    "310000": "shanghai",
    "320000": "jiangsu",
    "330000": "zhejiang",
    "340000": "anhui",
    "350000": "fujian",
    "360000": "jiangxi",
    "370000": "shandong",
    "410000": "henan",
    "420000": "hubei",
    "430000": "hunan",
    "440000": "guangdong",
    "450000": "guangxi",
    "460000": "hainan",
    "500000": "chongqing",
    "510000": "sichuan",
    "520000": "guizhou",
    "530000": "yunnan",
    "540000": "xizang",
    "610000": "shaanxi",
    "620000": "gansu",
    "630000": "qinghai",
    "640000": "ningxia",
    "650000": "xinjiang",
}
OUTSIDE = [
    ("710000", "台湾"),
    ("710000", "CN-TW"),
    ("810000", "香港"),
    ("810000", "CN-HK"),
    ("820000", "澳门"),
    ("820000", "macau"),
]


def _short(full: str) -> str:
    for suffix in ("壮族自治区", "回族自治区", "维吾尔自治区", "自治区", "省", "市"):
        if full.endswith(suffix):
            return full.removesuffix(suffix)
    return full


def _forms(code: str, full: str, alias: str) -> tuple[str, ...]:
    return (code, full, _short(full), PINYIN[code], alias)


WRITTEN = [
    (code, w) for code, (full, alias) in PROVINCES.items() for w in _forms(code, full, alias)
]
CASES = [*WRITTEN, ("000000", None), *OUTSIDE, ("990000", "990000")]


def _rooms(platform: str, where: str | None) -> list[dict]:
    """20 rooms of 6 new players each (120 participants), 1500 yuan of rake each (30000)."""
    out = []
    for n in range(20):
        seats = [f"{platform}-u{n}-{i}" for i in range(6)]
        s = room(
            n,
            "boss",
            f"2026-03-{1 + n:02d}",
            fee=1500,
            basis="stakes",
            platform=platform,
            players=seats,
            rounds=2,
        )
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


def test_the_written_forms_are_five_for_each_of_the_31_provinces():
    assert len(PROVINCES) == 31
    assert len(set(WRITTEN)) == 31 * 5
    assert ("450000", "广西") in WRITTEN and ("610000", "shaanxi") in WRITTEN


@pytest.mark.parametrize(("code", "written"), WRITTEN, ids=[w for _, w in WRITTEN])
def test_an_online_room_owner_past_the_serious_rake_and_participant_lines_is_criminal_serious(
    judged, code, written
):
    i = CASES.index((code, written))
    (boss,) = _of(judged, i, "owner:boss")
    assert (boss.tier, boss.rule, boss.jurisdiction) == (
        "criminal_serious",
        "online-2010-serious-owner",
        code,
    )
    assert set(boss.matched) == {"window_rake ≥ 30000", "window_participants ≥ 120"}
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
    assert set(boss.matched) == {"window_rake ≥ 30000", "window_participants ≥ 120"}
    players = [f for f in _of(judged, i) if f.subject.startswith("player:")]
    assert players and all(isinstance(f, IndeterminateFinding) for f in players)
    assert {f.missing for f in players} == {"jurisdiction"}


def test_a_player_in_a_province_without_a_standard_is_indeterminate_naming_it(judged):
    i = CASES.index(("120000", "CN-TJ"))
    players = [f for f in _of(judged, i) if f.subject.startswith("player:")]
    assert len(players) == 120
    assert {(f.kind, f.missing, f.jurisdiction) for f in players} == {
        ("indeterminate", "threshold", "120000")
    }
    assert players[0].reason == (
        "no provincial standard of 赌资较大 on file for 天津市 120000 in force on 2026-03-01; "
        "the national lines apply"
    )


@pytest.mark.parametrize(("code", "written"), OUTSIDE, ids=[w for _, w in OUTSIDE])
def test_taiwan_hong_kong_and_macao_are_outside_mainland_law_for_owners_and_platforms_too(
    judged, code, written
):
    i = CASES.index((code, written))
    mine = _of(judged, i)
    assert mine and not [f for f in mine if isinstance(f, ThresholdFinding)]
    assert {(f.kind, f.missing, f.jurisdiction) for f in mine} == {
        ("indeterminate", "mainland_law", code)
    }
    (boss,) = _of(judged, i, "owner:boss")
    (platform,) = _of(judged, i, f"platform:p{i:03d}")
    name = {"710000": "台湾省", "810000": "香港特别行政区", "820000": "澳门特别行政区"}[code]
    for window in (boss, platform):
        assert window.reason.startswith(f"{name} {code} is outside mainland law")
        assert (window.window_start, window.window_end, window.session_count) == (
            "2026-03-01",
            "2026-03-20",
            20,
        )


def test_an_owner_at_an_unknown_place_is_indeterminate_naming_the_code(judged):
    i = CASES.index(("990000", "990000"))
    (boss,) = _of(judged, i, "owner:boss")
    (platform,) = _of(judged, i, f"platform:p{i:03d}")
    for window in (boss, platform):
        assert (window.kind, window.missing, window.jurisdiction) == (
            "indeterminate",
            "jurisdiction",
            "990000",
        )
        assert window.reason == (
            "unknown jurisdiction '990000': the rule book has no place of that code, "
            "so no line judges the window"
        )


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_windows_outside_the_mainland_or_at_an_unknown_place_are_stored_indeterminate(
    db, request, tmp_path
):
    url = request.getfixturevalue("sqlite_url" if db == "sqlite" else "pg_url")
    sessions = [
        *_rooms("tj", "120000"),
        *_rooms("none", None),
        *_rooms("hk", "810000"),
        *_rooms("mo", "澳门"),
        *_rooms("tw", "CN-TW"),
        *_rooms("unknown", "990000"),
        *_rooms("county", "430102"),
    ]
    summary, windows = audit(url, write(tmp_path / "a.jsonl", sessions))
    owners = {f.platform: f for f in windows if f.subject == "owner:boss"}
    assert {p: (f.kind, getattr(f, "tier", None), f.jurisdiction) for p, f in owners.items()} == {
        "tj": ("threshold", "criminal_serious", "120000"),
        "none": ("threshold", "criminal_serious", "000000"),
        "county": ("threshold", "criminal_serious", "430000"),
        "hk": ("indeterminate", None, "810000"),
        "mo": ("indeterminate", None, "820000"),
        "tw": ("indeterminate", None, "710000"),
        "unknown": ("indeterminate", None, "990000"),
    }
    assert summary.tiers["criminal_serious"] == 6
    engine = make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(WINDOWS.c.platform, WINDOWS.c.kind, WINDOWS.c.tier, WINDOWS.c.payload).where(
                WINDOWS.c.subject == "owner:boss", WINDOWS.c.kind == "indeterminate"
            )
        ).all()
    engine.dispose()
    assert {(r.platform, r.tier, r.payload["missing"]) for r in rows} == {
        ("hk", None, "mainland_law"),
        ("mo", None, "mainland_law"),
        ("tw", None, "mainland_law"),
        ("unknown", None, "jurisdiction"),
    }
