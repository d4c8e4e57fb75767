"""旋牌/牌九的牌: the 32 cards 扯旋 and 牌九 play, by the kind each card stands for.

Seed 001 names every card by a kind (天 = red Q, 地 = red 2, 丁 = the red 3,
皇 = the big joker …); 牌九 (seed 003) plays the same cards, a black 3 in
place of the red one. The kinds' points are the same in both games.
"""

from __future__ import annotations

# 一副旋牌: pairs of each kind except the single 丁 (red 3) and 皇 (big joker).
KIND_CARDS: dict[str, tuple[str, ...]] = {
    "天": ("HQ", "DQ"),
    "地": ("H2", "D2"),
    "人": ("H8", "D8"),
    "和": ("H4", "D4"),
    "梅": ("S10", "C10"),
    "板": ("S4", "C4"),
    "长": ("S6", "C6"),
    "斧": ("SJ", "CJ"),
    "苕": ("H10", "D10"),
    "猫": ("H6", "D6"),
    "膏": ("H7", "D7"),
    "黑九": ("S9", "C9"),
    "黑八": ("S8", "C8"),
    "黑七": ("S7", "C7"),
    "黑五": ("S5", "C5"),
    "丁": ("H3",),
    "皇": ("RJ",),
}


# "Q是2點，J是1點，大王是6點"; tens count 0.
KIND_POINTS: dict[str, int] = {
    "天": 2, "地": 2, "人": 8, "和": 4, "梅": 0, "板": 4, "长": 6, "斧": 1, "苕": 0,
    "猫": 6, "膏": 7, "黑九": 9, "黑八": 8, "黑七": 7, "黑五": 5, "丁": 3, "皇": 6,
}  # fmt: skip
