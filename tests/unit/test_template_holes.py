"""结论模板的洞: `templates.cut` finds, with `str.find`, exactly the holes the regular
expression it replaced found (leftmost, one after another), on texts made of the holes,
pieces of them, percent signs and the characters around them."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.domain import templates

REFERENCE = re.compile(
    r"\\u0001([A-Z])|" + "|".join(f"({re.escape(str(d))})" for d in templates.FIGURES.values())
)


def reference_cut(text: str) -> str:
    out, at = [], 0
    for found in REFERENCE.finditer(text):
        out.append(text[at : found.start()].replace("%", "%%"))
        letter = found.group(1) or tuple(templates.FIGURES)[found.lastindex - 2]  # type: ignore[operator]
        out.append(f"%({letter})s")
        at = found.end()
    out.append(text[at:].replace("%", "%%"))
    return "".join(out)


FIGURES = [str(d) for d in templates.FIGURES.values()]
PIECES = st.sampled_from(
    [
        templates.MARKER,
        templates.MARKER[:-1],
        "\\",
        "u0001",
        "%",
        "%%",
        '"',
        "A",
        "Z",
        "a",
        "[",
        "0",
        "7",
        "1.5",
        ".",
        "词",
        *FIGURES,
        *(f[:-1] for f in FIGURES),
        *(f[1:] for f in FIGURES),
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(PIECES, max_size=40))
def test_the_holes_are_the_ones_the_regular_expression_found(pieces):
    text = "".join(pieces)
    assert templates.cut(text) == reference_cut(text)


def test_a_finding_with_every_hole():
    text = (
        '{"session_id":"\\u0001S","player":"\\u0001I","value":'
        + FIGURES[0]
        + ',"margin":'
        + FIGURES[1]
        + ',"next":'
        + FIGURES[2]
        + ',"note":"100% \\u0001x"}'
    )
    assert templates.cut(text) == (
        '{"session_id":"%(S)s","player":"%(I)s","value":%(v)s,"margin":%(m)s,"next":%(n)s,'
        '"note":"100%% \\u0001x"}'
    )
