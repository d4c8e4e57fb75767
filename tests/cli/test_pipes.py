"""Input and output the Unix way (issue #19, section 1, and its Ctrl-C item): `-` is standard
input or output everywhere, gzip is known by its bytes, a byte-order mark is read, a closed
pipe cuts the output and not the run, a missing SQLite file is said, not made."""

from __future__ import annotations

import gzip
import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from tqdm import tqdm

from compliance.cli import cli
from compliance.games import game_codes
from compliance.resources import data_dir
from compliance.service_layer.simulate import SimulationSpec, write_log
from tests.conftest import SAMPLES

BAD = SAMPLES / "bad.jsonl"
DOUNIU = SAMPLES / "douniu.jsonl"
HUNAN = data_dir() / "jurisdictions" / "430000-hunan.toml"
DOUNIU_SUMMARY = (
    "audited 8 sessions, 0 rejected; findings: threshold 32 (exempt 4, below_threshold 9, "
    "administrative 7, administrative_serious 1, administrative_very_serious 11), "
    "integrity 1, indeterminate 4; run {run} stored in {url}\n"
)


def bad_stderr(name: str, url: str, run: int = 1) -> str:
    """What auditing data/samples/bad.jsonl prints on standard error, the file named `name`."""
    return (
        f"reject: {name}:2 session cut-1: malformed JSON: Input data was truncated\n"
        f"reject: {name}:3 session dup-card: round 2: duplicate card D5\n"
        f"reject: {name}:4 session mystery-game: unknown game 'zhajinhua' "
        f"(known: {', '.join(game_codes())})\n"
        "audited 1 session, 3 rejected; findings: threshold 4 (below_threshold 1, "
        "administrative 2, administrative_very_serious 1), integrity 0, indeterminate 0; "
        f"run {run} stored in {url}\n"
    )


@pytest.fixture
def run(sqlite_url):
    runner = CliRunner()

    def invoke(*args, input: bytes | str | None = None, url: str = sqlite_url):
        return runner.invoke(cli, [*map(str, args)], input=input, env={"COMPLIANCE_DB_URL": url})

    return invoke


def count(url: str, sql: str) -> int:
    engine = create_engine(url)
    with engine.connect() as conn:
        found = conn.execute(text(sql)).scalar_one()
    engine.dispose()
    return found


# reading `-` and streams ------------------------------------------------------------


def test_audit_reads_a_dash_as_standard_input_and_names_its_lines_by_it(run, sqlite_url):
    result = run("audit", "-", input=BAD.read_bytes())
    assert (result.exit_code, result.stderr) == (0, bad_stderr("-", sqlite_url))
    assert count(sqlite_url, "select count(*) from rejects where file = '-'") == 3


def test_audit_reads_gzip_on_standard_input_by_its_magic_bytes(run, sqlite_url):
    result = run("audit", "-", input=gzip.compress(BAD.read_bytes()))
    assert (result.exit_code, result.stderr) == (0, bad_stderr("-", sqlite_url))


def test_a_gzip_file_named_jsonl_is_read_as_gzip(run, sqlite_url, tmp_path):
    packed = tmp_path / "logs.jsonl"
    packed.write_bytes(gzip.compress(BAD.read_bytes()))
    result = run("audit", packed)
    assert (result.exit_code, result.stderr) == (0, bad_stderr(str(packed), sqlite_url))


def test_a_byte_order_mark_before_the_first_line_is_read_not_rejected(run, sqlite_url, tmp_path):
    marked = tmp_path / "excel.jsonl"
    marked.write_bytes(b"\xef\xbb\xbf" + DOUNIU.read_bytes())
    result = run("audit", marked)
    assert (result.exit_code, result.stderr) == (
        0,
        DOUNIU_SUMMARY.format(run=1, url=sqlite_url),
    )


def test_a_byte_order_mark_on_gzipped_standard_input_is_read_too(run, sqlite_url):
    result = run("audit", "-", input=gzip.compress(b"\xef\xbb\xbf" + DOUNIU.read_bytes()))
    assert (result.exit_code, result.stderr) == (0, DOUNIU_SUMMARY.format(run=1, url=sqlite_url))


def test_standard_input_with_workers_is_spooled_and_says_so(run, sqlite_url):
    result = run("audit", "-", "--workers", "2", input=BAD.read_bytes())
    assert (result.exit_code, result.stderr) == (
        0,
        "spooling - to a temporary file so that the workers can split it (a stream cannot "
        "be read by offsets); it is removed after the run\n" + bad_stderr("-", sqlite_url),
    )
    assert count(sqlite_url, "select count(*) from sessions where source_file = '-'") == 1


def test_standard_input_for_a_remote_dask_cluster_is_a_one_line_error(run, sqlite_url):
    result = run("audit", "-", "--dask", "tcp://10.0.0.9:8786", input=BAD.read_bytes())
    assert (result.exit_code, result.stderr) == (
        1,
        "Error: --dask tcp://10.0.0.9:8786: the workers read the input where they run, and - "
        "is a stream only this process can read: save it to a file they reach\n",
    )


