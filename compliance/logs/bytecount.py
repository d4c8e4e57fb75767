"""数字节: how often one byte occurs in a buffer, in numpy where the run has loaded it.

numpy counts a long buffer five times quicker than `bytes.count` (98 kB: 19 µs against
102), but its import costs what some 66 MB counted would save: it is used only where the
run has loaded it already (an audit judges with it), so a short command does not wait.
"""

from __future__ import annotations

import sys

NUMPY_FROM = 16_384  # bytes: below, bytes.count is as quick


def occurrences(data: bytes, byte: bytes) -> int:
    """`data.count(byte)` for a single byte."""
    if len(data) >= NUMPY_FROM and "numpy" in sys.modules:
        import numpy as np

        return int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8) == byte[0]))
    return data.count(byte)
