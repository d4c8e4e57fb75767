"""全国适用: what the classifier says where national law stands alone or does not reach.

No provincial standard on file: the nation's statute, exemptions and criminal
lines apply, and a player's 赌资较大 question is indeterminate, naming the
missing standard. 台湾, 香港 and 澳门 are outside mainland law. Below the
provincial lines, play is not punished: the small-stakes grounds say why.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from compliance.domain.findings import ThresholdFinding
from compliance.domain.rules import Jurisdiction
from compliance.domain.ruleset import NATIONAL, Ruleset


def written_note(written: str, where: Jurisdiction) -> str:
    """How a code without a file of its own was placed."""
    digits = 4 if where.level in ("city", "district") else 2
    return f"{written} resolved up by its first {digits} digits to {where.name_zh} {where.code}"


def outside_mainland(where: Jurisdiction) -> str:
    return (
        f"{where.name_zh} {where.code} is outside mainland law: neither 治安管理处罚法 nor "
        "刑法 303 and their interpretations are applied there, so no mainland tier is given"
    )


def no_provincial_standard(where: Jurisdiction, day: date, named: bool) -> str:
    """The reason of a player's indeterminate 赌资较大 where no provincial line is in force."""
    if not named:
        return (
            "the log names no jurisdiction and --jurisdiction was not given; the national "
            "lines apply, and 赌资较大 has no national figure: it needs a provincial standard"
        )
    if where.code == NATIONAL:
        return (
            "全国 has no figure of 赌资较大: it needs a provincial standard; "
            "the national lines apply"
        )
    return (
        f"no provincial standard of 赌资较大 on file for {where.name_zh} {where.code} "
        f"in force on {day.isoformat()}; the national lines apply"
    )


def small_play(rules: Ruleset) -> str | None:
    """Why play below the lines is not punished: the small-stakes grounds in force (公安部
    2005 notice 九, 2005 interpretation art. 9), 少量 measured by the provincial lines."""
    grounds = []
    for ex in rules.exemptions:
        if ex.kind != "small_stakes":
            continue
        inst = rules.instruments.get(ex.instrument)
        grounds.append(f"{inst.title if inst else ex.instrument} {ex.article}（{ex.text}）")
    if not grounds:
        return None
    drawn = {b.jurisdiction for b in rules.bands_for("player")}
    names = [level.name_zh for level in rules.chain if level.code in drawn]
    return (
        "少量财物输赢的娱乐活动不予处罚: "
        + "; ".join(grounds)
        + f"; 少量 measured by the 赌资较大 lines of {'、'.join(names) or rules.jurisdiction.name_zh}"
    )


def placed(finding: ThresholdFinding, up: str | None) -> ThresholdFinding:
    """A finding judged under the city or province a code was resolved up to says so."""
    if up:
        finding.jurisdiction_name = f"{finding.jurisdiction_name} ({up})"
    return finding


def kin_grounds(facts: Any, player: Any, rules: Ruleset) -> list[str]:
    """亲属: the kin exemptions that a table of one family, without rake where they ask it, meets
    (公安部 2005 notice 九); national, so they apply where no province has a line."""
    group = player.kin_group
    if not group or any(p.kin_group != group for p in facts.players):
        return []
    return [
        f"{ex.id}: {ex.text} ({ex.article})"
        for ex in rules.exemptions
        if ex.kind == "kin" and (facts.rake == 0 or not ex.requires_no_rake)
    ]
