"""启动: CPU seconds of the command's start-up, this tree against another checkout.

Runs `python -m compliance ARGS` for a few commands that do little work, in this
tree and in `--base` (a worktree of main, say), interleaved, with this
interpreter (the code comes from the working directory, put first on sys.path),
and prints each one's median CPU (children's rusage), the runs' lowest–highest,
and the median of the paired ratios.

    git worktree add --detach /tmp/base main
    python bench/cli_startup.py --base /tmp/base [--runs 7]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path
from statistics import median

HERE = Path(__file__).resolve().parents[1]
SAMPLE = str(HERE / "data" / "samples" / "douniu.jsonl")
COMMANDS = {
    "--help": ["--help"],
    "--version": ["--version"],
    "games settle (1 session)": ["games", "settle", SAMPLE],
    "games list": ["games", "list"],
    "logs schema": ["logs", "schema"],
    "audit --help": ["audit", "--help"],
    "rules --help": ["rules", "--help"],
    "review --help": ["review", "--help"],
    "report --help": ["report", "--help"],
    "db --help": ["db", "--help"],
}


def cpu(tree: str, args: list[str]) -> float:
    """CPU seconds of one `python -m compliance ARGS` run in `tree`, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "compliance", *args]
    subprocess.run(command, cwd=tree, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the checkout to compare with")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    trees = {"base": args.base, "this": str(HERE)}
    for name, command in COMMANDS.items():
        seconds: dict[str, list[float]] = {k: [] for k in trees}
        ratios = []
        for _ in range(args.runs):
            pair = {k: cpu(tree, command) for k, tree in trees.items()}
            for k, v in pair.items():
                seconds[k].append(v)
            ratios.append(pair["base"] / pair["this"])
        shown = "  ".join(
            f"{k} {median(v):.3f} s ({min(v):.2f}–{max(v):.2f})" for k, v in seconds.items()
        )
        print(f"{name:<26} {shown}  base/this {median(ratios):.2f}×")


if __name__ == "__main__":
    main()
