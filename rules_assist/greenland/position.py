"""Positions for rules questions: "suppose the table looks like this", as a short TOML file.

A position names the cards in each row, the New World sides and, for each
culture, its religion and where its cubes and disks are, in the same terms as
``tabletop inspect`` prints (see resources/greenland/README.md). Card names
match the deck's, without regard to case. Cubes a culture does not place are
in Valhalla; cards not named stay in their decks. A position that breaks a
physical limit (more than 18 small cubes of a colour, a card in two places)
is refused, naming the field.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.core import actions
from tabletop.core.limits import MAX_POSITION_BYTES, size_text
from tabletop.core.textsafe import quoted
from tabletop.modules import SetupError

from .batch import Batch
from .deck import Cards
from .variants import variant_in

PHASES = ("event", "assignment", "negotiation", "hunt", "animals", "elders")
COLOURS = ("red", "yellow", "green")
SMALL_CUBES = 18


@dataclass
class Culture:
    colour: str
    religion: str = "polytheist"
    unassigned: int | None = None
    alpha: str = "unassigned"
    elders: dict[int, int] | None = None
    missionaries: dict[str, int] = field(default_factory=dict)
    colonists: dict[str, int] = field(default_factory=dict)
    husbands: dict[str, int] = field(default_factory=dict)
    hunters: dict[str, int] = field(default_factory=dict)
    energy: int | None = None
    ivory: int | None = None
    iron: int | None = None
    tableau: list[str] | None = None
    trophies: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)


@dataclass
class Position:
    variant: str = ""
    turn: int = 1
    phase: str = "event"
    first_player: str | None = None
    rows: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    new_world: dict[str, str] = field(default_factory=dict)
    cultures: dict[str, Culture] = field(default_factory=dict)


class PositionError(SetupError):
    pass


def _fail(path: str, where: str, message: str) -> PositionError:
    return PositionError(f"{path}: {where}: {message}")


def read_position(path: str, module: Any) -> Position:
    """Read and check a position file against the module's deck."""
    try:
        if Path(path).stat().st_size > MAX_POSITION_BYTES:
            raise PositionError(
                f"{path}: is larger than the limit of {size_text(MAX_POSITION_BYTES)} for a position"
            )
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"{path}: cannot be read ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise PositionError(f"{path}: nested too deeply to read") from None
    return parse_position(data, path, module)


def _int(value: Any, path: str, where: str, low: int = 0, high: int = 99) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _fail(
            path, where, f"must be a whole number from {low} to {high}, not {quoted(value)}"
        )
    return value


def _counts(value: Any, path: str, where: str) -> dict[str, int]:
    if not isinstance(value, dict):
        raise _fail(path, where, "must be a table such as {Walrus = 2}")
    return {str(k): _int(v, path, f"{where}.{k}", 0, SMALL_CUBES + 1) for k, v in value.items()}


