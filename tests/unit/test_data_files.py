"""The reviewed threshold data files in data/ follow docs/rules-data.md.

Reads the TOML with the standard library only, so it keeps passing whatever the
loader does with the rows.
"""

import datetime as dt
import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data"
JURISDICTION_FILES = sorted((DATA / "jurisdictions").glob("*.toml"))

TIERS = [
    "exempt",
    "below_threshold",
    "administrative",
    "administrative_serious",
    "administrative_very_serious",
    "criminal",
    "criminal_serious",
]
METRICS = {
    "single_stake",
    "round_win_loss",
    "session_win_loss",
    "total_staked",
    "capital",
    "per_capita_capital",
    "scene_capital",
    "table_win_loss",
    "headcount",
    "per_capita_wage_ratio",
    "prior_penalties",  # issue 17: earlier penalties (--priors) within the band's window
}
# Window metrics issue 8 adds; the data already uses them.
WINDOW_METRICS = {
    "window_sessions",
    "window_rake",
    "window_capital",
    "window_participants",
    "window_win_loss",
}
SUBJECTS = {"player", "session", "owner", "platform"}
LEVELS = {"national", "province", "region", "city", "district"}
KINDS = {
    "statute",
    "interpretation",
    "notice",
    "provincial_standard",
    "ordinance",
    "court_case",
    "assumption",
}
EXEMPTION_KINDS = {"kin", "organiser_prize", "small_stakes", "room_fee"}
CONFIDENCE = {"H", "M", "L"}
BOUNDS = {"min", "max", "above", "below"}


def load(path):
    with path.open("rb") as f:
        return tomllib.load(f)


@pytest.fixture(scope="module")
def files():
    return {path: load(path) for path in JURISDICTION_FILES}


@pytest.fixture(scope="module")
def games():
    return load(DATA / "games.toml")


def rows(files, table):
    return [(path, row) for path, doc in files.items() for row in doc.get(table, [])]


def comparisons(condition):
    """Every metric comparison inside a `when`, however deeply nested."""
    if "metric" in condition:
        yield condition
        return
    (op,) = condition.keys()
    assert op in ("all", "any"), f"unknown condition key {op!r}"
    assert condition[op], f"empty {op}"
    for sub in condition[op]:
        yield from comparisons(sub)


def test_every_data_file_parses():
    for path in [DATA / "games.toml", *JURISDICTION_FILES]:
        load(path)
    assert JURISDICTION_FILES


def test_file_names_are_code_and_pinyin(files):
    for path, doc in files.items():
        code = doc["jurisdiction"]["code"]
        assert re.fullmatch(r"\d{6}-[a-z]+\.toml", path.name), path.name
        assert path.name.startswith(code + "-"), path.name


def test_jurisdictions_form_one_tree(files):
    jurisdictions = {doc["jurisdiction"]["code"]: doc["jurisdiction"] for doc in files.values()}
    assert len(jurisdictions) == len(files)
    assert "000000" in jurisdictions
    for code, j in jurisdictions.items():
        assert j["level"] in LEVELS
        assert j["name_zh"] and j["name_en"]
        if code == "000000":
            assert "parent" not in j
        else:
            assert j["parent"] in jurisdictions, code
    aliases = Counter(a.casefold() for j in jurisdictions.values() for a in j["aliases"])
    assert [a for a, n in aliases.items() if n > 1] == []


def test_ids_are_unique_across_files(files, games):
    ids = Counter(
        row["id"]
        for table in ("instrument", "band", "penalty", "exemption")
        for _, row in rows(files, table)
    )
    assert [i for i, n in ids.items() if n > 1] == []
    codes = Counter(c["code"] for c in games["game_class"] + games["game_type"])
    assert [c for c, n in codes.items() if n > 1] == []


def test_instruments_carry_provenance_and_dates(files):
    for path, inst in rows(files, "instrument"):
        where = f"{path.name}: {inst['id']}"
        assert inst["kind"] in KINDS, where
        assert inst["confidence"] in CONFIDENCE, where
        assert inst["title"] and inst["issuer"] and inst["source"], where
        assert isinstance(inst["effective_from"], dt.date), where
        if "effective_to" in inst:
            assert inst["effective_to"] >= inst["effective_from"], where
        assert isinstance(inst["disputed"], bool) and isinstance(inst["default"], bool), where


def test_each_version_group_has_one_default(files):
    groups = {}
    for _, inst in rows(files, "instrument"):
        if inst["version_group"]:
            groups.setdefault(inst["version_group"], []).append(inst)
    for group, members in groups.items():
        assert len(members) >= 2, group
        assert sum(m["default"] for m in members) == 1, group
    for _, inst in rows(files, "instrument"):
        if not inst["version_group"]:
            assert inst["default"], inst["id"]


def test_rows_name_an_instrument_that_exists(files):
    instruments = {inst["id"] for _, inst in rows(files, "instrument")}
    for table in ("band", "penalty", "exemption"):
        for path, row in rows(files, table):
            assert row["instrument"] in instruments, f"{path.name}: {row['id']}"


