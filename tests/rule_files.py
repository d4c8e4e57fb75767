"""Rule files for the rule-tooling tests: 湖南 with one thing wrong."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import ROOT

HUNAN = ROOT / "data" / "jurisdictions" / "430000-hunan.toml"


def hunan_with(tmp_path: Path, old: str, new: str, name: str = "430000-hunan.toml") -> Path:
    """A copy of the shipped 湖南 file with one piece of text replaced."""
    text = HUNAN.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def overlapping(tmp_path: Path) -> Path:
    """一般情节 reaching 60 yuan, into 情节严重's 50–100."""
    return hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 20, max = 50 }',
        '{ metric = "single_stake", min = 20, max = 60 }',
        "overlap.toml",
    )


def falling(tmp_path: Path) -> Path:
    """情节特别严重 from 10 yuan: below 一般情节's 20–50, the tier falls as the amount rises."""
    return hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 100 }',
        '{ metric = "single_stake", min = 10, below = 15 }',
        "falling.toml",
    )


def moved_line(tmp_path: Path) -> Path:
    """湖南's single-stake line between 一般 and 严重 moved from 50 to 100."""
    first = hunan_with(
        tmp_path,
        '{ metric = "single_stake", min = 20, max = 50 }',
        '{ metric = "single_stake", min = 20, max = 100 }',
        "step.toml",
    )
    return hunan_with_text(
        first,
        '{ metric = "single_stake", min = 50, max = 100 }',
        '{ metric = "single_stake", min = 100, max = 100 }',
    )


def hunan_with_text(path: Path, old: str, new: str) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path
