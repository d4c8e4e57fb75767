"""规则导出: export then load gives the same rule book."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from compliance import ruledata, ruletoml


def test_exporting_the_shipped_data_and_loading_it_gives_an_equal_book(rule_book, tmp_path):
    ruletoml.export_book(rule_book, tmp_path)
    assert ruledata.load_book(tmp_path) == rule_book


def test_exported_files_are_named_by_code_in_the_layout_of_data(rule_book, tmp_path):
    written = ruletoml.export_book(rule_book, tmp_path)
    names = [p.relative_to(tmp_path).as_posix() for p in written]
    assert names[:3] == [
        "games.toml",
        "jurisdictions/000000-national.toml",
        "jurisdictions/110000-beijing.toml",
    ]
    assert "jurisdictions/430000-hunan.toml" in names


@pytest.mark.parametrize(
    "text",
    [
        'quote " and backslash \\ and tab \t',
        "two\nlines",
        "\nleading newline",
        "bell \x07",
        "中文 、全角（括号）",
        'ends with quote"',
        'three """ quotes\nover lines',
    ],
    ids=["quote", "lines", "leading-newline", "control", "chinese", "end-quote", "triple"],
)
def test_strings_survive_the_serializer(text):
    assert tomllib.loads(f"x = {ruletoml.string(text)}\n")["x"] == text


def test_a_note_with_awkward_characters_round_trips(rule_book, tmp_path):
    band = dataclasses.replace(rule_book.bands[0], note='a "quoted" \\ note\nover two lines')
    book = dataclasses.replace(rule_book, bands=[band, *rule_book.bands[1:]])
    ruletoml.export_book(book, tmp_path)
    assert ruledata.load_book(tmp_path) == book


def test_an_aggravation_ending_before_it_begins_is_refused_naming_the_row(tmp_path):
    import shutil

    from compliance.errors import RulesError

    shutil.copytree(ruledata.DATA_DIR, tmp_path / "data")
    national = tmp_path / "data" / "jurisdictions" / "000000-national.toml"
    text = national.read_text(encoding="utf-8")
    national.write_text(
        text.replace(
            'effective_to = 2025-12-31\nsource = "legal.md (d)',
            'effective_to = 2005-12-31\nsource = "legal.md (d)',
        ),
        encoding="utf-8",
    )
    with pytest.raises(
        RulesError,
        match="aggravation mps-2005-repeat: effective_to 2005-12-31 is before effective_from 2006-03-01",
    ):
        ruledata.load_book(tmp_path / "data")
