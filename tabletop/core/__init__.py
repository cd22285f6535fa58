"""The Qt-free table: pieces, places, commands, the submit pipeline, undo and chance."""

from . import actions
from .actors import actor_label, bot_actor, is_bot, owners_moved, seat_of
from .commands import (
    AddPiece,
    AddPlace,
    Command,
    Compound,
    Flip,
    Move,
    Names,
    Note,
    Peek,
    RemovePiece,
    RemovePlace,
    Roll,
    Rotate,
    SetCounter,
    SetOwner,
    SetPolicy,
    SetProperty,
    Shuffle,
    Where,
    command_from_dict,
)
from .errors import CommandError, FormatError, Refused, TableError
from .findings import Finding, Mode, Policy, Severity
from .notes import NOTE_TAGS, Annotate, PlaytestNote, note_tag, notes_of
from .pieces import Piece
from .places import KINDS as PLACE_KINDS
from .places import Place
from .randomness import Randomizer
from .record import RATINGS, Record, RecordParts, minutes_text, record_of
from .state import Seat, TableState
from .table import Change, Entry, Table, compound
from .viewcommands import Replace, Unseen, Viewed

__all__ = [
    "NOTE_TAGS",
    "PLACE_KINDS",
    "RATINGS",
    "Record",
    "RecordParts",
    "minutes_text",
    "record_of",
    "AddPiece",
    "Annotate",
    "AddPlace",
    "Change",
    "Command",
    "CommandError",
    "Compound",
    "Entry",
    "Finding",
    "Flip",
    "FormatError",
    "Mode",
    "Move",
    "Names",
    "Note",
    "Peek",
    "Piece",
    "Place",
    "PlaytestNote",
    "Policy",
    "Randomizer",
    "Refused",
    "RemovePiece",
    "RemovePlace",
    "Replace",
    "Roll",
    "Rotate",
    "Seat",
    "SetCounter",
    "SetOwner",
    "SetPolicy",
    "SetProperty",
    "Severity",
    "Shuffle",
    "Table",
    "TableError",
    "TableState",
    "Unseen",
    "Viewed",
    "Where",
    "actions",
    "actor_label",
    "bot_actor",
    "is_bot",
    "owners_moved",
    "seat_of",
    "command_from_dict",
    "compound",
    "note_tag",
    "notes_of",
]
