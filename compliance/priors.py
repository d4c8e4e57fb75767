"""前科: earlier penalties a user supplies, for the repeat-offence rule."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from datetime import date

from compliance.errors import ConfigError
from compliance.streams import read_all


def read_priors(path: str) -> dict[tuple[str, str], tuple[date, ...]]:
    """(platform, player id) → dates of earlier penalties, from a CSV with a header row
    (a file, or standard input for `-`; a byte-order mark, which spreadsheets write, dropped)."""
    found: dict[tuple[str, str], list[date]] = defaultdict(list)
    try:
        text = read_all(path).decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text (save it as UTF-8 CSV)") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
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
    return {key: tuple(sorted(dates)) for key, dates in found.items()}
