"""Write the redesign's byte-identity baseline: the demo's stdout and log, then
`audit --format jsonl` and `report --format json` on that log, gzipped.

`python tests/golden/baseline/make.py [DIR]` writes them to DIR (default: this
folder). The 掼蛋 simulator still iterates a set of strings, so the log
depends on the hash seed: this script is run with PYTHONHASHSEED=0.
"""

from __future__ import annotations

import gzip
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from tests.golden.baseline.outputs import make_outputs  # noqa: E402

if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"}
        )
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    with tempfile.TemporaryDirectory() as work:
        for name, data in make_outputs(Path(work)).items():
            (target / f"{name}.gz").write_bytes(gzip.compress(data, mtime=0))
            print(f"{name}: {len(data)} bytes")
