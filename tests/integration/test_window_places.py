"""A window subject is judged under the place of most of its window's sessions; ties go low."""

from __future__ import annotations

from datetime import date

from compliance.db.engine import make_engine
from compliance.db.unit_of_work import SqlUnitOfWork
from tests.integration.test_windows import audit, by_subject, room, write

REGULARS = ["a", "b", "c", "d"]


def rooms(places: dict[str, int], owner: str = "boss") -> list[dict]:
    wheres = [code for code, n in places.items() for _ in range(n)]
    return [
        room(n, owner, f"2026-0{1 + n % 5}-{10 + n}", fee=600, basis="stakes", where=where)
        for n, where in enumerate(wheres)
    ]


def test_an_owner_split_evenly_between_two_provinces_is_judged_under_the_lower_code_and_told(
    any_db_url, tmp_path
):
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", rooms({"430000": 5, "810000": 5})))
    boss = by_subject(windows)["owner:boss"]
    assert boss.jurisdiction == "430000"
    assert boss.dispute_note == (
        "judged under 430000: the window's sessions are tied between 430000 and 810000 "
        "(5 each), and a tie goes to the lowest code; "
        "under 810000 it would be indeterminate (outside mainland law)"
    )


def test_a_tie_that_changes_nothing_is_judged_under_the_lower_code_with_no_note(
    any_db_url, tmp_path
):
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", rooms({"430000": 5, "420000": 5})))
    boss = by_subject(windows)["owner:boss"]
    assert (boss.jurisdiction, boss.dispute_note) == ("420000", None)


def test_an_owner_with_most_sessions_in_one_province_is_judged_there_with_no_note(
    any_db_url, tmp_path
):
    _, windows = audit(any_db_url, write(tmp_path / "a.jsonl", rooms({"420000": 5, "430000": 6})))
    boss = by_subject(windows)["owner:boss"]
    assert (boss.jurisdiction, boss.dispute_note) == ("430000", None)


def test_a_player_is_placed_where_most_of_his_window_was_played_not_at_the_highest_code(
    any_db_url, tmp_path
):
    sessions = [
        room(n, "boss", f"2026-01-1{n}", players=REGULARS, where=where)
        for n, where in enumerate(["430000", "430000", "430000", "500000"])
    ]
    audit(any_db_url, write(tmp_path / "a.jsonl", sessions))
    with SqlUnitOfWork(make_engine(any_db_url)) as uow:
        figures = uow.windows.figures({"p1"}, date(2026, 1, 1), date(2026, 1, 31))
    player = next(f for f in figures if (f.kind, f.id) == ("player", "a"))
    assert player.jurisdiction == "430000"
    assert player.places == {"430000": 3, "500000": 1}


def test_the_place_of_a_window_is_the_majority_and_a_tie_the_lowest_code():
    from compliance.domain.windows import WindowFigures, place_of, tied_places

    assert place_of({}) is None
    assert place_of({"500000": 1, "430000": 3}) == "430000"
    assert place_of({"500000": 2, "430000": 2, "110000": 1}) == "430000"
    one = WindowFigures("owner", "x", "p", "430000", date(2026, 1, 1), date(2026, 1, 2), 1)
    one.places = {"430000": 2, "500000": 2, "110000": 1}
    assert tied_places(one) == ["430000", "500000"]
