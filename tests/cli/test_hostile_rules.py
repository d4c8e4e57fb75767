"""Rule files that would poison the stored book: refused at import with file, row and field."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from compliance.cli import cli
from compliance.db.engine import make_engine
from tests.conftest import ROOT

JURISDICTIONS = ROOT / "data" / "jurisdictions"


def shipped_with(tmp_path, file: str, old: str, new: str):
    source = (JURISDICTIONS / file).read_text(encoding="utf-8")
    assert old in source, old
    path = tmp_path / file
    path.write_text(source.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


HUNAN = "430000-hunan.toml"
NATIONAL = "000000-national.toml"
FOSHAN = "440600-foshan.toml"
STAKE = '{ metric = "single_stake", min = 20, max = 50 }'
ROW = f"{HUNAN} band hn-2015-general-stake single_stake"
NOT_FINITE = [
    (
        "below = nan",
        STAKE,
        '{ metric = "single_stake", min = 20, below = nan }',
        f"{ROW} below: nan",
    ),
    (
        "below = 'NaN'",
        STAKE,
        '{ metric = "single_stake", min = 20, below = "NaN" }',
        f"{ROW} below: 'NaN'",
    ),
    (
        "below = inf",
        STAKE,
        '{ metric = "single_stake", min = 20, below = inf }',
        f"{ROW} below: inf",
    ),
    ("max = -inf", STAKE, '{ metric = "single_stake", min = 20, max = -inf }', f"{ROW} max: -inf"),
    ("min = nan", STAKE, '{ metric = "single_stake", min = nan, max = 50 }', f"{ROW} min: nan"),
    ("min = -inf", STAKE, '{ metric = "single_stake", min = -inf, max = 50 }', f"{ROW} min: -inf"),
]


@pytest.mark.parametrize(
    "old, new, named", [c[1:] for c in NOT_FINITE], ids=[c[0] for c in NOT_FINITE]
)
def test_a_band_bound_that_is_no_finite_number_is_refused_naming_file_row_and_field(
    run, tmp_path, old, new, named
):
    run("db", "seed")
    result = run("rules", "import", shipped_with(tmp_path, HUNAN, old, new), "--reason", "r")
    assert (result.exit_code, result.stderr) == (1, f"Error: {named} is not a finite number\n")
    for command in (("rules", "show", "hunan"), ("rules", "export", "-o", tmp_path / "out")):
        assert run(*command).exit_code == 0


OTHER_FIELDS = [
    (
        "wage monthly",
        FOSHAN,
        "monthly = 5151",
        "monthly = nan",
        f"{FOSHAN} wage 440600 2015 monthly: nan",
    ),
    ("wage year", FOSHAN, "year = 2015", "year = inf", f"{FOSHAN} wage 440600 inf year: inf"),
    (
        "penalty fine",
        NATIONAL,
        "fine_min = 500",
        "fine_min = nan",
        f"{NATIONAL} penalty zhian-2005-serious fine_min: nan",
    ),
    (
        "penalty detention",
        NATIONAL,
        "detention_days_max = 5\n",
        "detention_days_max = -inf\n",
        f"{NATIONAL} penalty zhian-2005-general detention_days_max: -inf",
    ),
    (
        "aggravation days",
        NATIONAL,
        "within_days = 183",
        "within_days = nan",
        f"{NATIONAL} aggravation zhian-2005-repeat within_days: nan",
    ),
]


@pytest.mark.parametrize(
    "file, old, new, named", [c[1:] for c in OTHER_FIELDS], ids=[c[0] for c in OTHER_FIELDS]
)
def test_every_numeric_field_of_every_rule_table_must_be_finite(
    run, tmp_path, file, old, new, named
):
    run("db", "seed")
    result = run("rules", "import", shipped_with(tmp_path, file, old, new), "--reason", "r")
    assert (result.exit_code, result.stderr) == (1, f"Error: {named} is not a finite number\n")


def test_a_multiplier_factor_must_be_finite(tmp_path):
    from compliance.errors import RulesError
    from compliance.service_layer.rules import read_files

    path = shipped_with(
        tmp_path,
        HUNAN,
        "[[instrument]]",
        '[[multiplier]]\ngame_class = "x"\nfactor = nan\n\n[[instrument]]',
    )
    with pytest.raises(
        RulesError, match=r"^430000-hunan.toml multiplier x factor: nan is not a finite number$"
    ):
        read_files([path])


@pytest.mark.parametrize("code", ["../../pwn", "/tmp/pwn", "43000", "4300000", "hunan", "CN"])
def test_a_jurisdiction_code_that_is_not_six_digits_is_refused(run, tmp_path, code):
    run("db", "seed")
    path = shipped_with(tmp_path, HUNAN, 'code = "430000"', f'code = "{code}"')
    result = run("rules", "import", path, "--reason", "r")
    assert (result.exit_code, result.stderr) == (
        1,
        f"Error: {HUNAN}: jurisdiction code {code!r} is not six digits "
        "(GB/T 2260, e.g. 430000; 000000 for the nation)\n",
    )


def test_export_never_writes_outside_its_folder(run, sqlite_url, tmp_path):
    run("db", "seed")
    with make_engine(sqlite_url).begin() as conn:
        conn.execute(
            text(
                "INSERT INTO jurisdictions (code, name_zh, name_en, level, aliases) "
                "VALUES ('../../../pwn', '越界', '', 'province', '[]')"
            )
        )
    out = tmp_path / "deep" / "er" / "out"
    result = run("rules", "export", "-o", out)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: refused to write ")
    assert not list(tmp_path.rglob("*pwn*"))


@pytest.mark.parametrize("raw", ["nan", "NaN", "inf", "-Infinity"])
def test_a_what_if_setting_must_be_a_finite_number(raw):
    from compliance.domain.ruleedit import BoundSetting
    from compliance.errors import BadValueError

    setting = f"hn-2015-general-stake.single_stake.max={raw}"
    with pytest.raises(BadValueError, match="is not a finite number$"):
        BoundSetting.parse(setting)
