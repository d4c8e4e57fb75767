"""结论模板: a finding's JSON and stored text, made once per band and line, then filled in.

A template is made by the reference's own code (`verdict.finding_of`, the
classifier's line texts, aggravations, small-play note and indeterminate
reason) on a finding whose per-player fields are markers, encoded by the
same encoders and cut at the markers; what is filled in is byte for byte
what the reference writes. The holes are the session's fields, the player's
id, and three figures (value, margin, margin to the next line), written from
the integers they were judged on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from compliance.domain.band_kernel import SCALES, SHOWN_EXPONENTS, Kernel
from compliance.domain.classifier import Classifier
from compliance.domain.encoded import json_text, line_part, own_part
from compliance.domain.national import placed
from compliance.domain.rules import Comparison, Jurisdiction
from compliance.domain.ruleset import Ruleset
from compliance.domain.tiers import Tier
from compliance.domain.verdict import Verdict, finding_of

FIGURES = {"v": Decimal("7770000000000000001.5"), "m": Decimal("8880000000000000001.5")}
FIGURES["n"] = Decimal("9990000000000000001.5")
MARKER = "\\u0001"  # a marker as JSON writes it, then its letter
FIGURE_TEXTS = tuple((str(d), letter) for letter, d in FIGURES.items())


def marker(letter: str) -> str:
    """A string hole: the session's id (S), platform (P), game (G), day (D), day judged (J)
    and the player's id (I); filled with the JSON-escaped text, quotes kept."""
    return f"\x01{letter}"


def cut(text: str) -> str:
    """A `%`-format of `text` with a `%(X)s` at every hole: a marker (`\\u0001` and a
    capital) or a figure's text. Found with `str.find`, a regular expression's alternation
    cost ten times more; no two holes can overlap (a marker holds no digit to start a
    figure, a figure no backslash, and no figure's end begins another), so the holes are
    those a left-to-right search finds."""
    holes: list[tuple[int, int, str]] = []
    at = text.find(MARKER)
    while at >= 0:
        end = at + len(MARKER)
        letter = text[end : end + 1]
        if letter and "A" <= letter <= "Z":
            holes.append((at, end + 1, letter))
            at = text.find(MARKER, end + 1)
        else:
            at = text.find(MARKER, at + 1)
    for figure, letter in FIGURE_TEXTS:
        at = text.find(figure)
        while at >= 0:
            holes.append((at, at + len(figure), letter))
            at = text.find(figure, at + len(figure))
    holes.sort()
    out, at = [], 0
    for start, end, letter in holes:
        out.append(text[at:start].replace("%", "%%"))
        out.append(f"%({letter})s")
        at = end
    out.append(text[at:].replace("%", "%%"))
    return "".join(out)


class Texts(dict):
    """Coefficients → `fixed(coefficient, exponent)`, kept for the ones met most (at most
    MAX_TEXTS): writing a number costs ten times finding it written."""

    __slots__ = ("exponent",)

    def __init__(self, exponent: int):
        super().__init__()
        self.exponent = exponent

    def __missing__(self, coefficient: int) -> str:
        if len(self) >= MAX_TEXTS:
            self.clear()
        text = self[coefficient] = fixed(coefficient, self.exponent)
        return text


MAX_TEXTS = 1 << 12  # larger, it fills over 100,000s of sessions: memory grows, CPU not less
TEXTS = {exponent: Texts(exponent) for exponent in range(-5, 1)}


