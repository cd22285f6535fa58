"""The four kinds of input, their seeds, the commands that read them, and mutated cases.

Kinds: ``log`` (a game log, .jsonl), ``module`` (a module folder: module.toml, deck CSVs,
boards), ``deck`` (a CSV imported as a deck revision) and ``position`` (a Greenland
position file, .toml). Seeds are real files: logs the program makes (new games of each
module, played games from ``simulate``), the installed modules and their decks, the
position fixtures.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tests.fuzz.harness import ROOT, Case, Pool, Result
from tests.fuzz.mutate import Choices, RandomChoices, mutate_file, pick

KINDS = ("log", "module", "deck", "position")
FIXTURES = ROOT / "tests" / "fixtures" / "fuzz"
EXTENSIONS = {"log": ".jsonl", "deck": ".csv", "position": ".toml"}
MODULE_SEEDS = {
    "proto": ROOT / "resources" / "proto",
    "greenland": ROOT / "resources" / "greenland",
    "looot": ROOT / "resources" / "looot",
    "boards": ROOT / "tests" / "fixtures" / "modules" / "boards",
}
DECK_SEEDS = {  # a module whose deck the CSV is imported into, and the CSV
    "proto": "decks/cards.csv",
    "greenland": "decks/reconstructed.csv",
}
RENDER_EVERY = 6  # drawing costs seconds: every sixth input is drawn too


@dataclass
class Seed:
    kind: str
    name: str
    files: dict[str, bytes]
    subject: str  # the file or folder the commands are given
    mutable: tuple[str, ...]  # the files a mutation may change


def _folder(root: Path, prefix: str) -> dict[str, bytes]:
    return {
        f"{prefix}/{path.relative_to(root)}": path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def module_seeds() -> list[Seed]:
    seeds = []
    for name, root in MODULE_SEEDS.items():
        files = _folder(root, "fuzzmod")
        mutable = tuple(
            rel for rel in files if rel.endswith((".toml", ".csv")) and "/icons/" not in rel
        )
        seeds.append(Seed("module", name, files, "fuzzmod", mutable))
    return seeds


def deck_seeds() -> list[Seed]:
    seeds = []
    for name, deck in DECK_SEEDS.items():
        files = _folder(MODULE_SEEDS[name], "fuzzmod")
        files["deck.csv"] = files[f"fuzzmod/{deck}"]
        seeds.append(Seed("deck", name, files, "deck.csv", ("deck.csv",)))
    return seeds


def position_seeds() -> list[Seed]:
    from tests.greenland.test_position import POSITIONS

    texts = {"sabine": (ROOT / "tests/fixtures/greenland/sabine.toml").read_bytes()}
    texts |= {f"question-{i}": text.encode() for i, text in enumerate(POSITIONS)}
    return [
        Seed("position", name, {"position.toml": data}, "position.toml", ("position.toml",))
        for name, data in texts.items()
    ]


LOG_SOURCES = {  # how each seed log is made
    "greenland-new": [["new", "greenland", "--seed", "1", "-o", "game.jsonl"]],
    "greenland-solitaire": [
        ["new", "greenland", "--variant", "solitaire", "--seed", "2", "-o", "game.jsonl"]
    ],
    "looot-new": [["new", "looot", "--seed", "3", "-o", "game.jsonl"]],
    "proto-new": [["new", "proto", "--seed", "4", "-o", "game.jsonl"]],
    "greenland-played": [
        ["simulate", "greenland", "--games", "1", "--jobs", "1", "--seed", "5", "--save-logs", "s"]
    ],
    "looot-played": [
        ["simulate", "looot", "--games", "1", "--jobs", "1", "--seed", "6", "--save-logs", "s"]
    ],
}


def log_seeds(pool: Pool) -> list[Seed]:
    """Logs the program makes: new games of each module and two played games."""
    made = []
    for name, argv in LOG_SOURCES.items():
        target = "s/game-5.jsonl" if "greenland-played" in name else "game.jsonl"
        if name == "looot-played":
            target = "s/game-6.jsonl"
        case = Case("log", "seed", {}, argv, target, (target,), (target,), name)
        result = pool.run(case)
        if result.outcome != "accepted" or target not in result.collected:
            raise RuntimeError(f"the seed log {name} was not made: {result.first_line}")
        made.append(
            Seed(
                "log", name, {"game.jsonl": result.collected[target]}, "game.jsonl", ("game.jsonl",)
            )
        )
    return made


def commands(kind: str, subject: str, index: int) -> list[tuple[str, list[list[str]], tuple]]:
    """(name, argument chain, targets) of each command a kind's input goes through."""
    render = index % RENDER_EVERY == 0
    if kind == "log":
        found = [
            ("inspect", [["inspect", subject]], ()),
            ("log", [["log", subject]], ()),
            ("check", [["check", subject]], ()),
            ("score", [["score", subject]], ()),
            ("Game.open", [["Game.open", subject]], ()),
        ]
        if render:
            found.append(
                ("render", [["render", subject, "-o", "out.png", "--log", "3"]], ("out.png",))
            )
        return found
    if kind == "module":
        new = ["new", subject, "--seed", "1", "-o", "out.jsonl"]
        found = [
            ("new", [new], ("out.jsonl",)),
            ("deck list", [["deck", "list", subject]], ()),
        ]
        if render:
            chain = [new, ["render", "out.jsonl", "-o", "out.png", "--log", "0"]]
            found.append(("render", chain, ("out.jsonl", "out.png")))
        return found
    if kind == "deck":
        chain = [
            ["deck", "import", "--name", "fuzzed", "--module", "fuzzmod", subject],
            ["deck", "list", "fuzzmod"],
        ]
        return [("deck import", chain, ("fuzzmod/decks/fuzzed.csv",))]
    new = ["new", "greenland", "--position", subject, "--seed", "1", "-o", "out.jsonl"]
    return [
        ("new", [new], ("out.jsonl",)),
        ("check", [new, ["check", "out.jsonl"]], ("out.jsonl",)),
    ]


