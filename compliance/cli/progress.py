"""进度: a sessions-per-second line on a terminal's stderr; silent otherwise."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, stream=None, every: float = 0.5):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.every = every
        self.count = 0
        self.start = self.last = time.monotonic()

    def tick(self, _item=None) -> None:
        self.count += 1
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last >= self.every:
            self.last = now
            rate = self.count / max(now - self.start, 1e-9)
            self.stream.write(f"\r{self.count:,} sessions, {rate:,.0f}/s ")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self.last != self.start:
            self.stream.write("\r\033[K")
            self.stream.flush()
