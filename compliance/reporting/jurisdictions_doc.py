"""docs/jurisdictions.md, generated from the rule data: a table per jurisdiction.

python -m compliance.reporting.jurisdictions_doc > docs/jurisdictions.md
"""

from __future__ import annotations

from compliance.domain.rules import Comparison, RuleBook

LEVELS = {"national": 0, "province": 1, "region": 1, "city": 2, "district": 3}


def words(clause) -> str:
    if clause is None:
        return "—"
    if isinstance(clause, Comparison):
        return clause.describe()
    joiner = " and " if clause.mode == "all" else " or "
    inner = [words(p) if isinstance(p, Comparison) else f"({words(p)})" for p in clause.parts]
    return joiner.join(inner)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def _without_instruments(level: str) -> str:
    if level == "region":
        return (
            "Outside mainland law: no line of the nation applies here; every finding placed here "
            "is indeterminate."
        )
    if level == "province":
        return (
            "No provincial standard on file: the national lines apply (the statute, its "
            "exemptions, every criminal line); a player's 赌资较大 is indeterminate."
        )
    return "No instrument of its own: the lines of the level above apply."


WINDOWS = {
    "cumulative": "累计: limitation period (docs/metrics.md)",
}


def render(book: RuleBook) -> str:
    out = [
        "# Jurisdictions and their lines",
        "",
        "Generated from `data/` by `python -m compliance.reporting.jurisdictions_doc`; do not edit.",
        "Confidence: H primary text read; M two or more consistent secondary sources or one reputable",
        "news source; L one secondary source, truncated text, or our own assumption. A disputed",
        "instrument is one of rival versions; findings that use it say so. A band's window is the",
        "span its window metrics count over, back from the subject's latest session: calendar",
        "months or years, or 累计, every session within the offence's limitation period (刑法 art. 87",
        "for criminal tiers, by the statutory maximum in force; 治安管理处罚法's six months otherwise).",
        "",
        "What applies where: the national lines (全国) apply on the whole mainland, beside a",
        "province's or city's own; a city's bands replace its province's for the subjects it has",
        "bands for. A six-digit code without a section here is judged under its city (first four",
        "digits) or else its province (first two). A province without a 赌资较大 standard of its own",
        "gets the national statute, exemptions and criminal lines, and a player's 赌资较大 is",
        "indeterminate. 台湾, 香港 and 澳门 (level `region`) are outside mainland law: indeterminate,",
        "for players and for the windows of room owners and platforms alike (reason: outside mainland",
        "law). An owner's or platform's window placed at a code the book does not know (990000) is",
        "indeterminate naming the code, never left without a finding.",
        "Every jurisdiction is named from GB/T 2260 and ISO 3166-2:CN (confidence H).",
        "",
        "Venues: a band marked `venue …` applies only to sessions played there (a session's `venue`,",
        "or the run's `--venue`, default `online`: docs/log-format.md); the 2010 online opinion's",
        "lines apply to online play, 江苏's track A to online sessions and its track B to the others.",
        "Criminal lines of 聚众赌博 and 开设赌场 also need 以营利为目的 (rake, or a fee on stakes or",
        "results); a fixed room fee alone is excluded by the 2005 interpretation art. 9 under the",
        'default `room-fee-reading` (docs/metrics.md, "Elements of the criminal lines").',
        "",
    ]
    order = sorted(book.jurisdictions.values(), key=lambda j: (LEVELS.get(j.level, 9), j.code))
    for j in order:
        parent = (
            f", in {book.jurisdictions[j.parent].name_zh}" if j.parent in book.jurisdictions else ""
        )
        out += [f"## {j.name_zh} {j.name_en} ({j.code}, {j.level}{parent})", ""]
        instruments = [i for i in book.instruments.values() if i.jurisdiction == j.code]
        if not instruments:
            out += [_without_instruments(j.level), ""]
            continue
        out += ["| instrument | in force | kind | confidence | source |", "|---|---|---|---|---|"]
        for i in sorted(instruments, key=lambda i: i.effective_from):
            until = i.effective_to.isoformat() if i.effective_to else "…"
            flags = " (disputed)" if i.disputed else ""
            flags += "" if i.default or not i.version_group else " (alternative version)"
            out.append(
                f"| {_cell(i.title)}{flags} | {i.effective_from.isoformat()} – {until} | {i.kind} "
                f"| {i.confidence} | {_cell(i.source)} |"
            )
        bands = [b for b in book.bands if b.jurisdiction == j.code]
        if bands:
            out += [
                "",
                "| band | subject | tier | condition | window | games / role | instrument |",
                "|---|---|---|---|---|---|---|",
            ]
            for b in bands:
                scope = ", ".join(sorted(b.game_classes)) or "all"
                if b.role:
                    scope += f"; {b.role}"
                if b.venues:
                    scope += f"; venue {', '.join(sorted(b.venues))}"
                out.append(
                    f"| {b.id} | {b.subject} | {b.tier.code} | {_cell(words(b.condition))} "
                    f"| {WINDOWS.get(b.window or '', b.window or '–')} | {scope} | {b.instrument} |"
                )
        for w in (w for w in book.wages if w.city == j.code):
            out += [
                "",
                f"Monthly average wage {w.year}: {w.monthly} yuan ({w.confidence}; {_cell(w.source)}).",
            ]
        out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    from compliance.ruledata import load_book

    print(render(load_book()), end="")