@dataclass
class Input:
    kind: str
    seed: Seed
    files: dict[str, bytes]
    changed: str  # the file the mutation changed
    label: str


def mutated(seed: Seed, choices: Choices, label: str) -> Input:
    files = dict(seed.files)
    rel = pick(choices, seed.mutable)
    if seed.kind == "module" and choices.integer(0, 1):
        rel = "fuzzmod/module.toml"  # the manifest half the time: it names everything else
    data, how = mutate_file(choices, rel, files[rel])
    files[rel] = data
    return Input(seed.kind, seed, files, rel, f"{label} {seed.name}:{rel} {how}")


def inputs(kind: str, seeds: list[Seed], count: int, seed: int) -> Iterator[Input]:
    """``count`` mutated inputs of a kind, the same for the same seed."""
    for i in range(count):
        choices = RandomChoices(f"{seed}-{kind}-{i}")
        yield mutated(pick(choices, seeds), choices, f"#{i}")


def cases_of(item: Input, index: int) -> list[Case]:
    return [
        Case(
            item.kind,
            name,
            item.files,
            chain,
            item.seed.subject,
            targets,
            label=item.label,
            names=(item.seed.name,) if item.kind in ("module", "deck") else (),
        )
        for name, chain, targets in commands(item.kind, item.seed.subject, index)
    ]


# --- failing inputs kept as fixtures --------------------------------------------------------


def keep(result: Result, item: Input, folder: Path = FIXTURES) -> Path:
    """Write a failing input to folder/<kind>/<hash>.<ext> with a sidecar .json."""
    data = item.files[item.changed]
    digest = hashlib.sha256(data).hexdigest()[:12]
    ext = EXTENSIONS.get(item.kind) or Path(item.changed).suffix or ".bin"
    path = folder / item.kind / f"{digest}{ext}"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    sidecar = path.with_suffix(".json")
    side = json.loads(sidecar.read_text()) if sidecar.exists() else {}
    failed = side.get("failed", [])  # the same input may fail under several commands
    failed.append(
        {"command": result.case.command, "outcome": result.outcome, "stderr": result.first_line}
    )
    side = {
        "kind": item.kind,
        "seed": item.seed.name,
        "path": item.changed,
        "made_by": item.label,
        "failed": failed,
    }
    sidecar.write_text(json.dumps(side, indent=1, ensure_ascii=True) + "\n")
    return path


def sidecar_commands(side: dict) -> set[str]:
    """The commands a kept input failed (older sidecars name one)."""
    if "failed" in side:
        return {f["command"] for f in side["failed"]}
    return {side["command"]}


def replay_input(fixture: Path) -> tuple[Input, set[str]]:
    """The input a fixture holds (rebuilt around its seed) and the commands it failed."""
    side = json.loads(fixture.with_suffix(".json").read_text())
    kind = side["kind"]
    if kind == "log":
        seed = Seed("log", side["seed"], {}, "game.jsonl", ("game.jsonl",))
    else:
        pool = {"module": module_seeds, "deck": deck_seeds, "position": position_seeds}[kind]()
        seed = next(s for s in pool if s.name == side["seed"])
    files = dict(seed.files)
    files[side["path"]] = fixture.read_bytes()
    return Input(kind, seed, files, side["path"], f"fixture {fixture.name}"), sidecar_commands(side)


def fixtures(folder: Path = FIXTURES) -> list[Path]:
    return sorted(p for p in folder.glob("*/*") if p.suffix != ".json" and p.parent.name in KINDS)
