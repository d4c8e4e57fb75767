"""双语标签: Chinese labels with English glosses; `lang` picks which comes first."""

from __future__ import annotations

import re

from compliance.domain.review import STATUS_LABELS
from compliance.domain.tiers import LABELS as TIER_LABELS
from compliance.domain.tiers import Tier

LANGS = ("zh", "en")

TEXT: dict[str, tuple[str, str]] = {
    "title": ("合规报告", "Compliance report"),
    "not_advice": (
        "本报告仅供参考，不构成法律意见。",
        "This report informs; it is not legal advice.",
    ),
    "disclaimer": (
        "结论依据所引规范及其可信度; 具体案件请咨询律师。",
        "Findings rest on the cited instruments and their confidence; for a real case, "
        "consult a lawyer.",
    ),
    "summary": ("概要", "Summary"),
    "sessions": ("已读场次", "sessions read"),
    "rejected": ("拒收行", "lines rejected"),
    "players": ("玩家", "players"),
    "runs": ("审计批次", "audit runs"),
    "unfinished": (
        "批次 {ids} 未完成（中断或出错）: 只含停止前已存的场次。",
        "Run {ids} did not finish (interrupted or failed): it holds only the sessions stored "
        "before it stopped.",
    ),
    "filters": ("筛选条件", "filters"),
    "reaudited": (
        "本报告的部分场次之后已被重新审计: 批次 {runs} (括号内为场次数); 此处为本批次当时的结论。",
        "Sessions of this report have since been re-audited, by run {runs} (sessions in "
        "brackets); this shows what this run found then.",
    ),
    "generated": ("生成时间", "generated"),
    "findings": ("结论", "findings"),
    "by_tier": ("按档次的结论", "findings by tier"),
    "by_place": ("按档次和法域的结论", "Findings by tier and jurisdiction"),
    "distribution": ("单注与人均赌资分布", "Single stakes and per-capita capital"),
    "single_stake": ("单注 (元)", "single stake (yuan)"),
    "per_capita_capital": ("人均赌资 (元)", "per-capita capital (yuan)"),
    "count": ("数量", "count"),
    "near_misses": ("差一点: 距下一档", "Near misses: margin to the next tier"),
    "margin_share": ("距下一档 (占界线%)", "margin to next tier (% of the line)"),
    "exposure": ("赌资敞口最高", "Top exposure"),
    "rooms": ("房间", "rooms"),
    "room": ("房间", "room"),
    "owners": ("房主", "room owners"),
    "top_players": ("玩家", "players"),
    "capital": ("赌资 (元)", "capital (yuan)"),
    "over_time": ("结论随时间", "Findings over time"),
    "serious_only": (
        "仅情节特别严重与刑事 (单独刻度)",
        "very serious and criminal only (own scale)",
    ),
    "month": ("月份", "month"),
    "mismatches": (
        "按游戏的结算不符等完整性问题",
        "Settlement mismatches and other integrity findings by game",
    ),
    "table": ("结论明细 (按严重程度)", "Findings, most severe first"),
    "session": ("场次", "session"),
    "subject": ("对象", "subject"),
    "place": ("法域", "jurisdiction"),
    "result": ("结论", "result"),
    "figure": ("数额", "figure"),
    "rule": ("规则", "rule"),
    "citation": ("依据", "citation"),
    "confidence": ("可信度", "confidence"),
    "disputed": ("数额有争议", "figure disputed"),
    "game": ("游戏", "game"),
    "day": ("日期", "date"),
    "next_tier": ("下一档", "next tier"),
    "margin": ("差额", "margin"),
    "margin_on": ("差额所量的指标与界线", "margin measured on (metric, line)"),
    "line_note": ("竖线: 各法域界线 (下限)", "vertical lines: each jurisdiction's lower bounds"),
    "none": ("无", "none"),
    "review": ("复核", "review"),
    "reviewed": ("复核状态", "review status"),
    "reopened": ("档次升高, 重新待复核", "tier rose: open again"),
    "waived": ("已豁免的结论 (仍已存储)", "Waived findings (still stored)"),
    "waived_note": (
        "以下结论由豁免覆盖, 不计入上方统计, 也不触发 --fail-on; 共 {total} 条。",
        "These findings are covered by a waiver: they are not counted above and do not trip "
        "--fail-on; {total} in all.",
    ),
    "waiver": ("豁免", "waiver"),
    "manifest": ("运行清单", "run manifest"),
    "shown": (
        "显示前 {shown} 条，共 {total} 条; 完整列表见 CSV / JSON 导出。",
        "{shown} of {total} shown; the CSV and JSON exports hold them all.",
    ),
    "no_cjk": (
        "未找到中文字体: 图表标签仅用英文。",
        "No CJK font found: chart labels are in English only.",
    ),
    "integrity": ("完整性问题", "integrity"),
    "indeterminate": ("无法判定", "indeterminate"),
    "threshold": ("档次", "threshold"),
    "sessions_n": ("场次数", "sessions"),
    "top_tier": ("最高档次", "highest tier"),
    "headline": ("要点", "At a glance"),
    "contents": ("目录", "Contents"),
    "at_criminal": ("刑事档", "at criminal lines"),
    "at_very_serious": ("情节特别严重档", "at very serious lines"),
    "subjects": (
        "{player} 名玩家、{owner} 名房主、{platform} 个平台",
        "{player} player[s], {owner} room owner[s], {platform} platform[s]",
    ),
    "in_places": ("所在法域", "in"),
    "tampered": (
        "{rounds} 个回合被篡改 ({findings} 条完整性问题)",
        "{rounds} tampered round[s] ({findings} integrity finding[s])",
    ),
    "rejects_line": ("{n} 行拒收", "{n} line[s] rejected"),
    "indeterminate_line": ("{n} 条无法判定", "{n} indeterminate result[s]"),
    "penalised": ("达处罚档", "at a penalty tier"),
    "below_exempt": ("未达标准 / 不予处罚", "below threshold / exempt"),
    "serious": ("刑事与情节特别严重", "Criminal and very serious"),
    "integrity_list": ("完整性问题: 被篡改的回合", "Integrity findings: tampered rounds"),
    "round": ("回合", "round"),
    "check": ("问题", "check"),
    "claimed_recomputed": ("申报 / 重算", "claimed / recomputed"),
    "detail": ("说明", "detail"),
    "listed": (
        "列出 {shown} 条，共 {total} 条; 完整列表见 CSV / JSON 导出。",
        "{shown} of {total} listed; the CSV and JSON exports hold them all.",
    ),
    "rules_cited": ("规则与依据", "Rules cited"),
}

