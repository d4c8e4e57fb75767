"""扯旋玩法: the variants of 扯旋 we replay and their named presets (docs/games/chexuan.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from compliance.games.chexuan.hands import SPECIALS, Ranking, RankingRules, ranking_for
from compliance.logs.bounds import MAX_PLAYERS


class ChexuanOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """玩法: every variant of 扯旋 we replay; defaults follow seed 001."""

    red_three: Literal["H3", "D3"] = "H3"
    strict_ladder: bool = False
    zero_points_ties: bool = False
    split_rule: Literal["draw", "tail"] = "draw"
    settle_order: Literal["tail", "head"] = "tail"
    tie_share: Literal["equal", "stake"] = "equal"
    ante_mode: Literal["stake", "pot", "carried"] = "stake"
    escape: Literal["forfeit_table", "fold"] = "forfeit_table"
    max_players: Annotated[int, msgspec.Meta(ge=2, le=MAX_PLAYERS)] = 6
    sanhua: bool = True
    huang_pairs: bool = True
    tiandi_gongzi: bool = True
    duoduo: bool = True
    wang_dui: bool = True
    gang_dui: bool = True
    jiu_dui: bool = True
    di_jiu_wang: bool = False

    def ranking(self) -> Ranking:
        found = _rankings.get(self)
        if found is None:
            if len(_rankings) > 64:
                _rankings.clear()
            found = _rankings[self] = self._ranking()
        return found

    def _ranking(self) -> Ranking:
        enabled = frozenset(o for _, o in SPECIALS if getattr(self, o))
        return ranking_for(
            RankingRules(
                self.red_three,
                self.strict_ladder,
                self.zero_points_ties,
                self.di_jiu_wang,
                enabled,
                self.sanhua,
            )
        )


_rankings: dict[ChexuanOptions, Ranking] = {}

PRESETS: dict[str, dict[str, Any]] = {
    "seed": {},
    "strict": {"strict_ladder": True},
    "tail_decides": {"split_rule": "tail"},
    "four_player": {"settle_order": "head"},
    "ante_pot": {"ante_mode": "pot"},
    "mango": {"ante_mode": "carried"},
    "stake_share": {"tie_share": "stake"},
}
