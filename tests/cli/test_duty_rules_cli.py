"""`rules export` and `rules import` of the platform's duty rows (duties.toml), on SQLite
and PostgreSQL: the round trip changes nothing, an edited figure is one change in the
trail, and a malformed duty file is refused on one line naming the file, row and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.domain.duties.rows import CHECKS
from compliance.dutydata import load_duties
from compliance.resources import data_dir

SHIPPED = load_duties().duties

ORDER = {code: n for n, code in enumerate(CHECKS)}  # the export's order of checks (§7)


@pytest.fixture
def run(any_db_url):
    runner = CliRunner()

    def invoke(*args: object):
        return runner.invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": any_db_url})

    return invoke


@pytest.fixture
def exported(run, tmp_path) -> Path:
    assert run("rules", "export", "-o", tmp_path / "out").exit_code == 0
    return tmp_path / "out" / "duties.toml"


def edited(path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    target = path.with_name("edited") / "duties.toml"
    target.parent.mkdir(exist_ok=True)
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


def test_export_then_import_changes_nothing_and_adds_no_trail_entry(run, exported):
    assert load_duties(exported).duties == sorted(SHIPPED, key=lambda d: (ORDER[d.check], d.id))
    before = run("rules", "verify").stdout
    result = run("rules", "import", exported.parent, "--reason", "round trip")
    assert (result.exit_code, result.stdout) == (
        0,
        "imported 1 file: 0 added, 0 removed, 0 changed\n",
    )
    alone = run("rules", "import", exported, "--reason", "round trip")
    assert alone.stdout == "imported 1 file: 0 added, 0 removed, 0 changed\n"
    assert run("rules", "verify").stdout == before


def test_an_edited_figure_is_one_change_in_the_trail_and_the_trail_holds(run, exported):
    entries = int(run("rules", "verify").stdout.split()[2])
    path = edited(exported, "minutes = 60 }", "minutes = 61 }")
    result = run("rules", "import", path, "--reason", "guest hour read as 61", "--actor", "li")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "~ duties guest-hour-2019\n"
            "    figures.minutes: 60 → 61\n"
            "imported 1 file: 0 added, 0 removed, 1 changed\n"
        ),
    )
    verified = run("trail", "verify")
    assert verified.exit_code == 0
    assert verified.stdout.startswith(f"trail of {entries + 1} entries over ")
    assert verified.stdout.endswith(" rows: intact\n")
    last = run("rules", "history", "--limit", "1").stdout.splitlines()[1].split()
    assert last[2:6] == ["li", "update", "platform_duties", "guest-hour-2019"]
    shown = json.loads(
        run("rules", "show", "platform", "--as-of", "2020-01-01", "--format", "json").stdout
    )
    (guests,) = [c for c in shown["checks"] if c["check"] == "guest_rules"]
    (hour,) = [d for d in guests["duties"] if d["id"] == "guest-hour-2019"]
    assert hour["figures"]["minutes"] == "61"
    again = run("rules", "export", "-o", exported.parent.parent / "again")
    assert again.exit_code == 0
    text = (exported.parent.parent / "again" / "duties.toml").read_text(encoding="utf-8")
    assert 'figures = { rule = "guest_minutes", minutes = 61 }' in text


def test_a_new_row_is_added_with_its_check_and_severity(run, exported, tmp_path):
    row = (
        '[[duty]]\nid = "guest-hour-local"\ncheck = "guest_rules"\ninstrument = "某省通知"\n'
        'article = "三"\nconfidence = "L"\nseverity = "signal"\nvalid_from = 2020-01-01\n'
        'figures = { rule = "guest_minutes", minutes = 30 }\nsource = "a test"\n'
    )
    path = tmp_path / "local" / "duties.toml"
    path.parent.mkdir()
    path.write_text(row, encoding="utf-8")
    result = run("rules", "import", path, "--reason", "a local reading")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "+ duties guest-hour-local\n"
            "    check: guest_rules\n"
            "    severity: signal\n"
            "imported 1 file: 1 added, 0 removed, 0 changed\n"
        ),
    )
    assert run("rules", "verify").exit_code == 0


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        (
            'check = "guest_rules"',
            'check = "guest_rulez"',
            "duty #3 (guest-device-2019) check: unknown check 'guest_rulez' "
            f"(known: {', '.join(CHECKS)})",
        ),
        (
            "valid_to = 2021-08-31",
            "valid_to = 2021-02-30",
            "duty #1 valid_to: Invalid date or datetime (at line 15, column 12)",
        ),
        (
            "valid_to = 2021-08-31",
            'valid_to = "2021-08-31"',
            "duty #1 (real-name-2019) valid_to: a date must be written as YYYY-MM-DD, "
            "not '2021-08-31'",
        ),
        (
            "valid_to = 2021-08-31",
            "valid_to = 2018-08-31",
            ": duty real-name-2019: valid_to 2018-08-31 is before valid_from 2019-11-01",
        ),
        (
            "minutes = 60 }",
            "minutes = nan }",
            "duty #4 (guest-hour-2019) figures.minutes: nan is not a finite number",
        ),
        (
            "minutes = 60 }",
            "minutes = -inf }",
            "duty #4 (guest-hour-2019) figures.minutes: -inf is not a finite number",
        ),
        (
            'yuan = "50" }',
            'yuan = "Infinity" }',
            "duty #14 (minor-pay-8-16-each-2019) figures.yuan: 'Infinity' is not a finite number",
        ),
        (
            "minutes = 60 }",
            'minutes = "sixty" }',
            ": duty guest-hour-2019: figure 'minutes' = 'sixty' is not a number",
        ),
    ],
)
def test_a_malformed_duty_file_is_refused_on_one_line_and_nothing_is_stored(
    run, exported, old, new, error
):
    before = run("rules", "verify").stdout
    path = edited(exported, old, new)
    result = run("rules", "import", path, "--reason", "try")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"Error: {path}{'' if error.startswith(':') else ' '}{error}\n",
    )
    assert run("rules", "verify").stdout == before
    assert run("rules", "export", "-o", path.parent.parent / "after").exit_code == 0
    assert (path.parent.parent / "after" / "duties.toml").read_bytes() == exported.read_bytes()


def test_a_rule_file_and_a_bad_duty_file_are_stored_together_or_not_at_all(run, exported, tmp_path):
    hunan = next((exported.parent / "jurisdictions").glob("430000-*.toml"))
    text = hunan.read_text(encoding="utf-8").replace('article = "一般情节"', 'article = "一般"', 1)
    changed = tmp_path / "hunan.toml"
    changed.write_text(text, encoding="utf-8")
    bad = edited(exported, "minutes = 60 }", "minutes = nan }")
    result = run("rules", "import", changed, bad, "--reason", "both")
    assert result.exit_code == 1
    assert "figures.minutes: nan is not a finite number" in result.stderr
    assert run("rules", "diff", "db", changed).stdout.splitlines()[0].startswith("~ bands ")


def without(path: Path, duty_id: str) -> Path:
    """The duties file less the row of `duty_id`."""
    head, *rows = path.read_text(encoding="utf-8").split("[[duty]]")
    kept = [r for r in rows if f'id = "{duty_id}"' not in r]
    assert len(kept) == len(rows) - 1
    target = path.with_name("fewer") / "duties.toml"
    target.parent.mkdir(exist_ok=True)
    target.write_text("[[duty]]".join([head, *kept]), encoding="utf-8")
    return target


def test_rows_a_duties_file_lacks_stay_unless_deleted_each_in_the_trail(run, exported):
    path = without(exported, "guest-hour-2019")
    kept = run("rules", "import", path, "--reason", "a partial file")
    assert (kept.exit_code, kept.stdout) == (0, "imported 1 file: 0 added, 0 removed, 0 changed\n")
    entries = int(run("rules", "verify").stdout.split()[2])
    dry = run("rules", "import", path, "--reason", "r", "--delete-absent", "--dry-run")
    assert (dry.exit_code, dry.stdout) == (
        0,
        "- duties guest-hour-2019\n"
        "would import 1 file: 0 added, 1 removed, 0 changed (a dry run: nothing stored)\n",
    )
    assert int(run("rules", "verify").stdout.split()[2]) == entries
    shown = run("rules", "show", "platform", "--as-of", "2020-01-01", "--format", "json")
    assert "guest-hour-2019" in shown.stdout
    result = run(
        "rules",
        "import",
        path,
        "--reason",
        "guest hour repealed",
        "--actor",
        "li",
        "--delete-absent",
    )
    assert (result.exit_code, result.stdout) == (
        0,
        "- duties guest-hour-2019\nimported 1 file: 0 added, 1 removed, 0 changed\n",
    )
    verified = run("trail", "verify")
    assert (verified.exit_code, verified.stdout.endswith(" rows: intact\n")) == (0, True)
    assert verified.stdout.startswith(f"trail of {entries + 1} entries over ")
    last = run("rules", "history", "--limit", "1").stdout.splitlines()[1].split()
    assert last[2:6] == ["li", "delete", "platform_duties", "guest-hour-2019"]
    assert "guest hour repealed" in run("rules", "history", "--limit", "1").stdout
    again = exported.parent.parent / "again"
    assert run("rules", "export", "-o", again).exit_code == 0
    assert 'id = "guest-hour-2019"' not in (again / "duties.toml").read_text(encoding="utf-8")
    back = run("rules", "import", exported, "--reason", "restored", "--delete-absent")
    assert back.stdout.startswith("+ duties guest-hour-2019\n")
    assert back.stdout.endswith("imported 1 file: 1 added, 0 removed, 0 changed\n")
    assert run("rules", "verify").exit_code == 0


def test_delete_absent_without_a_duties_file_is_a_usage_error_and_stores_nothing(run):
    rules = data_dir() / "games.toml"
    entries = run("rules", "verify").stdout
    result = run("rules", "import", rules, "--reason", "no duties", "--delete-absent")
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: --delete-absent deletes duty rows: give a duties.toml\n")
    assert run("rules", "verify").stdout == entries
