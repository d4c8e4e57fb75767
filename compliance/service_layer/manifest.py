"""运行清单: what a run read and under what, so that it can be reproduced and checked.

A run's manifest holds the tool's version, the SHA-256 of each input (a regular
file digested after the run; a stream as it was read: compliance.streams), the
digest of the rule set, every option and the date bound used. At the run's end
it adds the digest of its session findings (which depends only on the inputs,
the rules and the options) and of its window findings together with the digest
of the stored session set the windows summed (which depends on the store too).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

from compliance import __version__
from compliance.streams import STREAM_DIGESTS, is_stream

FORMAT = "compliance-manifest/1"


def file_digest(path: str) -> str | None:
    """SHA-256 of a regular file's bytes as stored (compressed or not), or None if unreadable."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


def input_digests(inputs: list[str], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each input as the run names it, with its digest; a stream not read to its end has none."""
    out = []
    for path in inputs:
        name = names.get(path, path)
        if is_stream(path):
            digest = STREAM_DIGESTS.get(os.fspath(path)) or STREAM_DIGESTS.get(name)
            out.append({"file": name, "stream": True, "sha256": digest})
        else:
            out.append({"file": name, "sha256": file_digest(path)})
    return out


def manifest(
    inputs: list[dict[str, Any]],
    rules_sha256: str,
    options: Mapping[str, Any],
    digests: Mapping[str, str | None],
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "tool": f"compliance {__version__}",
        "inputs": inputs,
        "rules_sha256": rules_sha256,
        "options": dict(options),
        "date_bound": options.get("latest_day"),
        "as_of": options.get("as_of"),
        **digests,
    }