def test_standard_input_given_twice_is_a_usage_error(run, tmp_path):
    priors = tmp_path / "priors.csv"
    priors.write_text("platform,player_id,date\n")
    for args in (["-", "-"], ["-", "--priors", "-"]):
        result = run("audit", *args, input="")
        assert (result.exit_code, result.stderr.splitlines()[-1]) == (
            2,
            "Error: standard input (-) can be read once: give - only once",
        )


def test_priors_read_from_standard_input(run, tmp_path):
    result = run("audit", DOUNIU, "--priors", "-", input="platform,player_id,date\np,x,soon\n")
    assert (result.exit_code, result.stderr) == (1, "Error: -:2: bad date 'soon'\n")
    good = "platform,player_id,date\nqp-demo,hn1,2025-06-01\n"
    (tmp_path / "priors.csv").write_text(good)
    from_file = run("audit", DOUNIU, "--priors", tmp_path / "priors.csv", "--format", "jsonl")
    from_stdin = run("audit", DOUNIU, "--priors", "-", "--format", "jsonl", input=good)
    assert from_stdin.exit_code == from_file.exit_code == 0
    assert from_stdin.stdout == from_file.stdout


def test_games_settle_reads_standard_input_and_gzip_by_its_bytes(run, tmp_path):
    from_file = run("games", "settle", DOUNIU)
    packed = tmp_path / "douniu.jsonl"
    packed.write_bytes(gzip.compress(DOUNIU.read_bytes()))
    from_stdin = run("games", "settle", "-", input=DOUNIU.read_bytes())
    from_gzip = run("games", "settle", packed)
    assert (from_stdin.exit_code, from_gzip.exit_code) == (0, 0)
    assert from_stdin.stdout == from_gzip.stdout == from_file.stdout
    assert from_file.stdout.startswith("session hn-2026-03-01 (douniu, 6 rounds)\n")


def test_rules_check_reads_a_rule_file_from_standard_input(run):
    result = run("rules", "check", "--source", data_dir(), "-", input=HUNAN.read_bytes())
    from_file = run("rules", "check", "--source", data_dir(), HUNAN)
    assert (result.exit_code, result.stdout) == (0, from_file.stdout)
    assert result.stdout.endswith(" instruments: no problems\n")


def test_rules_import_reads_a_rule_file_from_standard_input(run):
    assert run("db", "seed").exit_code == 0
    retitled = HUNAN.read_text().replace(
        'title = "湖南省公安机关办理赌博类行政案件规定"', 'title = "湖南省赌博类行政案件规定"', 1
    )
    result = run("rules", "import", "-", "--reason", "re-read", input=retitled)
    assert result.exit_code == 0
    assert result.stdout.endswith("imported 1 file: 0 added, 0 removed, 1 changed\n")
    assert "湖南省赌博类行政案件规定" in result.stdout


# writing `-` --------------------------------------------------------------------------


