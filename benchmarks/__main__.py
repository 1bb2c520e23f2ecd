"""`make bench`: runs every `benchmarks/bench_*.py` module's `main()` in one process.

Each benchmark prints its own figures (medians and p99, and ratios against a floor
measured in the same run, because this 2-core machine is shared and noisy).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import benchmarks


def main(argv: list[str]) -> int:
    wanted = set(argv)
    names = sorted(
        m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_")
    )
    failed = 0
    for name in names:
        if wanted and name not in wanted and name.removeprefix("bench_") not in wanted:
            continue
        print(f"== {name}", flush=True)
        # a benchmark whose measured run failed says so by returning non-zero (bench_taps
        # when a round test fails): its figures are not printed, and the run exits 1
        failed += bool(importlib.import_module(f"benchmarks.{name}").main())
        print(flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main(sys.argv[1:]))
