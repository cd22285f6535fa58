"""The command line builds only the options of the command it is given; the top's help and a
word naming no command still get the full parser, every command listed (table: no section
applies)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tabletop import cli_export, cli_fair, cli_notes, cli_parser, cli_record, cli_report
from tabletop.cli import COMMANDS, main
from tabletop.cli_parser import parser
from tabletop.online import commands as online_commands


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


@pytest.mark.parametrize(
    ("module", "names"),
    [
        (cli_export, cli_parser.EXPORT_COMMANDS),
        (cli_notes, cli_parser.NOTE_COMMANDS),
        (cli_record, cli_parser.RECORD_COMMANDS),
        (cli_report, cli_parser.REPORT_COMMANDS),
        (cli_fair, cli_parser.FAIR_COMMANDS),
        (online_commands, cli_parser.ONLINE_COMMANDS),
    ],
)
def test_table_the_commands_named_for_a_module_are_the_ones_it_adds(
    module: object, names: tuple[str, ...]
) -> None:
    """The command line names each command module's commands without importing it (a module
    loads with its commands only): the names are the ones the module's own parsers add."""
    built = argparse.ArgumentParser()
    sub = built.add_subparsers(dest="command")
    module.add_parsers(sub)  # type: ignore[attr-defined]
    assert tuple(sub.choices) == names
    if hasattr(module, "COMMANDS"):  # its commands' code, by name
        assert tuple(module.COMMANDS) == names


def test_table_a_module_command_runs_its_modules_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A command whose module loads when it runs reaches that module's command: a game file
    that is not there is one line naming it, exit code 2, as before."""
    missing = str(tmp_path / "no-such-game.jsonl")
    for command in ("notes", "session", "verify", "check", "score"):
        assert main([command, missing]) == 2, command
        err = capsys.readouterr().err
        assert missing in err and err.count("\n") == 1, err  # one line, no traceback
