"""`compliance rules` and `compliance whatif` as a user meets them: exact output and exit codes."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from compliance import ruledata
from compliance.cli import cli
from compliance.db.engine import make_engine
from compliance.domain.duties.rows import CHECKS
from compliance.dutydata import load_duties
from tests.conftest import ROOT, SAMPLES
from tests.rule_files import falling, hunan_with, overlapping

DOUNIU = str(SAMPLES / "douniu.jsonl")


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": sqlite_url})

    return invoke


SHIPPED_DUTIES = load_duties().duties
DUTIES = (
    f"checked {len(SHIPPED_DUTIES)} duty rows of {len({d.check for d in SHIPPED_DUTIES})} "
    "checks: no problems\n"
)


def shipped_summary() -> str:
    book = ruledata.load_book()
    return (
        DUTIES
        + f"checked {len(book.bands)} bands of {len(book.instruments)} instruments: no problems\n"
    )


def test_list_shows_hunans_instruments_with_dates_confidence_and_bands(run):
    result = run("rules", "list", "--jurisdiction", "湖南")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "instrument          jurisdiction  kind                 from        to          conf  bands  title\n"
            "hn-2007-rules       430000        provincial_standard  2007-04-11  2014-12-31  L     0      湖南省公安机关办理赌博类行政案件规定\n"
            "hn-2015-discretion  430000        provincial_standard  2015-01-01  —           M     7      湖南省公安行政处罚裁量权基准实施办法\n"
        ),
    )


def test_list_as_of_a_date_leaves_out_what_was_not_in_force(run):
    result = run(
        "rules", "list", "--jurisdiction", "hunan", "--as-of", "2010-01-01", "--format", "json"
    )
    assert [i["id"] for i in json.loads(result.stdout)] == ["hn-2007-rules"]


def test_show_gives_each_band_its_tier_condition_source_and_confidence(run):
    result = run("rules", "show", "hunan", "--as-of", "2026-03-01", "--format", "json")
    shown = json.loads(result.stdout)
    band = next(b for b in shown["bands"] if b["id"] == "hn-2015-general-stake")
    assert shown["chain"] == ["430000", "000000"]
    assert band == {
        "id": "hn-2015-general-stake",
        "subject": "player",
        "tier": "administrative",
        "tier_label": "赌资较大 administrative",
        "condition": "(single_stake ≥ 20 and ≤ 50) or (session_win_loss ≥ 2000 and < 5000)",
        "game_classes": [],
        "role": None,
        "venues": [],
        "article": "一般情节",
        "penalty": "处五日以下拘留或者五百元以下罚款",
        "instrument": "hn-2015-discretion",
        "source": "seed 000 (澎湃新闻 法治课 article); legal.md (b) 湖南 row 2 (seed, not re-verified)",
        "confidence": "M",
    }


def test_show_as_a_table_reads_band_by_band(run):
    lines = run("rules", "show", "hunan", "--as-of", "2026-03-01").stdout.splitlines()
    assert lines[0] == "湖南省 430000 on 2026-03-01 (judged by 430000 < 000000)"
    at = lines.index("  赌资较大 administrative  [player]  hn-2015-general-stake")
    assert (
        lines[at + 1]
        == "    when (single_stake ≥ 20 and ≤ 50) or (session_win_loss ≥ 2000 and < 5000)"
    )


def test_check_passes_on_the_shipped_data(run):
    assert (run("rules", "check").exit_code, run("rules", "check").stdout) == (0, shipped_summary())
    result = run("rules", "check", ROOT / "data")
    assert (result.exit_code, result.stdout) == (0, shipped_summary())


def test_check_catches_an_overlapping_band_and_exits_3(run, tmp_path):
    result = run("rules", "check", overlapping(tmp_path))
    book = ruledata.load_book()
    assert (result.exit_code, result.stdout) == (
        3,
        (
            DUTIES
            + "overlap: hn-2015-general-stake, hn-2015-general-serious: single_stake [50, 60] is in both "
            "administrative [20, 60] and administrative_serious [50, 100]\n"
            f"checked {len(book.bands)} bands of {len(book.instruments)} instruments: 1 problem\n"
        ),
    )


def test_check_catches_a_tier_that_falls_as_the_amount_rises(run, tmp_path):
    result = run("rules", "check", "--format", "json", falling(tmp_path))
    assert result.exit_code == 3
    assert "tier_order" in {p["check"] for p in json.loads(result.stdout)["problems"]}


def test_diff_of_two_dates_shows_what_came_into_force(run):
    result = run("rules", "diff", "2014-12-31", "2015-01-01", "--jurisdiction", "hunan")
    lines = result.stdout.splitlines()
    assert result.exit_code == 0
    assert lines[:3] == [
        "- instruments hn-2007-rules",
        "+ instruments hn-2015-discretion",
        "    title: 湖南省公安行政处罚裁量权基准实施办法",
    ]
    assert lines[3:6] == [
        "+ bands hn-2015-banker-card-banker",
        "    tier: administrative_very_serious",
        "    condition: always (no condition)",
    ]
    assert lines[-1] == "8 added, 1 removed, 0 changed"


def test_diff_of_a_date_against_a_version_is_a_usage_error(run):
    result = run("rules", "diff", "2025-12-31", "db")
    assert result.exit_code == 2
    assert result.stderr.endswith(
        "Error: compare two dates, or two versions (db, a data/ folder, a file)\n"
    )


def test_diff_of_a_missing_version_is_a_usage_error_and_opens_no_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        cli, ["rules", "diff", "db", "nowhere"], env={"COMPLIANCE_DB_URL": None}
    )
    assert result.exit_code == 2
    assert result.stderr.endswith("Error: Invalid value for NEW: nowhere: no such file or folder\n")
    assert list(tmp_path.iterdir()) == []


def test_diff_of_two_folders_by_a_jurisdiction_name_opens_no_database(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = str(ROOT / "data")
    args = ["rules", "diff", data, data, "--jurisdiction", "湖南"]
    result = CliRunner().invoke(cli, args, env={"COMPLIANCE_DB_URL": None})
    assert (result.exit_code, result.stdout) == (0, "0 added, 0 removed, 0 changed\n")
    assert list(tmp_path.iterdir()) == []


def test_diff_of_a_file_against_the_database_names_the_band_and_its_change(run, tmp_path):
    result = run("rules", "diff", "db", overlapping(tmp_path))
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "~ bands hn-2015-general-stake\n"
            "    condition: (single_stake ≥ 20 and ≤ 50) or (session_win_loss ≥ 2000 and < 5000) → "
            "(single_stake ≥ 20 and ≤ 60) or (session_win_loss ≥ 2000 and < 5000)\n"
            "0 added, 0 removed, 1 changed\n"
        ),
    )


def test_import_refuses_an_overlap_with_one_line_and_exit_1(run, tmp_path):
    run("db", "seed")
    result = run("rules", "import", overlapping(tmp_path), "--reason", "try")
    assert (result.exit_code, result.stderr) == (
        1,
        (
            "Error: refused: overlap: hn-2015-general-stake, hn-2015-general-serious: single_stake "
            "[50, 60] is in both administrative [20, 60] and administrative_serious [50, 100]\n"
        ),
    )


def test_a_lone_file_cannot_be_the_first_import(run, tmp_path):
    result = run("rules", "import", overlapping(tmp_path), "--reason", "first")
    assert (result.exit_code, result.stderr) == (
        1,
        (
            "Error: jurisdiction 430000: unknown parent 000000 (the database has no rules yet: import "
            "a whole data/ folder, or run `compliance db seed` first)\n"
        ),
    )


def test_import_needs_a_reason(run, tmp_path):
    assert run("rules", "import", overlapping(tmp_path)).exit_code == 2


def test_import_then_verify_then_an_edit_behind_the_tools_back(run, sqlite_url, tmp_path):
    path = hunan_with(tmp_path, 'article = "一般情节"', 'article = "一般情节（第一档）"')
    run("db", "seed")
    result = run("rules", "import", path, "--reason", "article names the 档", "--actor", "li")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "~ bands hn-2015-general-stake\n"
            "    article: 一般情节 → 一般情节（第一档）\n"
            "imported 1 file: 0 added, 0 removed, 1 changed\n"
        ),
    )
    verified = run("rules", "verify")
    assert verified.exit_code == 0
    assert verified.stdout.endswith(" rows: intact\n")
    assert run("rules", "history", "--limit", "1").stdout.splitlines()[1].split()[2:] == [
        "li",
        "update",
        "threshold_bands",
        "hn-2015-general-stake",
        "article",
        "names",
        "the",
        "档",
    ]
    with make_engine(sqlite_url).begin() as conn:
        conn.execute(
            text(
                "UPDATE threshold_bands SET tier = 'below_threshold' "
                "WHERE id = 'hn-2015-general-serious'"
            )
        )
    result = run("rules", "verify")
    assert result.exit_code == 3
    assert result.stdout.splitlines()[0] == (
        "threshold_bands hn-2015-general-serious: changed outside the tool "
        "(tier: trail 'administrative_serious', database 'below_threshold')"
    )
    assert result.stdout.splitlines()[-1].endswith(" rows: 1 problem")


def test_export_writes_the_layout_of_data(run, tmp_path):
    result = run("rules", "export", "-o", tmp_path / "out")
    count = len(ruledata.load_book().jurisdictions) + 2  # games.toml, duties.toml
    assert (result.exit_code, result.stdout) == (0, f"wrote {count} files to {tmp_path / 'out'}\n")
    assert load_duties(tmp_path / "out" / "duties.toml").duties == sorted(
        SHIPPED_DUTIES, key=lambda d: (list(CHECKS).index(d.check), d.id)
    )
    assert run("rules", "check", tmp_path / "out").exit_code == 0


def test_whatif_lists_the_players_whose_tier_changes_and_counts_them(run):
    run("audit", DOUNIU)
    result = run("whatif", "--set", "hn-2015-banker-card-very-serious.single_stake.min=100")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "session                      player  jurisdiction  date        before                       after\n"
            "demo-platform/hn-2025-12-31  hn2     430000        2025-12-31  administrative_very_serious  administrative_serious\n"
            "demo-platform/hn-2026-03-01  hn2     430000        2026-03-01  administrative_very_serious  administrative_serious\n"
            "\n"
            "jurisdiction  before                       after                   players\n"
            "430000        administrative_very_serious  administrative_serious  2\n"
            "\n"
            "2 of 33 players in 2 of 8 sessions change tier; 0 of 3 judged over a window "
            "(stored results untouched)\n"
        ),
    )


def test_whatif_rejudges_room_owners_over_the_window(run):
    # owner-1 takes only a fixed room fee: art. 9 keeps him below the lowered line (issue 18)
    run("audit", DOUNIU)
    result = run("whatif", "--set", "interp-2005-gathering.window_participants.min=4")
    assert (result.exit_code, result.stdout) == (
        0,
        (
            "subject                      jurisdiction  window                 before           after\n"
            "demo-platform/owner:owner-2  000000        2021-03-01–2026-03-01  below_threshold  criminal\n"
            "\n"
            "0 of 33 players in 0 of 8 sessions change tier; 1 of 3 judged over a window "
            "(stored results untouched)\n"
        ),
    )


def test_whatif_without_a_change_is_a_usage_error(run):
    result = run("whatif")
    assert result.exit_code == 2
    assert "give --rules FILE or --set BAND.METRIC.BOUND=VALUE" in result.stderr


def test_whatif_with_a_bad_setting_is_a_one_line_error(run):
    run("audit", DOUNIU)
    result = run("whatif", "--set", "no-such-band.single_stake.max=1")
    assert (result.exit_code, result.stderr) == (2, "Error: unknown band 'no-such-band'\n")


def test_whatif_takes_a_rule_file_and_answers_in_json(run, tmp_path):
    run("audit", DOUNIU)
    path = hunan_with(
        tmp_path, '{ metric = "single_stake", min = 50 }', '{ metric = "single_stake", min = 100 }'
    )
    result = run("whatif", "--rules", path, "--format", "json")
    answer = json.loads(result.stdout)
    assert result.exit_code == 0
    assert (answer["sessions"], answer["players"]) == (8, 33)
    assert answer["counts"] == [
        {
            "jurisdiction": "430000",
            "before": "administrative_very_serious",
            "after": "administrative_serious",
            "players": 2,
        }
    ]


def test_a_seed_says_who_and_why_in_the_trail(run):
    assert run("db", "seed", "--reason", "first load", "--actor", "wang").exit_code == 0
    newest = run("rules", "history", "--limit", "1").stdout.splitlines()[1].split()
    assert (newest[2], newest[-2:]) == ("wang", ["first", "load"])


def test_diff_of_a_province_shows_the_national_rows_it_inherits(run):
    result = run("rules", "diff", "2025-12-31", "2026-01-01", "--jurisdiction", "hunan")
    assert result.exit_code == 0
    assert result.stdout == (
        "- instruments zhian-2005  (inherited from 000000)\n"
        "+ instruments zhian-2025  (inherited from 000000)\n"
        "    title: 中华人民共和国治安管理处罚法（2025年6月27日修订）\n"
        "- penalties zhian-2005-general  (inherited from 000000)\n"
        "- penalties zhian-2005-serious  (inherited from 000000)\n"
        "+ penalties zhian-2025-general  (inherited from 000000)\n"
        "+ penalties zhian-2025-serious  (inherited from 000000)\n"
        "- aggravations mps-2005-repeat  (inherited from 000000)\n"
        "- aggravations zhian-2005-repeat  (inherited from 000000)\n"
        "+ aggravations zhian-2025-repeat  (inherited from 000000)\n"
        "4 added, 5 removed, 0 changed\n"
    )


def test_an_aggravations_validity_goes_through_show_export_import_and_diff(run, tmp_path):
    shown = json.loads(
        run("rules", "show", "湖南", "--as-of", "2024-06-01", "--format", "json").stdout
    )
    (notice,) = [a for a in shown["aggravations"] if a["id"] == "mps-2005-repeat"]
    assert (notice["effective_from"], notice["effective_to"], notice["within_days"]) == (
        "2006-03-01",
        "2025-12-31",
        365,
    )
    later = run("rules", "show", "湖南", "--as-of", "2026-06-01").stdout.splitlines()
    assert not [line for line in later if "mps-2005-repeat" in line]
    assert run("rules", "export", "-o", tmp_path / "out").exit_code == 0
    national = tmp_path / "out" / "jurisdictions" / "000000-national.toml"
    text = national.read_text(encoding="utf-8")
    assert "effective_to = 2025-12-31\n" in text.split('id = "mps-2005-repeat"')[1]
    head, tail = text.split('id = "mps-2005-repeat"')
    tail = tail.replace("effective_to = 2025-12-31", "effective_to = 2024-12-31", 1)
    national.write_text(f'{head}id = "mps-2005-repeat"{tail}', encoding="utf-8")
    diff = run("rules", "diff", "db", tmp_path / "out")
    assert diff.stdout.splitlines()[:2] == [
        "~ aggravations mps-2005-repeat",
        "    effective_to: 2025-12-31 → 2024-12-31",
    ]
    imported = run("rules", "import", tmp_path / "out", "--reason", "notice ends earlier")
    assert imported.exit_code == 0, imported.output
    show = run("rules", "show", "湖南", "--as-of", "2025-06-01").stdout
    assert "mps-2005-repeat" not in show
    assert run("rules", "diff", "db", ROOT / "data").stdout.splitlines()[:2] == [
        "~ aggravations mps-2005-repeat",
        "    effective_to: 2024-12-31 → 2025-12-31",
    ]


def test_show_names_the_venue_a_band_tests(run):
    lines = run("rules", "show", "jiangsu", "--as-of", "2026-03-01").stdout.splitlines()
    assert "  赌资较大 administrative  [player; venue online]  js-2010-a-fine" in lines
    assert (
        "  赌资较大 administrative  [player; venue private_home, public_place, vehicle, workplace]"
        "  js-2010-b-fine"
    ) in lines
