"""The long fuzzing run (``make fuzz``): thousands of mutated inputs of each kind.

    python -m tests.fuzz.run [--cases N] [--seed S] [--kinds log,module] [--keep]

``--cases`` (or TABLETOP_FUZZ_CASES, default 5,000) inputs of each kind, each through every
command that reads its kind. Prints a table of outcomes by kind and command; with
``--keep`` (``make fuzz`` passes it) every failing input is written to
tests/fixtures/fuzz/<kind>/ with a sidecar .json, replayed by the fast suite. Exits 1 when
any run failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict

from tests.fuzz.cases import (
    KINDS,
    cases_of,
    deck_seeds,
    inputs,
    keep,
    log_seeds,
    module_seeds,
    position_seeds,
)
from tests.fuzz.harness import PASSING, Pool


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.run")
    parser.add_argument(
        "--cases", type=int, default=int(os.environ.get("TABLETOP_FUZZ_CASES", "5000"))
    )
    parser.add_argument("--seed", type=int, default=int(os.environ.get("TABLETOP_FUZZ_SEED", "1")))
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--keep", action="store_true", help="write failing inputs as fixtures")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    table: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    inputs_made: Counter[str] = Counter()
    failures: dict[str, tuple] = {}  # by (kind, command, outcome, first line): one example
    started = time.monotonic()
    with Pool(args.jobs) as pool:
        seeds = {
            "log": log_seeds(pool) if "log" in kinds else [],
            "module": module_seeds(),
            "deck": deck_seeds(),
            "position": position_seeds(),
        }
        for kind in kinds:
            items = {}

            def all_cases(kind=kind, items=items):
                for i, item in enumerate(inputs(kind, seeds[kind], args.cases, args.seed)):
                    inputs_made[kind] += 1
                    for case in cases_of(item, i):
                        items[id(case)] = item
                        yield case

            for n, result in enumerate(pool.map(all_cases()), 1):
                item = items.pop(id(result.case))
                table[(kind, result.case.command)][result.outcome] += 1
                if result.outcome not in PASSING:
                    where = keep(result, item) if args.keep else None
                    key = f"{kind} | {result.case.command} | {result.outcome} | {result.first_line}"
                    failures.setdefault(key, (0, where, item.label))
                    count, where0, label = failures[key]
                    failures[key] = (count + 1, where0, label)
                if n % 500 == 0:
                    print(
                        f"{kind}: {n} runs, {inputs_made[kind]} inputs, "
                        f"{time.monotonic() - started:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    outcomes = sorted({o for counts in table.values() for o in counts}, key=_order)
    print(f"{'kind':9} {'command':12} " + " ".join(f"{o:>13}" for o in outcomes))
    for (kind, command), counts in table.items():
        print(f"{kind:9} {command:12} " + " ".join(f"{counts[o]:>13}" for o in outcomes))
    print("inputs: " + ", ".join(f"{k} {inputs_made[k]}" for k in kinds))
    print(
        f"runs: {sum(sum(c.values()) for c in table.values())} in {time.monotonic() - started:.0f} s"
    )
    if failures:
        print("\nfailures (kind | command | outcome | first line of stderr: count, example):")
        for key, (count, where, label) in sorted(failures.items()):
            print(f"{key}: {count}, {where or label}")
    return 1 if failures else 0


def _order(outcome: str) -> tuple[int, str]:
    return (0 if outcome in PASSING else 1, outcome if outcome != "accepted" else "")


if __name__ == "__main__":
    sys.exit(main())
