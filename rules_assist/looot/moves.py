"""Looot's moves as short codes (the notation of recorded games):

    shield DoubleGain | viking 3,-2 | place sheep 0,2 | place house 6,1 from 0,1 |
    longship 513 1,4 from 4,1 | trophy 3 | pass

``legal_codes(state)`` lists the distinct legal moves of the seat to move; ``play_code`` does
one through the game's procedure, by the seat to move (refused with a plain message when it is
not legal)."""

from __future__ import annotations

from functools import cache
from typing import Any

from rules_assist.procedures import ProcedureError
from tabletop.core import Table, TableState
from tabletop.modules import load_module
from tabletop.modules.catalogue import resources_dir
from tabletop.modules.rules import game_of

from .procedures import tile_code
from .reading import END, TILES, VIKINGS, Looot
from .rules.legal import longship_offers, shield_offers, trophy_offers, viking_spaces


@cache
def looot_game() -> Any:
    """The game interface of the module in the resources folder."""
    return game_of(load_module(resources_dir() / "looot"))


def legal_codes(state: TableState, game: Any = None) -> list[str]:
    """The distinct legal moves of the seat to move, as codes, sorted."""
    lo = Looot(state, game or looot_game())
    seat = lo.to_move
    codes: list[str] = []
    if lo.phase == VIKINGS:
        codes += [f"shield {s}" for s in shield_offers(lo, seat)]
        if lo.vikings_left(seat):
            codes += [f"viking {s}" for s in viking_spaces(lo, seat)]
    elif lo.phase == TILES:
        free = lo.free_spaces(seat)
        for code in dict.fromkeys(tile_code(lo, p) for p in lo.gained(seat)):
            tile, _, origin = code.partition(" from ")
            tail = f" from {origin}" if origin else ""
            codes += [f"place {tile} {space}{tail}" for space in free]
    elif lo.phase == END:
        free = lo.free_spaces(seat)
        for pid in longship_offers(lo, seat):
            piece = state.pieces[pid]
            codes += [
                f"longship {piece.props['longship']} {space} from {piece.spot}" for space in free
            ]
        codes += [f"trophy {n}" for n in trophy_offers(lo, seat)]
        codes.append("pass")
    return sorted(codes)


def procedure_of(code: str) -> tuple[str, dict[str, str]]:
    """A code -> (the procedure, the answers to its questions); ProcedureError if unreadable."""
    words = code.split()
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head == "shield" and len(rest) == 1:
        return "shield", {"shield": rest[0]}
    if head == "viking" and len(rest) == 1:
        return "viking", {"hex": rest[0]}
    if head == "place" and len(rest) in (2, 4) and (len(rest) == 2 or rest[2] == "from"):
        tile = rest[0] if len(rest) == 2 else f"{rest[0]} from {rest[3]}"
        return "place", {"tile": tile, "space": rest[1]}
    if head == "longship" and len(rest) in (2, 4) and (len(rest) == 2 or rest[2] == "from"):
        found = {"longship": rest[0], "space": rest[1]}
        if len(rest) == 4:
            found["from"] = rest[3]
        return "longship", found
    if head == "trophy" and len(rest) == 1:
        return "trophy", {"trophy": rest[0]}
    if head == "pass" and not rest:
        return "pass", {}
    raise ProcedureError(
        f"'{code}' is not a move: write shield NAME, viking Q,R, place TILE C,R [from Q,R], "
        "longship N C,R [from Q,R], trophy N or pass"
    )


def play_code(game_or_table: Any, code: str, game: Any = None) -> Any:
    """Do the move ``code`` by the seat to move, through the game's procedure."""
    table: Table = getattr(game_or_table, "table", game_or_table)
    game = game or looot_game()
    name, choices = procedure_of(code)
    lo = Looot(table.state, game)
    origin = choices.pop("from", None)
    if name == "longship" and origin is not None:
        at = table.state.pieces.get(f"longship-{choices['longship']}")
        if at is None or at.place != "landscape" or at.spot != origin:
            raise ProcedureError(f"longship {choices['longship']} is not on {origin}")
    return game.run(table, name, lo.to_move, choices=choices)