def _names(value: Any, path: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _fail(path, where, "must be a list of card names")
    return list(value)


def parse_position(data: dict[str, Any], path: str, module: Any) -> Position:
    known = {"variant", "turn", "phase", "first_player", "rows", "new_world", "cultures"}
    for key in data:
        if key not in known:
            raise _fail(path, key, f"is not part of a position (known: {', '.join(sorted(known))})")
    position = Position()
    for key in ("variant", "phase", "first_player"):
        if key in data and not isinstance(data[key], str):
            raise _fail(path, key, f"must be text, not {type(data[key]).__name__}")
    variant = data.get("variant", "")
    if variant and variant not in module.variants:
        raise _fail(
            path,
            "variant",
            f"Greenland has no variant {quoted(variant)} ({', '.join(module.variants)})",
        )
    position.variant = variant
    position.turn = _int(data.get("turn", 1), path, "turn", 1, 99)
    position.phase = data.get("phase", "event")
    if position.phase not in PHASES:
        raise _fail(
            path, "phase", f"must be one of {', '.join(PHASES)}, not {quoted(position.phase)}"
        )
    first = data.get("first_player")
    if first is not None and first not in COLOURS:
        raise _fail(
            path, "first_player", f"must be one of {', '.join(COLOURS)}, not {quoted(first)}"
        )
    position.first_player = first
    cards = Cards.of(module)
    rows = data.get("rows", {})
    if not isinstance(rows, dict):
        raise _fail(path, "rows", "must be a table with north and south")
    for row, sides in rows.items():
        if row not in ("north", "south") or not isinstance(sides, dict):
            raise _fail(
                path, f"rows.{row}", "rows are north and south, each with warm and cold lists"
            )
        for side, names in sides.items():
            if side not in ("warm", "cold"):
                raise _fail(path, f"rows.{row}.{side}", "a row has a warm and a cold side")
            names = _names(names, path, f"rows.{row}.{side}")
            for name in names:
                card = _card(cards, name, path, f"rows.{row}.{side}")
                if card["type"] not in (row, "new_world"):
                    raise _fail(
                        path,
                        f"rows.{row}.{side}",
                        f"{card['name']} is a {card['type']} card, not a {row} biome",
                    )
            position.rows.setdefault(row, {})[side] = names
    new_world = data.get("new_world", {})
    if not isinstance(new_world, dict):
        raise _fail(path, "new_world", 'must be a table such as {Vinland = "hostile"}')
    for name, side in new_world.items():
        card = _card(cards, name, path, "new_world")
        if card["type"] != "new_world" or side not in ("peaceful", "hostile"):
            raise _fail(
                path,
                f"new_world.{name}",
                "names Markland or Vinland, and the side: peaceful or hostile",
            )
        position.new_world[card["card"]] = side
    cultures = data.get("cultures", {})
    if not isinstance(cultures, dict):
        raise _fail(path, "cultures", "must be a table of colours")
    for colour, spec in cultures.items():
        if colour not in COLOURS or not isinstance(spec, dict):
            raise _fail(
                path, f"cultures.{colour}", f"cultures are {', '.join(COLOURS)}, each a table"
            )
        position.cultures[colour] = _culture(colour, spec, path, cards)
    _check_places(position, path, cards)
    return position


def _culture(colour: str, spec: dict[str, Any], path: str, cards: Cards) -> Culture:
    where = f"cultures.{colour}"
    fields = set(Culture.__dataclass_fields__) - {"colour"}
    for key in spec:
        if key not in fields:
            raise _fail(
                path,
                f"{where}.{key}",
                f"is not part of a culture (known: {', '.join(sorted(fields))})",
            )
    c = Culture(colour)
    c.religion = spec.get("religion", "polytheist")
    if c.religion not in ("polytheist", "monotheist"):
        raise _fail(path, f"{where}.religion", "is polytheist or monotheist")
    if "unassigned" in spec:
        c.unassigned = _int(spec["unassigned"], path, f"{where}.unassigned", 0, SMALL_CUBES + 1)
    c.alpha = spec.get("alpha", "unassigned")
    if not isinstance(c.alpha, str):
        raise _fail(path, f"{where}.alpha", "is 'unassigned', 'valhalla' or a card name")
    if c.alpha not in ("unassigned", "valhalla"):
        c.alpha = _card(cards, c.alpha, path, f"{where}.alpha")["name"]
    if "elders" in spec:
        elders = _counts(spec["elders"], path, f"{where}.elders")
        c.elders = {}
        for rank, count in elders.items():
            if rank not in {str(n) for n in range(1, 7)}:
                raise _fail(path, f"{where}.elders.{rank}", "elder ranks are 1 to 6")
            c.elders[int(rank)] = count
    c.missionaries = _counts(spec.get("missionaries", {}), path, f"{where}.missionaries")
    for other in c.missionaries:
        if other not in COLOURS or other == colour:
            raise _fail(
                path,
                f"{where}.missionaries.{other}",
                "missionaries go to another culture's elder card",
            )
    for key in ("colonists", "husbands", "hunters"):
        setattr(c, key, _counts(spec.get(key, {}), path, f"{where}.{key}"))
    for key in ("energy", "ivory", "iron"):
        if key in spec:
            setattr(c, key, _int(spec[key], path, f"{where}.{key}", 0, 99))
    if "tableau" in spec:
        c.tableau = _names(spec["tableau"], path, f"{where}.tableau")
    c.trophies = _names(spec.get("trophies", []), path, f"{where}.trophies")
    c.hand = _names(spec.get("hand", []), path, f"{where}.hand")
    for key in ("tableau", "trophies", "hand"):
        for name in getattr(c, key) or []:
            _card(cards, name, path, f"{where}.{key}")
    for name in c.colonists:
        if _card(cards, name, path, f"{where}.colonists")["type"] != "new_world":
            raise _fail(path, f"{where}.colonists.{name}", "colonists live on Markland or Vinland")
    for name in c.husbands:
        if _card(cards, name, path, f"{where}.husbands")["type"] != "daughter":
            raise _fail(
                path, f"{where}.husbands.{name}", "husbands sit on a daughter's exogamy box"
            )
        if c.husbands[name] > 1:
            raise _fail(path, f"{where}.husbands.{name}", "a daughter has one husband at most (F1)")
    for name in c.hunters:
        _card(cards, name, path, f"{where}.hunters")
    if c.alpha not in ("unassigned", "valhalla") and not _alpha_counted(c):
        raise _fail(
            path,
            f"{where}.alpha",
            f"the Alpha is on {c.alpha}, so count him in hunters or colonists there",
        )
    if c.alpha == "unassigned" and c.unassigned == 0:
        raise _fail(
            path,
            f"{where}.alpha",
            "the Alpha is unassigned, so unassigned counts him: it cannot be 0",
        )
    small = _small_cubes(c)
    if small > SMALL_CUBES:
        raise _fail(
            path,
            where,
            f"places {small} small cubes; a culture has {SMALL_CUBES} and the Alpha (B4)",
        )
    return c


def _small_cubes(c: Culture) -> int:
    """Small cubes a culture places: every count, less the Alpha where he stands among them."""
    total = (c.unassigned or 0) + sum((c.elders or {}).values()) + sum(c.missionaries.values())
    total += sum(c.colonists.values()) + sum(c.husbands.values()) + sum(c.hunters.values())
    return total - (1 if _alpha_counted(c) else 0)


def _alpha_counted(c: Culture) -> bool:
    if c.alpha == "unassigned":
        return bool(c.unassigned)
    if c.alpha == "valhalla":
        return False
    return any(
        name.casefold() == c.alpha.casefold() and n > 0
        for name, n in {**c.hunters, **c.colonists}.items()
    )


def _card(cards: Cards, name: str, path: str, where: str) -> dict[str, Any]:
    rows = cards.by_name(name)
    if not rows:
        raise _fail(path, where, f"there is no card named {quoted(name)} in the deck")
    return rows[0]


def _check_places(position: Position, path: str, cards: Cards) -> None:
    """No physical card in two places."""
    seen: dict[str, str] = {}

    def claim(name: str, where: str) -> None:
        row = cards.by_name(name)[0]
        card = row["card"]
        if card in seen:
            raise _fail(path, where, f"{row['name']} is already in {seen[card]}")
        seen[card] = where

    for row, sides in position.rows.items():
        for side, names in sides.items():
            for name in names:
                claim(name, f"rows.{row}.{side}")
    for colour, c in position.cultures.items():
        for key in ("tableau", "trophies", "hand"):
            for name in getattr(c, key) or []:
                claim(name, f"cultures.{colour}.{key}")


def apply_position(
    ctx: Any, cards: Cards, position: Position, seats: list[str], starting: dict[str, int]
) -> None:
    """Lay the position's table out: cards first, then decks shuffled, then cubes and disks
    (``starting``: the disks a culture the position does not name starts with, C7)."""
    for colour in position.cultures:
        if colour not in seats:
            raise PositionError(
                f"the position gives {colour} a culture, but {colour} is not at the table"
            )
    state = ctx.state
    batch = Batch(ctx, "lay out the position's cards")
    placed_cards: dict[str, str] = {}
    for row, sides in position.rows.items():
        for side in ("cold", "warm"):
            for name in sides.get(side, []):
                card = cards.by_name(name)[0]
                pid = card["card"]
                placed_cards[pid] = f"{row}_{side}"
                batch.move(pid, f"{row}_{side}")
                batch.flip(pid, True)
    for pid, side in position.new_world.items():
        row_id = f"{pid}-{side}"
        if state.pieces[pid].props.get("card") != row_id:
            batch.builders.append(
                lambda s, pid=pid, row_id=row_id: actions.set_property(s, pid, "card", row_id)
            )
    for colour, c in position.cultures.items():
        if c.religion == "monotheist":
            batch.builders.append(
                lambda s, colour=colour: actions.set_property(
                    s, f"elder-{colour}", "card", f"elder-{colour}-monotheist"
                )
            )
        if c.tableau is not None:
            wanted = [cards.by_name(n)[0]["card"] for n in c.tableau]
            for pid in list(state.places[f"tableau_{colour}"].contents):
                if pid not in wanted:
                    batch.move(pid, "out_of_game")
            for name, pid in zip(c.tableau, wanted, strict=True):
                batch.move(pid, f"tableau_{colour}")
                batch.flip(pid, True)
                _named_side(batch, state, cards, name)
        for key, place in (("trophies", f"trophies_{colour}"), ("hand", f"hand_{colour}")):
            for name in getattr(c, key):
                pid = cards.by_name(name)[0]["card"]
                batch.move(pid, place)
                batch.flip(pid, key == "trophies")
                _named_side(batch, state, cards, name)
    batch.submit()
    for deck in ("event_deck", "north_deck", "south_deck"):
        ctx.table.shuffle(deck, "setup", undoable=False)
    keep = variant_in(ctx.module, position.variant or ctx.variant).param("events", 10)
    events = state.places["event_deck"].contents
    if len(events) > keep:
        ctx.submit(
            actions.build_sequence(
                state,
                f"keep {keep} events",
                [
                    lambda s, p=p: actions.move(s, p, "out_of_game")
                    for p in events[: len(events) - keep]
                ],
            )
        )
    _cubes_and_disks(ctx, cards, position, seats, starting)


def _named_side(batch: Batch, state: Any, cards: Cards, name: str) -> None:
    """A double-sided card named by one side (the Goat, the Sheep: C5) lies with that side up,
    whatever side the setup chose (``--norse-animal``): the position wins."""
    row = cards.by_name(name)[0]
    pid, row_id = row["card"], row["id"]
    if row.get("side") and state.pieces[pid].props.get("card") != row_id:
        batch.builders.append(
            lambda s, pid=pid, row_id=row_id: actions.set_property(s, pid, "card", row_id)
        )


def _card_place(ctx: Any, cards: Cards, name: str, where: str) -> str:
    """The piece id of a named card that lies on the table (in a row or a tableau)."""
    pid = cards.by_name(name)[0]["card"]
    place = ctx.state.places[ctx.state.pieces[pid].place]
    if place.id.split("_")[0] in (
        "north",
        "south",
        "tableau",
        "elder",
        "trophies",
    ) and place.kind in ("row", "slots", "stack"):
        return pid
    raise PositionError(f"{where}: {name} is not on the table (put it in a row or a tableau)")


class _Dealer:
    """Hands out one culture's cubes: the Alpha where he stands, small cubes in order."""

    def __init__(self, batch: Any, seat: str, small: list[str], alpha: str) -> None:
        self.batch, self.seat, self.small, self.alpha = batch, seat, small, alpha

    def put(
        self,
        count: int,
        place: str,
        spot: str | None = None,
        alpha_here: bool = False,
        where: str = "",
    ) -> None:
        if alpha_here:
            self.batch.move(self.alpha, place, spot=spot)
            count -= 1
        for _ in range(count):
            if not self.small:
                raise PositionError(
                    f"cultures.{self.seat}{where}: more cubes than a culture has (B4)"
                )
            self.batch.move(self.small.pop(0), place, spot=spot)


def _cubes_and_disks(
    ctx: Any, cards: Cards, position: Position, seats: list[str], starting: dict[str, int]
) -> None:
    state = ctx.state
    batch = Batch(ctx, "put the position's cubes and disks")
    taken = {disk: 0 for disk in ("energy", "ivory", "iron")}
    for seat in seats:
        c = position.cultures.get(seat) or Culture(seat)
        small = [f"cube-{seat}-{n}" for n in range(1, SMALL_CUBES + 1)]
        alpha = f"alpha-{seat}"
        unassigned = (
            c.unassigned
            if c.unassigned is not None
            else (6 if seat not in position.cultures else 0)
        )
        elders = (
            c.elders
            if c.elders is not None
            else ({rank: 1 for rank in range(1, 7)} if seat not in position.cultures else {})
        )

        dealer = _Dealer(batch, seat, small, alpha)
        put = dealer.put

        put(
            unassigned,
            f"hunters_{seat}",
            alpha_here=c.alpha == "unassigned" and unassigned > 0,
            where=".unassigned",
        )
        for rank, count in sorted(elders.items()):
            put(count, f"elder-{seat}", f"rank{rank}")
        for other, count in c.missionaries.items():
            put(
                count, f"elder-{other}", "rank1"
            )  # missionaries and representatives sit on rank 1 (I5)
        for name, count in c.colonists.items():
            pid = cards.by_name(name)[0]["card"]
            if state.pieces[pid].place not in (
                "north_warm",
                "north_cold",
                "south_warm",
                "south_cold",
            ):
                raise PositionError(f"cultures.{seat}.colonists: {name} is not in a row")
            put(count, pid, "hunters", alpha_here=c.alpha.casefold() == name.casefold())
        for name, count in c.husbands.items():
            pid = cards.by_name(name)[0]["card"]
            put(count, pid, "exogamy")
        for name, count in c.hunters.items():
            pid = _card_place(ctx, cards, name, f"cultures.{seat}.hunters")
            put(count, pid, "hunters", alpha_here=c.alpha.casefold() == name.casefold())
        for disk in ("energy", "ivory", "iron"):
            count = getattr(c, disk)
            if count is None:
                count = starting[disk] if seat not in position.cultures else 0
            for _ in range(count):
                taken[disk] += 1
                pid = f"{disk}-{taken[disk]}"
                if pid not in state.pieces:
                    if disk == "energy":
                        raise PositionError(
                            f"cultures.{seat}.energy: the game has 24 orange disks (B)"
                        )
                    batch.add(disk, pid, f"supply_{disk}")  # ivory and iron are unlimited (B4)
                batch.move(pid, f"{disk}_{seat}")
    batch.submit()
