"""赌资指标: the figures a player's tally gives, in yuan."""

from __future__ import annotations

from decimal import Decimal

from compliance.domain.metrics import PLAYER_METRICS, PlayerTally, player_metrics, to_yuan


def test_a_players_figures_come_from_his_tally_and_name_every_player_metric():
    t = PlayerTally(max_stake=30, max_round_swing=90, net=-40, staked=300, won=120, rounds=10)
    m = player_metrics("u1", t, Decimal("0.5"))
    assert m.as_dict() == {
        "single_stake": Decimal("15.00"),
        "round_win_loss": Decimal("45.00"),
        "session_win_loss": Decimal("20.00"),
        "total_staked": Decimal("150.00"),
        "capital": Decimal("210.00"),
    }
    assert tuple(m.as_dict()) == PLAYER_METRICS


def test_yuan_are_rounded_to_the_cent():
    assert str(to_yuan(3, Decimal("0.333"))) == "1.00"
    assert str(to_yuan(7, Decimal("2"))) == "14.00"
