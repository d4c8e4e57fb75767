"""前科: earlier penalties a user supplies, for the repeat-offence rule."""

from __future__ import annotations

import csv
from collections import defaultdict
from datetime import date

from compliance.errors import ConfigError


def read_priors(path: str) -> dict[tuple[str, str], tuple[date, ...]]:
    """(platform, player id) → dates of earlier penalties, from a CSV with a header row."""
    found: dict[tuple[str, str], list[date]] = defaultdict(list)
    with open(path, encoding="utf-8-sig", newline="") as fh:  # -sig: spreadsheets write a BOM
        try:
            reader = csv.DictReader(fh)
            missing = {"platform", "player_id", "date"} - set(reader.fieldnames or ())
            if missing:
                raise ConfigError(
                    f"{path}: needs columns platform, player_id, date (missing {sorted(missing)})"
                )
            for line, row in enumerate(reader, 2):
                try:
                    day = date.fromisoformat(row["date"] or "")
                except ValueError:
                    raise ConfigError(f"{path}:{line}: bad date {row['date'] or ''!r}") from None
                found[(row["platform"], row["player_id"])].append(day)
        except UnicodeDecodeError:
            raise ConfigError(f"{path}: not UTF-8 text (save it as UTF-8 CSV)") from None
    return {key: tuple(sorted(dates)) for key, dates in found.items()}
