"""Run the benchmarks one after another: ``./run.sh bench [--check] [NAME ...]``.

    .venv/bin/python bench/run.py --check          # every benchmark that has limits, each with --check
    .venv/bin/python bench/run.py lab_load viz     # bench_lab_load.py and bench_viz.py, as they are

With ``--check`` only the benchmarks that have limits run (they take ``--check``), and the exit code is 1 when any
missed one; every value each prints is shown as it comes, and a table at the end names each benchmark's result.
The suite's tests read no clock (issue 29): the limits on time live here, and ``./run.sh bench --check`` is run
before resolving anything that touches speed (docs/architecture.md, "Tests and benchmarks").
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def scripts() -> list[Path]:
    return sorted(BENCH.glob("bench_*.py"))


def has_limits(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    return "add_check(" in text or '"--check"' in text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only the benchmarks with limits; exit 1 if one is missed")
    ap.add_argument("names", nargs="*", help="benchmarks to run (bench_NAME.py or NAME); default: all")
    args = ap.parse_args(argv)
    chosen = scripts()
    if args.names:
        wanted = {n.removeprefix("bench_").removesuffix(".py") for n in args.names}
        unknown = wanted - {p.stem.removeprefix("bench_") for p in chosen}
        if unknown:
            ap.error(f"no benchmark named {sorted(unknown)}; there are {[p.stem for p in chosen]}")
        chosen = [p for p in chosen if p.stem.removeprefix("bench_") in wanted]
    if args.check:
        chosen = [p for p in chosen if has_limits(p)]
    results = []
    for path in chosen:
        print(f"\n==> {path.name}{' --check' if args.check else ''}", flush=True)
        t0 = time.monotonic()
        code = subprocess.call([sys.executable, str(path), *(["--check"] if args.check else [])], cwd=BENCH.parent)
        results.append((path.name, code, time.monotonic() - t0))
    print(f"\n{'benchmark':32s} {'result':>14s} {'wall s':>8s}")
    for name, code, wall in results:
        verdict = "ok" if code == 0 else f"MISSED (exit {code})" if args.check else f"exit {code}"
        print(f"{name:32s} {verdict:>14s} {wall:8.0f}")
    return 1 if any(code for _, code, _ in results) else 0


if __name__ == "__main__":
    sys.exit(main())
