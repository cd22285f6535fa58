"""Files a player receives can't hurt them: mutated logs, modules, decks and positions.

Each input goes through every command that reads its kind (``inspect``, ``log``, ``check``,
``score``, ``render``, ``Game.open`` for logs; ``new``, ``deck list`` and a drawing of the
new game for modules; ``deck import`` for decks; ``new --position`` and ``check`` for
positions), each run in a forked child with 1 GB of memory and 10 s. A run must end
accepted (exit 0) or cleanly refused (exit 2, one short message naming the file, nothing
changed); see tests/fuzz/harness.py for the outcomes. This is the fast mode, a few hundred
runs with a fixed seed; ``make fuzz`` runs thousands and keeps every failing input under
tests/fixtures/fuzz/, which is replayed here.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.cases import (
    FIXTURES,
    KINDS,
    Input,
    Seed,
    cases_of,
    fixtures,
    inputs,
    mutated,
    replay_input,
)
from tests.fuzz.harness import ACCEPTED, Case, Pool
from tests.fuzz.mutate import DrawChoices, pick

# inputs of each kind in the fast mode: with every command, about 250 runs in all
FAST_INPUTS = {"log": 14, "module": 16, "deck": 24, "position": 16}
HYPOTHESIS_EXAMPLES = 5
PENDING = FIXTURES / "pending"


def _report(results: list) -> str:
    return "\n".join(
        f"{r.case.kind} {r.case.command} [{r.case.label}]: {r.outcome} {r.detail} {r.first_line}"
        for r in results
    )


# Failures of issue 15 whose fixes are not in yet, each with a kept input in pending/ (an
# xfail-strict test below): (kind or None for any, outcome, pattern of stderr's first line).
# The bulk tests pass over these alone; drop a line when its fix lands.
PENDING_CAUSES: list[tuple[str | None, str, str]] = []


def _pending_cause(result) -> bool:
    return any(
        kind in (None, result.case.kind)
        and result.outcome == outcome
        and re.search(pattern, result.first_line)
        for kind, outcome, pattern in PENDING_CAUSES
    )


def _run_all(pool: Pool, items: list[Input], first: int = 0) -> list:
    """The failed runs of the inputs (but the pending causes'); the first input (and every
    sixth) is drawn too."""
    cases = [case for i, item in enumerate(items, first) for case in cases_of(item, i)]
    return [r for r in pool.map(cases) if r.failed and not _pending_cause(r)]


@pytest.mark.parametrize(
    ("how", "outcome"),
    [
        ("segfault", "crash"),
        ("hang", "hang"),
        ("memory", "memory"),
        ("traceback", "traceback"),
        ("stray", "stray write"),
        ("change", "changed input"),
        ("vague", "vague refusal"),
    ],
)
def test_the_harness_tells_each_failure(fuzz_pool: Pool, how: str, outcome: str) -> None:
    case = Case("log", "self", {"game.jsonl": b"{}"}, [["misbehave", how]], "game.jsonl", seconds=1)
    result = fuzz_pool.run(case)
    assert result.outcome == outcome, result


def test_the_seeds_are_read_as_they_were_made(
    fuzz_pool: Pool, fuzz_seeds: dict[str, list[Seed]]
) -> None:
    items = [
        Input(kind, seed, seed.files, seed.mutable[0], f"seed {seed.name}")
        for kind in KINDS
        for seed in fuzz_seeds[kind]
    ]
    # the first seed of each kind is drawn too (drawing takes seconds)
    first = {kind: seeds[0] for kind, seeds in fuzz_seeds.items()}
    cases = [
        case for item in items for case in cases_of(item, 0 if first[item.kind] is item.seed else 1)
    ]
    results = list(fuzz_pool.map(cases))
    assert not [r for r in results if r.failed], _report([r for r in results if r.failed])
    # a refusal of an unmutated seed is only a command the module does not offer
    refused = {
        (r.case.kind, r.case.command, r.case.label) for r in results if r.outcome != ACCEPTED
    }
    assert refused <= {
        ("log", "check", "seed proto-new"),
        ("log", "score", "seed proto-new"),
        ("module", "deck list", "seed looot"),
        ("module", "deck list", "seed boards"),
    }


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_inputs_are_accepted_or_refused(
    fuzz_pool: Pool, fuzz_seeds: dict[str, list[Seed]], kind: str
) -> None:
    items = list(inputs(kind, fuzz_seeds[kind], FAST_INPUTS[kind], seed=1))
    failures = _run_all(fuzz_pool, items)
    assert not failures, _report(failures)


@pytest.mark.parametrize("kind", KINDS)
def test_structured_mutations_are_accepted_or_refused(
    fuzz_pool: Pool, fuzz_seeds: dict[str, list[Seed]], kind: str
) -> None:
    """Hypothesis draws the mutations (so a failing input shrinks to a small change)."""

    @settings(
        max_examples=HYPOTHESIS_EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def check(data: st.DataObject) -> None:
        choices = DrawChoices(data)
        item = mutated(pick(choices, fuzz_seeds[kind]), choices, "hypothesis")
        failures = _run_all(fuzz_pool, [item], first=1)  # drawn in the other tests
        assert not failures, _report(failures)

    check()


def _fixture_id(path) -> str:
    return f"{path.parent.name}/{path.name}"


@pytest.mark.parametrize("fixture", fixtures(), ids=_fixture_id)
def test_kept_failures_are_accepted_or_refused(fuzz_pool: Pool, fixture) -> None:
    item, commands = replay_input(fixture)
    cases = [case for case in cases_of(item, 0) if case.command in commands]
    results = [result for result in fuzz_pool.map(cases) if result.failed]
    assert not results, _report(results)


def _pending() -> list:
    found = []
    for path in sorted(PENDING.glob("*/*")):
        if path.suffix == ".json":
            continue
        cause = json.loads(path.with_suffix(".json").read_text()).get("cause", "unknown")
        found.append(
            pytest.param(
                path,
                id=_fixture_id(path),
                marks=pytest.mark.xfail(strict=True, reason=cause),
            )
        )
    return found


@pytest.mark.parametrize("fixture", _pending())
def test_pending_failures_still_fail(fuzz_pool: Pool, fixture) -> None:
    """Failures found before their fix landed: strict xfail, so a fix must move them out."""
    item, commands = replay_input(fixture)
    cases = [case for case in cases_of(item, 0) if case.command in commands]
    results = [result for result in fuzz_pool.map(cases) if result.failed]
    assert not results, _report(results)
