"""How a procedure's Parameters read on the command line (rules_assist/cli_options.py): their
spellings in the listing, and --seat described by the procedure's acting seat."""

from __future__ import annotations

import argparse

from rules_assist.cli_options import add_common, add_parameter, collect, option_text
from rules_assist.game import Parameter, ProcedureSpec
from tabletop.core import TableState


def test_an_option_lists_its_other_spellings() -> None:
    either = Parameter("cube_or_card", kind="card", option="--card", aliases=("--cube",))
    assert option_text(either) == "--card/--cube NAME"
    assert option_text(Parameter("alpha", kind="flag", negative="--no-alpha")) == (
        "--alpha/--no-alpha"
    )
    assert option_text(Parameter("colour", kind="actor")) == "--seat SEAT"


def test_seat_is_described_by_the_acting_parameter() -> None:
    actor = Parameter("colour", "the culture whose hunter marries", kind="actor", required=True)
    p = argparse.ArgumentParser()
    add_common(p, actor)
    assert "the culture whose hunter marries (required)" in p.format_help()
    plain = argparse.ArgumentParser()
    add_common(plain)
    assert "the one the game names" in plain.format_help()


def test_an_alias_gives_the_same_parameter() -> None:
    either = Parameter("cube_or_card", kind="card", option="--card", aliases=("--cube",))
    p = argparse.ArgumentParser()
    add_common(p)
    add_parameter(p, either)
    spec = ProcedureSpec("marry", lambda ctx, cube_or_card: "", parameters=(either,))
    state = TableState()
    for spelling in ("--card", "--cube"):
        args = p.parse_args(["-o", "out", spelling, "cube-red-3"])
        assert collect(spec, args, state) == ({"cube_or_card": "cube-red-3"}, {})
