"""`games settle` runs the cycle collector less often, and puts its threshold back after."""

from __future__ import annotations

import gc

import pytest

from compliance.cli import games
from compliance.cli.games import SETTLE_GEN0, fewer_collections


def test_a_settle_collects_less_often_while_it_runs_and_restores_the_threshold():
    before = gc.get_threshold()
    seen = []
    fewer_collections(lambda: seen.append(gc.get_threshold()))()
    assert seen[0][0] == max(before[0], SETTLE_GEN0) and seen[0][1:] == before[1:]
    assert gc.get_threshold() == before


def test_the_threshold_comes_back_when_the_settle_fails():
    before = gc.get_threshold()

    def fail() -> None:
        raise ValueError("bad log")

    with pytest.raises(ValueError):
        fewer_collections(fail)()
    assert gc.get_threshold() == before


def test_a_settle_asks_once_for_everything_to_be_frozen_at_exit(monkeypatch):
    registered = []
    monkeypatch.setattr("atexit.register", registered.append)
    games._no_last_collection.cache_clear()
    try:
        fewer_collections(lambda: None)()
        fewer_collections(lambda: None)()
        assert registered == [gc.freeze]
    finally:
        games._no_last_collection.cache_clear()