@dataclass(frozen=True, slots=True)
class Figure:
    """How one hole's figure is written: its column, the divisor from the column's scale
    to the shown exponent, and for a margin the bound at that exponent. The filler reads
    `texts[…]` at `shown`'s, `above`'s or `below`'s coefficient, which they write."""

    metric: str
    divisor: int
    exponent: int
    bound: int = 0
    factor: int = 1
    texts: Texts = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "texts", TEXTS[self.exponent])

    def shown(self, at: int) -> str:
        return fixed(at // self.divisor, self.exponent)

    def above(self, at: int) -> str:
        """figure − bound, as `Decimal` subtraction writes it."""
        return fixed((at // self.divisor) * self.factor - self.bound, self.exponent)

    def below(self, at: int) -> str:
        """bound − figure."""
        return fixed(self.bound - (at // self.divisor) * self.factor, self.exponent)


def figure_of(leaf: Comparison, with_bound: bool) -> Figure:
    shown = SHOWN_EXPONENTS[leaf.metric]
    divisor = 10 ** (SCALES[leaf.metric] + shown)
    lower = leaf.lower
    if not with_bound or lower is None:
        return Figure(leaf.metric, divisor, shown)
    sign, digits, exp = lower.as_tuple()
    exponent = min(shown, int(exp))
    coefficient = int("".join(map(str, digits))) * (-1 if sign else 1)
    bound = coefficient * 10 ** (int(exp) - exponent)
    return Figure(leaf.metric, divisor, exponent, bound, 10 ** (shown - exponent))


def fixed(coefficient: int, exponent: int) -> str:
    """str(Decimal) of coefficient × 10^exponent, for −6 < exponent ≤ 0 (no exponent form)."""
    if exponent == 0:
        return str(coefficient)
    digits = str(abs(coefficient)).rjust(1 - exponent, "0")
    return f"{'-' if coefficient < 0 else ''}{digits[:exponent]}.{digits[exponent:]}"


@dataclass(frozen=True, slots=True)
class Template:
    """One finding's JSON and stored text as `%`-formats, its line's values, its tier, and
    how its figures are written."""

    json: str
    own: str
    line: tuple | None
    kind: str
    tier: str | None
    value: Figure | None = None
    margin: Figure | None = None
    to_next: Figure | None = None
    jurisdiction: str | None = None


class _Day:
    def __init__(self, letter: str):
        self.text = marker(letter)

    def isoformat(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class _Facts:
    venue: str
    scene_cash: None = None
    session_id: str = marker("S")
    platform: str = marker("P")
    game: str = marker("G")
    day: _Day = _Day("D")


@dataclass(frozen=True, slots=True)
class _Player:
    public_servant: bool
    id: str = marker("I")
    priors: tuple = ()


def template(
    c: Classifier,
    rules: Ruleset,
    place: tuple[Jurisdiction, str | None],
    kernel: Kernel,
    at: tuple[int, int, int],
    kin: list[str],
    venue: str,
    public_servant: bool,
) -> Template:
    """The template of a finding under `kernel`'s plan at (band, leaf bits, ladder index),
    with kin grounds `kin` (empty where none apply), in `place` (where, resolved-up note)."""
    where, up = place
    band_at, bits, next_at = at
    plan = kernel.plan
    band = plan.descending[band_at] if band_at >= 0 else None
    facts, player, judged = _Facts(venue), _Player(public_servant), _Day("J")
    if band is None and not rules.defines("player", Tier.ADMINISTRATIVE):
        gap = c.no_admin_line(facts, player, where, judged)
        text = cut(json_text(gap))
        return Template(text, text, None, gap.kind, None, jurisdiction=gap.jurisdiction)
    tier = band.tier if band else Tier.BELOW_THRESHOLD
    leaves = kernel.leaves[band_at] if band else []
    hit = [leaf for j, leaf in enumerate(leaves) if bits >> j & 1]
    exemptions = list(kin) if kin and tier > Tier.EXEMPT else []
    would_be = tier if exemptions else None
    shown = Tier.EXEMPT if exemptions else tier
    verdict = Verdict(where, judged.text, shown, band, hit, {}, plan.ladder, exemptions, would_be)
    ahead = plan.ladder[next_at] if next_at >= 0 else (None, None)
    lead, next_leaf = (hit[0] if hit else None), ahead[1]
    line = c.line_of(rules, band, shown, would_be)
    value = FIGURES["v"] if lead else None
    f = finding_of(
        line, facts, player.id, verdict, ahead, value, FIGURES["n"] if next_leaf else None
    )
    f.margin = FIGURES["m"] if f.margin is not None else None
    f.margin_to_next = FIGURES["n"] if f.margin_to_next is not None else None
    c.finish(f, facts, player, rules, (band, shown), judged)
    placed(f, up)
    kept = line_part(f)
    assert not any(isinstance(t, str) and "\x01" in t for t in kept), "a hole in a line's texts"
    return Template(
        cut(f.to_json().decode()),
        cut(json_text(own_part(f))),
        kept,
        f.kind,
        f.tier,
        figure_of(lead, False) if lead else None,
        figure_of(lead, True) if lead and f.margin is not None else None,
        figure_of(next_leaf, True) if next_leaf and f.margin_to_next is not None else None,
        f.jurisdiction,
    )
