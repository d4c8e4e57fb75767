"""前科: earlier penalties a user supplies, for the repeat-offence rule."""

from __future__ import annotations

import csv
from collections import defaultdict
from datetime import date

from compliance.errors import ConfigError


def read_priors(path: str) -> dict[tuple[str, str], tuple[date, ...]]:
    """(platform, player id) → dates of earlier penalties, from a CSV with a header row."""
    found: dict[tuple[str, str], list[date]] = defaultdict(list)
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = {"platform", "player_id", "date"} - set(reader.fieldnames or ())
        if missing:
            raise ConfigError(f"{path}: needs columns platform, player_id, date (missing {sorted(missing)})")
        for line, row in enumerate(reader, 2):
            try:
                found[(row["platform"], row["player_id"])].append(date.fromisoformat(row["date"]))
            except ValueError:
                raise ConfigError(f"{path}:{line}: bad date {row['date']!r}") from None
    return {key: tuple(sorted(dates)) for key, dates in found.items()}
