"""The command line builds only the options of the command it is given; the top's help and a
word naming no command still get the full parser, every command listed (table: no section
applies)."""

from __future__ import annotations

import argparse

import pytest

from tabletop.cli import COMMANDS, main
from tabletop.cli_parser import parser


def _commands(built: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in built._actions if a.dest == "command")
    return dict(action.choices)


def test_table_one_commands_parser_reads_as_the_full_ones() -> None:
    full = _commands(parser())
    assert set(full) == set(COMMANDS)
    for name in COMMANDS:
        one = _commands(parser(name))
        assert list(one) == [name]
        assert one[name].format_help() == full[name].format_help(), name


def test_table_one_command_reads_its_options_and_refuses_others(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args, extra = parser("play").parse_known_args(["play", "greenland", "--seed", "3"])
    assert (args.command, args.target, args.seed, extra) == ("play", "greenland", 3, [])
    with pytest.raises(SystemExit) as stopped:
        main(["play", "greenland", "--bogus"])
    assert stopped.value.code == 2
    assert "tabletop: unrecognized arguments: --bogus" in capsys.readouterr().err


def test_table_the_top_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in COMMANDS:
        assert f"\n    {name} " in out or f"\n    {name}\n" in out, name


def test_table_a_word_naming_no_command_gets_the_full_list(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["plya"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'plya'" in err and "'play'" in err and "'new'" in err
