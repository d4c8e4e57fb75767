"""证据包 on SQLite and PostgreSQL: the tampered round replayed against its claim, the
manifest verified by sha256sum, the platform asked for, a moved log said plainly, a
pseudonymised pack without the lines, and a pack paged a page at a time."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from compliance.cli import cli
from compliance.service_layer import evidence as evidence_cases
from tests.conftest import SAMPLES

DOUNIU = SAMPLES / "douniu.jsonl"


def invoke(url: str, *args):
    return CliRunner().invoke(cli, [*map(str, args)], env={"COMPLIANCE_DB_URL": url})


def page(folder: Path, n: int = 1) -> dict:
    return json.loads((folder / f"sessions-{n:03d}.json").read_text(encoding="utf-8"))


def test_a_pack_for_a_player_of_a_tampered_round_shows_its_cards_and_both_settlements(
    any_db_url, tmp_path
):
    invoke(any_db_url, "audit", DOUNIU)
    out = tmp_path / "pack"
    result = invoke(any_db_url, "evidence", "player:hn1", "-o", out)
    assert (result.exit_code, result.stdout) == (
        0,
        f"evidence on player:hn1 (demo-platform, run 1): 5 findings, 4 sessions on 1 page → {out}\n",
    )
    checked = subprocess.run(
        ["sha256sum", "-c", "SHA256SUMS"], cwd=out, capture_output=True, text=True, check=False
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert sorted(line.split(": ")[0] for line in checked.stdout.splitlines()) == sorted(
        p.name for p in out.iterdir() if p.name != "SHA256SUMS"
    )
    tampered = next(s for s in page(out)["sessions"] if s["session_id"] == "hn-tampered")
    third = next(r for r in tampered["replay"]["rounds"] if r["round"] == 3)
    hn1 = next(p for p in third["players"] if p["player"] == "hn1")
    assert (hn1["claimed"], hn1["settled"], hn1["differs"]) == (-65, -35, True)
    assert len(hn1["cards"]) == 5 and hn1["hand"]
    assert [i["check"] for i in third["issues"]] == ["settlement_mismatch"]
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    kinds = sorted(f["kind"] for f in index["findings"])
    assert kinds == ["indeterminate", "integrity", "threshold", "threshold", "threshold"]
    band = next(f for f in index["findings"] if f["kind"] == "threshold")
    assert band["in_force"]["from"] and band["in_force"]["confidence"] in "HML"
    originals = {line.encode() for line in DOUNIU.read_text(encoding="utf-8").splitlines()}
    assert set((out / "lines.jsonl").read_bytes().splitlines()) <= originals
    assert "本证据包仅供参考" in (out / "index.html").read_text(encoding="utf-8")


def test_a_zip_pack_holds_the_same_files_and_a_used_folder_is_refused(any_db_url, tmp_path):
    invoke(any_db_url, "audit", DOUNIU)
    target = tmp_path / "pack.zip"
    assert invoke(any_db_url, "evidence", "hn1", "-o", target).exit_code == 0
    with zipfile.ZipFile(target) as archive:
        archive.extractall(tmp_path / "x")
    folder = tmp_path / "x" / "pack"
    assert (
        subprocess.run(
            ["sha256sum", "-c", "SHA256SUMS"], cwd=folder, check=False, capture_output=True
        ).returncode
        == 0
    )
    used = tmp_path / "used"
    used.mkdir()
    (used / "something").write_text("x")
    refused = invoke(any_db_url, "evidence", "hn1", "-o", used)
    assert refused.exit_code == 2 and "exists and is not an empty folder" in refused.stderr


def test_an_id_on_two_platforms_needs_the_platform(any_db_url, tmp_path):
    other = tmp_path / "other.jsonl"
    lines = [json.loads(x) for x in DOUNIU.read_text(encoding="utf-8").splitlines()]
    other.write_text(
        "\n".join(json.dumps({**x, "platform": "other-platform"}) for x in lines) + "\n",
        encoding="utf-8",
    )
    invoke(any_db_url, "audit", DOUNIU, other)
    asked = invoke(any_db_url, "evidence", "player:hn1", "-o", tmp_path / "p")
    assert asked.exit_code == 2
    assert asked.stderr.strip().endswith(
        "player:hn1 is found on 2 platforms (demo-platform, other-platform): give --platform"
    )
    given = invoke(
        any_db_url, "evidence", "player:hn1", "--platform", "other-platform", "-o", tmp_path / "p"
    )
    assert given.exit_code == 0 and "(other-platform, run 1)" in given.stdout
    nobody = invoke(any_db_url, "evidence", "player:nobody", "-o", tmp_path / "q")
    assert nobody.exit_code == 2 and "no stored session has player:nobody" in nobody.stderr


def test_a_log_moved_or_changed_since_the_audit_is_said_plainly(any_db_url, tmp_path):
    log = tmp_path / "copy.jsonl"
    log.write_bytes(DOUNIU.read_bytes())
    invoke(any_db_url, "audit", log)
    lines = log.read_bytes().splitlines(keepends=True)
    log.write_bytes(b"".join([lines[1], lines[0], *lines[2:]]))
    swapped = invoke(any_db_url, "evidence", "hn1", "-o", tmp_path / "a")
    assert ", 2 not readable again" in swapped.stdout
    errors = [s["error"] for s in page(tmp_path / "a")["sessions"] if "error" in s]
    assert errors == [
        f"line {n} of {log} is not the line audited (its SHA-256 differs): the file has "
        "changed since the audit, and no copy of the line is stored"
        for n in (2, 1)  # sessions in id order: hn-2025-12-31 was on line 2
    ]
    log.unlink()
    moved = invoke(any_db_url, "evidence", "hn1", "-o", tmp_path / "b")
    assert ", 4 not readable again" in moved.stdout
    assert all("No such file" in s["error"] for s in page(tmp_path / "b")["sessions"])


def test_a_pseudonymised_pack_has_no_lines_no_real_id_and_names_its_key(any_db_url, tmp_path):
    invoke(any_db_url, "audit", DOUNIU)
    key = tmp_path / "key"
    key.write_bytes(b"k" * 32)
    out = tmp_path / "pack"
    assert invoke(any_db_url, "evidence", "hn1", "-o", out, "--pseudonymise", key).exit_code == 0
    assert not (out / "lines.jsonl").exists()
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert index["key_fingerprint"] and index["subject"].startswith("player:p-")
    for file in out.iterdir():
        text = file.read_text(encoding="utf-8")
        assert '"hn1"' not in text and ">hn1<" not in text and "湖南玩家" not in text, file.name


def test_a_subjects_sessions_are_paged_and_each_page_written_by_itself(
    any_db_url, tmp_path, monkeypatch
):
    invoke(any_db_url, "audit", DOUNIU)
    monkeypatch.setattr(evidence_cases, "PAGE", 3)
    out = tmp_path / "pack"
    result = invoke(any_db_url, "evidence", "hn1", "-o", out)
    assert "4 sessions on 2 pages" in result.stdout
    assert [len(page(out, n)["sessions"]) for n in (1, 2)] == [3, 1]
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    assert [len(p["sessions"]) for p in index["pages"]] == [3, 1]


@pytest.mark.parametrize("subject", ["owner:", "platform:"])
def test_a_kind_without_an_id_is_a_usage_error(any_db_url, tmp_path, subject):
    result = invoke(any_db_url, "evidence", subject, "-o", tmp_path / "p")
    assert result.exit_code == 2 and f"'{subject}': no id after" in result.stderr


@pytest.mark.parametrize("how", ["stdin", "keep-lines"])
def test_a_streamed_or_kept_line_is_stored_and_the_pack_needs_no_file(any_db_url, tmp_path, how):
    log = tmp_path / "copy.jsonl"
    log.write_bytes(DOUNIU.read_bytes())
    if how == "stdin":
        result = CliRunner().invoke(
            cli, ["audit", "-"], env={"COMPLIANCE_DB_URL": any_db_url}, input=log.read_bytes()
        )
    else:
        result = invoke(any_db_url, "audit", log, "--keep-lines")
    assert result.exit_code == 0
    log.unlink()
    out = tmp_path / "pack"
    made = invoke(any_db_url, "evidence", "hn1", "-o", out)
    assert "not readable again" not in made.stdout
    sessions = page(out)["sessions"]
    assert {s["line_from"] for s in sessions} == {"store"}
    originals = {line.encode() for line in DOUNIU.read_text(encoding="utf-8").splitlines()}
    assert set((out / "lines.jsonl").read_bytes().splitlines()) <= originals
    assert all(s["replay"]["rounds"] for s in sessions)


def test_each_stored_session_knows_its_lines_offset_and_digest(any_db_url):
    import hashlib

    from sqlalchemy import select

    from compliance.db.engine import make_engine
    from compliance.db.models import SessionRow

    invoke(any_db_url, "audit", DOUNIU)
    data = DOUNIU.read_bytes()
    with make_engine(any_db_url).connect() as conn:
        rows = conn.execute(
            select(
                SessionRow.source_line,
                SessionRow.source_offset,
                SessionRow.line_sha256,
                SessionRow.line,
            )
        ).all()
    starts = [0] + [i + 1 for i, b in enumerate(data) if b == 0x0A][:-1]
    lines = data.splitlines()
    for number, offset, digest, line in rows:
        assert offset == starts[number - 1]
        assert digest == hashlib.sha256(lines[number - 1]).hexdigest()
        assert line is None  # a file's lines are not kept without --keep-lines
