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
    for name in names:
        if wanted and name not in wanted and name.removeprefix("bench_") not in wanted:
            continue
        print(f"== {name}", flush=True)
        importlib.import_module(f"benchmarks.{name}").main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main(sys.argv[1:]))
