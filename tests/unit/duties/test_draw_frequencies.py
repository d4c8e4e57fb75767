"""Check 14's frequencies: each pool's paid draws against its published odds by χ²."""

from __future__ import annotations

import random
from collections import Counter
from decimal import Decimal

from compliance.domain.chisquare import goodness_of_fit
from compliance.logs.platform_records import DrawOdds, LedgerEvent
from tests.unit.duties.builders import P, account, at, breaches, run

ODDS = {"common": "0.7", "rare": "0.25", "legend": "0.05"}


def odds(pool="box", table=ODDS):
    return [
        DrawOdds(
            format="platform-config/1",
            platform=P,
            pool=pool,
            item=item,
            probability=Decimal(p),
        )
        for item, p in table.items()
    ]


def draws(results, pool="box", paid=True):
    return [
        LedgerEvent(
            format="ledger/1",
            platform=P,
            id=f"d{n}",
            account="a1",
            type="draw",
            at=at("2022-03-01 12:00"),
            yuan=Decimal(6) if paid else None,
            result=item,
            pool=pool,
        )
        for n, item in enumerate(results)
    ]


def drawn(rng, n, table):
    items, weights = zip(*((k, float(v)) for k, v in table.items()), strict=True)
    return rng.choices(items, weights, k=n)


def frequency_findings(events, config):
    got, statuses = run([account()], events=events, config=config)
    return [f for f in got if f.check == "draw_frequencies"], statuses


def test_a_biased_pool_is_a_signal_with_its_statistic_and_counts():
    biased = {"common": "0.8", "rare": "0.19", "legend": "0.01"}
    events = draws(drawn(random.Random(1), 2000, biased))
    found, statuses = frequency_findings(events, odds())
    [f] = breaches(found)
    assert f.severity == "signal" and f.duty == "draw-frequencies-2016"
    assert f.subject == "pool:box" and f.event_count == 2000
    assert f.value is not None and f.value < Decimal("0.001") and f.cap == Decimal("0.001")
    assert "df = 2" in f.detail and "χ² = " in f.detail and "legend " in f.detail
    assert "a signal, not a violation" in f.detail
    assert len(f.events) == 10
    assert statuses["draw_frequencies"] == "breached"


def test_a_fair_pool_holds_and_free_draws_are_not_counted():
    events = draws(drawn(random.Random(2), 2000, ODDS)) + draws(["legend"] * 500, paid=False)
    found, statuses = frequency_findings(events, odds())
    assert found == [] and statuses["draw_frequencies"] == "held"


def test_a_fair_pool_is_rejected_about_alpha_of_the_time():
    rng = random.Random(3)
    published = {k: float(v) for k, v in ODDS.items()}
    rejected = sum(
        goodness_of_fit(Counter(drawn(rng, 500, ODDS)), published).rejects(0.001)
        for _ in range(4000)
    )
    assert rejected <= 12  # α = 0.001: 4 expected in 4,000; 12 or more has p < 0.001


def test_too_few_draws_is_indeterminate_naming_it():
    found, statuses = frequency_findings(draws(["legend"] * 20), odds())
    [f] = found
    assert f.status == "indeterminate" and f.missing == "draws"
    assert "20 paid draws" in (f.reason or "")
    assert statuses["draw_frequencies"] == "indeterminate"


def test_an_item_never_published_fails_and_unpublished_pools_are_indeterminate():
    events = draws(["common"] * 150 + ["jackpot"])
    [f] = breaches(frequency_findings(events, odds())[0])
    assert f.value == Decimal(0) and "never published" in f.detail
    [f] = frequency_findings(draws(["common"] * 150, pool="other"), odds())[0]
    assert f.status == "indeterminate" and f.missing == "platform-config draw odds"


def test_a_draw_without_a_pool_counts_for_the_only_pool_published():
    events = draws(drawn(random.Random(4), 400, {"common": "1"}), pool=None)
    [f] = breaches(frequency_findings(events, odds())[0])
    assert f.subject == "pool:box"
    two = odds() + odds("second")
    [f] = frequency_findings(events, two)[0]
    assert f.missing == "ledger draw pool"


def test_no_odds_published_at_all_leaves_the_test_to_the_2016_row():
    found, _ = frequency_findings(draws(["common"] * 150), [])
    assert found == []
