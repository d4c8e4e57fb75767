"""A threshold finding stored as its own part plus a shared line comes back whole."""

from __future__ import annotations

import msgspec

from compliance.db.finding_rows import LINE_FIELDS, json_text, line_part, own_part, rejoined
from compliance.domain.classifier import Classifier
from compliance.domain.ruleset import Resolver
from tests.builders import figures, session


def test_a_finding_split_for_storage_and_rejoined_is_the_finding_field_for_field(rule_book):
    (finding,) = Classifier(Resolver(rule_book)).classify(session(figures(stake=60)))
    stored = msgspec.json.decode(json_text(own_part(finding)))
    line = msgspec.json.decode(json_text(dict(zip(LINE_FIELDS, line_part(finding), strict=True))))
    assert not set(LINE_FIELDS) & set(stored)
    assert line["citation"] and line["statutory_penalty"]
    whole = rejoined(stored, line)
    assert list(whole) == list(finding.to_dict())
    assert whole == finding.to_dict()


def test_a_row_stored_whole_before_lines_existed_reads_as_it_was():
    old = {"kind": "threshold", "tier": "administrative", "citation": "…"}
    assert rejoined(old, None) is old


def test_a_finding_sent_back_encoded_reads_and_writes_as_the_finding(rule_book):
    from compliance.service_layer.runners import EncodedFinding

    (finding,) = Classifier(Resolver(rule_book)).classify(session(figures(stake=60)))
    sent = EncodedFinding(finding.to_json(), finding.kind, finding.tier, None)
    assert (sent.kind, sent.tier) == ("threshold", finding.tier)
    assert sent.to_json() == finding.to_json()
    assert sent.to_dict() == finding.to_dict()
    assert sent._decoded is None
    assert (sent.citation, sent.margin) == (finding.citation, finding.margin)
    assert sent.decoded() == finding