def test_simulate_to_a_dash_writes_standard_output_and_no_file(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    to_file = run("simulate", "--sessions", "3", "--seed", "4", "-o", "made.jsonl")
    to_stdout = run("simulate", "--sessions", "3", "--seed", "4", "-o", "-")
    assert (to_file.exit_code, to_stdout.exit_code) == (0, 0)
    assert to_stdout.stdout_bytes == (tmp_path / "made.jsonl").read_bytes()
    assert to_stdout.stderr == to_file.stdout.replace("to made.jsonl", "to standard output")
    assert not (tmp_path / "-").exists()


def test_demo_log_to_a_dash_writes_standard_output_and_the_summary_to_stderr(
    run, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    first, second = f"sqlite:///{tmp_path / 'a.db'}", f"sqlite:///{tmp_path / 'b.db'}"
    to_file = run("demo", "--sessions", "16", "--seed", "5", "--log", "d.jsonl", url=first)
    to_stdout = run("demo", "--sessions", "16", "--seed", "5", "--log", "-", url=second)
    assert (to_file.exit_code, to_stdout.exit_code) == (0, 0)
    assert to_stdout.stdout_bytes == (tmp_path / "d.jsonl").read_bytes()
    assert to_stdout.stderr == (
        to_file.stdout.replace("→ d.jsonl", "→ standard output")
        .replace(first, second)
        .replace("audit d.jsonl", "audit -")
    )
    assert not (tmp_path / "-").exists()
    assert count(second, "select count(*) from sessions where source_file = '-'") == 16


# a closed pipe --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> Path:
    """A log whose findings far outgrow a pipe's 64 KiB buffer."""
    path = tmp_path_factory.mktemp("big") / "big.jsonl"
    write_log(SimulationSpec(games=("douniu",), sessions=200, seed=8, anomalies=0.0), str(path))
    return path


def test_a_closed_pipe_cuts_the_output_and_the_run_is_stored(run, big_log, tmp_path):
    whole = f"sqlite:///{tmp_path / 'whole.db'}"
    cut = f"sqlite:///{tmp_path / 'cut.db'}"
    reference = run("audit", big_log, "--format", "jsonl", "-o", tmp_path / "all.jsonl", url=whole)
    fifo = tmp_path / "head"
    os.mkfifo(fifo)
    first_line: list[bytes] = []

    def head_one() -> None:
        with open(fifo, "rb") as reader:
            first_line.append(reader.readline())

    reader = threading.Thread(target=head_one)
    reader.start()
    result = run("audit", big_log, "--format", "jsonl", "-o", fifo, url=cut)
    reader.join()
    assert result.exit_code == reference.exit_code == 0
    assert result.stderr == reference.stderr.replace(whole, cut).replace(
        "\n", "; output cut: its reader closed it, the audit went on to the end\n"
    )
    assert first_line == [(tmp_path / "all.jsonl").read_bytes().split(b"\n")[0] + b"\n"]
    assert count(cut, "select count(*) from sessions") == 200
    assert count(cut, "select count(*) from audit_runs where finished_at is not null") == 1


# a database that is not there -----------------------------------------------------------


def test_report_on_a_missing_sqlite_file_says_so_and_makes_none(run, tmp_path):
    path = tmp_path / "nowhere.db"
    for args in (["report"], ["db", "current"]):
        result = run(*args, "--db", f"sqlite:///{path}")
        assert (result.exit_code, result.stderr) == (
            1,
            f"Error: no database at sqlite:///{path}: the file {path} does not exist "
            "(`compliance audit` or `compliance db upgrade` creates it)\n",
        )
        assert not path.exists()


@pytest.mark.parametrize(
    "args", [["rules", "list"], ["rules", "show", "hunan"], ["rules", "check"]], ids=" ".join
)
def test_rules_without_a_database_read_the_shipped_data_and_make_none(
    run, sqlite_url, tmp_path, args
):
    fresh = run(*args)
    assert fresh.stderr == (
        f"no database at {sqlite_url} yet: read the shipped rules in {data_dir()}, "
        "which the first audit seeds\n"
    )
    assert not (tmp_path / "compliance.db").exists()
    assert run("db", "seed").exit_code == 0
    seeded = run(*args)
    assert (fresh.exit_code, fresh.stdout) == (seeded.exit_code, seeded.stdout)
    assert seeded.stderr == ""


# Ctrl-C ---------------------------------------------------------------------------------


def _interrupt_at_the_third(monkeypatch) -> None:
    seen: list[object] = []

    def update(self, n=1) -> None:
        seen.append(n)
        if len(seen) == 3:
            raise KeyboardInterrupt

    monkeypatch.setattr(tqdm, "update", update)  # called once a session, bar drawn or not


def test_ctrl_c_before_the_first_batch_says_nothing_is_stored_and_exits_130(
    run, sqlite_url, monkeypatch
):
    _interrupt_at_the_third(monkeypatch)
    result = run("audit", DOUNIU)
    assert (result.exit_code, result.stderr) == (
        130,
        "Error: interrupted before the first batch was stored: no session is stored; run 1 "
        "is kept, empty and marked unfinished (reports say so); audit the files again to "
        "complete it\n",
    )
    assert count(sqlite_url, "select count(*) from sessions") == 0
    assert count(sqlite_url, "select count(*) from audit_runs where finished_at is null") == 1


def test_ctrl_c_of_a_strict_run_says_nothing_of_it_is_kept(run, sqlite_url, monkeypatch):
    _interrupt_at_the_third(monkeypatch)
    result = run("audit", DOUNIU, "--strict")
    assert (result.exit_code, result.stderr) == (
        130,
        "Error: interrupted before the run was stored: nothing of it is kept\n",
    )
    assert count(sqlite_url, "select count(*) from audit_runs") == 0


@pytest.mark.parametrize(
    ("stored", "rejects", "parallel", "said"),
    [
        (
            2000,
            1,
            False,
            "interrupted: 2000 sessions and 1 reject stored before the stop stay, in run 4, "
            "marked unfinished (reports say so); audit the files again to complete it",
        ),
        (
            1,
            0,
            True,
            "interrupted: at least 1 session and 0 rejects stored before the stop stay, in "
            "run 4, marked unfinished (reports say so); audit the files again to complete it",
        ),
        (
            0,
            0,
            True,
            "interrupted before a worker reported a batch: run 4 is kept, marked unfinished "
            "(reports say so), with what its workers had stored; audit the files again to "
            "complete it",
        ),
    ],
    ids=["after batches", "workers after a batch", "workers before a batch"],
)
def test_ctrl_c_after_batches_says_what_they_stored(stored, rejects, parallel, said):
    from compliance.cli.audit import stopped
    from compliance.service_layer import audit as services

    summary = services.AuditSummary(run_id=4, stored=stored, stored_rejects=rejects)
    assert stopped(services.Interrupted(summary, strict=False, parallel=parallel)) == said
