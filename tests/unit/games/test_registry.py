"""The game registry: one spec per game, names in one place, simulators beside their games."""

from __future__ import annotations

import importlib

import pytest

from compliance.errors import UnknownGameError
from compliance.games import NAMES_ZH, game_codes, get_game, names_zh, specs
from compliance.service_layer.simulate import SIMULATORS, simulator_for


def test_each_package_declares_the_spec_of_its_own_code():
    for code, spec in specs().items():
        game = get_game(code)
        assert spec.code == game.code == code
        assert game.name_zh == spec.name_zh and game.name_en == spec.name_en
        module = importlib.import_module(f"compliance.games.{code}")
        assert module.ROUND_TYPE is spec.round_type
        assert spec.default_preset in spec.presets
        assert (game.tally_session is None) == (spec.tally is None)


def test_the_chinese_names_come_from_the_specs_and_agree_with_the_rule_data(rule_book):
    assert names_zh() == NAMES_ZH
    assert {code: t.name_zh for code, t in rule_book.game_types.items()} == names_zh()


def test_every_game_has_a_simulator_and_unknown_codes_are_named():
    assert sorted(SIMULATORS) == game_codes()
    for code in game_codes():
        assert callable(simulator_for(code))
    with pytest.raises(UnknownGameError, match="known: bianselong"):
        simulator_for("mahjong")


def test_a_game_that_does_not_replay_and_describe_cannot_be_made():
    from compliance.games.base import Engine
    from compliance.games.douniu import SPEC

    class Silent(Engine):
        pass

    with pytest.raises(TypeError, match="abstract"):
        Silent(SPEC)
