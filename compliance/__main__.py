"""入口: the `compliance` command and `python -m compliance`.

It imports nothing heavy before its `try`, so a Ctrl-C while the command's
modules load ends as one later does: "interrupted" and exit 130, no traceback.
"""

from __future__ import annotations

import sys

INTERRUPTED = 130  # ExitCode.INTERRUPTED, not imported: compliance.cli is what may be interrupted


def main() -> None:
    try:
        from compliance.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(INTERRUPTED)
    run()


if __name__ == "__main__":
    main()
