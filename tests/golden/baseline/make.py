"""Write the redesign's byte-identity baseline: the demo's stdout and log, then
`audit --format jsonl` and `report --format json` on that log, gzipped.

`python tests/golden/baseline/make.py [DIR]` writes them to DIR (default: this
folder). The outputs do not depend on the hash seed (every simulator iterates
in a fixed order; tests/integration/test_simulate_and_workers.py holds it).
"""

from __future__ import annotations

import gzip
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from tests.golden.baseline.outputs import make_outputs  # noqa: E402

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    with tempfile.TemporaryDirectory() as work:
        for name, data in make_outputs(Path(work)).items():
            (target / f"{name}.gz").write_bytes(gzip.compress(data, mtime=0))
            print(f"{name}: {len(data)} bytes")
