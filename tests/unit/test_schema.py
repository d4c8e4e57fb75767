"""The exported JSON Schema accepts the sample logs and refuses broken ones."""

from __future__ import annotations

import json

import jsonschema
import pytest

from compliance.logs.schema import session_schema
from tests.conftest import SAMPLES


@pytest.fixture(scope="module")
def validator():
    schema = session_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def sample_sessions():
    return [json.loads(line) for line in (SAMPLES / "douniu.jsonl").read_text().splitlines()]


def test_every_sample_session_is_valid(validator):
    for session in sample_sessions():
        errors = list(validator.iter_errors(session))
        assert not errors, (session["session_id"], errors[0].message if errors else "")


@pytest.mark.parametrize(
    "breakage",
    [
        lambda s: s.pop("session_id"),
        lambda s: s.update(format="stakelog/9"),
        lambda s: s.update(game="zhajinhua"),
        lambda s: s["rounds"][0]["seats"][0].update(cards=["SA", "S1", "S2", "S3", "S4"]),
        lambda s: s["rounds"][0].pop("banker"),
        lambda s: s["players"][0].update(unexpected=True),
    ],
    ids=["no-id", "wrong-format", "unknown-game", "bad-card", "no-banker", "unknown-field"],
)
def test_broken_sessions_are_invalid(validator, breakage):
    session = sample_sessions()[0]
    breakage(session)
    assert list(validator.iter_errors(session))