GAMES = {
    "douniu": "斗牛",
    "chexuan": "扯旋",
    "paigow": "牌九",
    "yuhuan": "玉环麻将",
    "guandan": "掼蛋",
    "shengji": "升级",
    "chihuoguo": "吃火锅",
    "bianselong": "变色龙",
}
CHECKS = {
    "settlement_mismatch": "结算不符",
    "illegal_action": "违规操作",
    "wrong_banker": "庄家错误",
    "impossible_deal": "不可能的牌",
    "negative_chips": "筹码为负",
    "tournament_in_yuan": "比赛以钱结算",
    "unverifiable": "无法核验",
}
CONFIDENCE = {"H": ("高", "high"), "M": ("中", "medium"), "L": ("低", "low")}


COUNTED = re.compile(r"(?<![\d,.])(\d[\d,]*) ([^\[\]]*?)\[s\]")


def counted(text: str) -> str:
    """English nouns after a count: "1 platform", "2 platforms" (a label writes "platform[s]")."""
    return COUNTED.sub(lambda m: f"{m[1]} {m[2]}" + ("" if m[1] == "1" else "s"), text)


class Labels:
    """Pairs joined main-language first: `赌资较大 administrative` or `administrative (赌资较大)`."""

    def __init__(self, lang: str = "zh", cjk: bool = True):
        self.lang = lang
        self.cjk = cjk

    def pair(self, zh: str, en: str) -> str:
        if not self.cjk:
            return en
        return f"{zh} {en}" if self.lang == "zh" else f"{en} ({zh})"

    def __call__(self, key: str, **fmt) -> str:
        zh, en = TEXT[key]
        return self.pair(zh.format(**fmt), counted(en.format(**fmt)))

    def main(self, key: str, **fmt) -> str:
        zh, en = TEXT[key]
        return zh.format(**fmt) if self.lang == "zh" and self.cjk else counted(en.format(**fmt))

    def tier(self, code: str | None) -> str:
        if not code:
            return ""
        if code in TEXT:
            return self(code)
        zh, en = TIER_LABELS[Tier.parse(code)].split(" ", 1)
        return self.pair(zh, en)

    def status(self, code: str | None) -> str:
        """复核状态: `待复核 open` and the like; "" for none."""
        if not code or code not in STATUS_LABELS:
            return ""
        zh, en = STATUS_LABELS[code].split(" ", 1)
        return self.pair(zh, en)

    def game(self, code: str) -> str:
        return self.pair(GAMES[code], code) if code in GAMES else code

    def check(self, code: str) -> str:
        return self.pair(CHECKS[code], code.replace("_", " ")) if code in CHECKS else code

    def confidence(self, code: str | None) -> str:
        if code not in CONFIDENCE:
            return code or ""
        zh, en = CONFIDENCE[code]
        return f"{code} " + self.pair(zh, en)

    def place(self, code: str, places: dict[str, tuple[str, str]]) -> str:
        zh, en = places.get(code, ("", ""))
        if not self.cjk:
            return f"{en} {code}" if en else code
        if not zh:
            return code
        return f"{self.pair(zh, en) if en else zh} {code}"