def test_bands_use_known_tiers_subjects_classes_and_metrics(files, games):
    classes = {c["code"] for c in games["game_class"]}
    for path, band in rows(files, "band"):
        where = f"{path.name}: {band['id']}"
        assert band["tier"] in TIERS, where
        assert band["subject"] in SUBJECTS, where
        assert band["confidence"] in CONFIDENCE, where
        assert band["article"] and band["penalty"], where
        assert set(band.get("game_classes", [])) <= classes, where
        assert band.get("role", "banker") == "banker", where
        if "when" not in band:
            assert "role" in band or "game_classes" in band, where
            continue
        for comparison in comparisons(band["when"]):
            assert comparison["metric"] in METRICS | WINDOW_METRICS, where


def test_bounds_follow_the_inclusivity_rules(files):
    """以上 → min, 以下 → max, 超过 → above, 不满 → below: one lower and one upper bound at most."""
    for path, band in rows(files, "band"):
        if "when" not in band:
            continue
        for comparison in comparisons(band["when"]):
            where = f"{path.name}: {band['id']} {comparison}"
            bounds = set(comparison) - {"metric"}
            assert bounds and bounds <= BOUNDS, where
            assert not {"min", "above"} <= bounds and not {"max", "below"} <= bounds, where
            for key in bounds:
                value = comparison[key]
                assert isinstance(value, int | float) and not isinstance(value, bool), where
                assert value >= 0, where
            low = comparison.get("min", comparison.get("above"))
            high = comparison.get("max", comparison.get("below"))
            if low is not None and high is not None:
                assert low < high, where


def test_no_figure_falls_between_two_bands(files):
    """A band that stops 不满 X and one that starts 超过 X on one metric leave X unjudged."""
    by_instrument = {}
    for _, band in rows(files, "band"):
        if "when" in band:
            by_instrument.setdefault(band["instrument"], []).extend(comparisons(band["when"]))
    for instrument, cs in by_instrument.items():
        below = {(c["metric"], c["below"]) for c in cs if "below" in c}
        above = {(c["metric"], c["above"]) for c in cs if "above" in c}
        assert below & above == set(), instrument


def test_bands_of_a_tier_are_listed_in_rising_order(files):
    """Within one tier the band listed last wins (docs/rules-data.md)."""
    for path, doc in files.items():
        last = {}
        for band in doc.get("band", []):
            if "when" not in band:
                continue
            key = (band["instrument"], band["tier"], tuple(band.get("game_classes", [])))
            lows = {}
            for c in comparisons(band["when"]):
                low = c.get("min", c.get("above"))
                if low is not None:
                    lows[c["metric"]] = max(low, lows.get(c["metric"], low))
            for metric, low in lows.items():
                previous = last.get((key, metric))
                assert previous is None or previous <= low, f"{path.name}: {band['id']}"
                last[(key, metric)] = low


def test_penalty_scales_name_tiers_and_maxima(files):
    for path, penalty in rows(files, "penalty"):
        where = f"{path.name}: {penalty['id']}"
        assert penalty["tiers"] and set(penalty["tiers"]) <= set(TIERS), where
        assert penalty["article"] and penalty["text"], where
        for key in ("detention_days_max", "fine_min", "fine_max"):
            if key in penalty:
                assert isinstance(penalty[key], int) and penalty[key] > 0, where


def test_penalty_scales_cover_each_statute_version(files):
    penalties = {p["id"]: p for _, p in rows(files, "penalty")}
    assert penalties["zhian-2005-general"]["fine_max"] == 500
    assert penalties["zhian-2005-serious"]["fine_max"] == 3000
    assert penalties["zhian-2025-general"]["fine_max"] == 1000
    assert penalties["zhian-2025-serious"]["fine_max"] == 5000
    criminal = {
        tier
        for p in penalties.values()
        if p["instrument"].startswith("xingfa")
        for tier in p["tiers"]
    }
    assert criminal == {"criminal", "criminal_serious"}


def test_exemptions_are_of_known_kinds(files):
    for path, exemption in rows(files, "exemption"):
        where = f"{path.name}: {exemption['id']}"
        assert exemption["kind"] in EXEMPTION_KINDS, where
        assert exemption["text"], where
        assert isinstance(exemption["requires_no_rake"], bool), where
        assert isinstance(exemption["whatever_amount"], bool), where


def test_wage_rows_name_a_city_we_know(files):
    codes = {doc["jurisdiction"]["code"] for doc in files.values()}
    wages = rows(files, "wage")
    assert wages
    for path, wage in wages:
        assert wage["city"] in codes, path.name
        assert wage["monthly"] > 0 and wage["confidence"] in CONFIDENCE and wage["source"]


def test_game_types_belong_to_classes(games):
    classes = {c["code"] for c in games["game_class"]}
    types = {t["code"]: t["class"] for t in games["game_type"]}
    assert set(types) == {
        "douniu",
        "chexuan",
        "paigow",
        "yuhuan",
        "guandan",
        "shengji",
        "chihuoguo",
        "bianselong",
    }
    assert set(types.values()) <= classes
    assert types["douniu"] == types["paigow"] == "banker_card"
