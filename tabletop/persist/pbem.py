"""Play by email: keys, sealed and signed files, and the chain that ties them (docs/pbem.md).

A seat's key pair is two Curve25519/Ed25519 keys (PyNaCl): a box key, to which the host seals
what only that seat may see, and a signing key, with which the seat signs the requests it
sends. The host (the referee, who keeps the full log) has a pair of its own.

Every file that travels is one JSON object::

    {"format": "tabletop-pbem/1", "kind": "turn" | "request", "game": GAME,
     "from": SENDER, "to": RECEIVER, "first": N, "last": M,
     "sealed": BASE64, "signature": HEX}

``sealed`` is a sealed box (``nacl.public.SealedBox``) to the receiver's box key: only the
receiver's private key opens it. ``signature`` is the sender's Ed25519 signature of every
other field, written as canonical JSON. The entry numbers ``first`` and ``last`` are public
(anyone at the table sees how many entries a game has); the entries themselves and the
digests of the receiver's view are sealed, since a digest of a table holding a hidden card
could be matched against guesses.
"""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import atomic_writer

if TYPE_CHECKING:
    from nacl.public import PrivateKey
    from nacl.signing import SigningKey

# PyNaCl is imported by the functions that make, use or check keys, not here: this module is
# loaded with the command line's parsers for every run of ``tabletop`` (the window's start
# too, tests/ui/test_bench_table.py), and PyNaCl loads libsodium through cffi.

FORMAT = "tabletop-pbem/1"
KEY_FORMAT = "tabletop-pbem-key/1"
HOST = "host"  # the sender and receiver name of the referee that keeps the full log
KINDS = ("turn", "request")
FIELDS = ("format", "kind", "game", "from", "to", "first", "last", "sealed")


class PbemError(Exception):
    """A key or a file of a play-by-email game that cannot be used, in one plain line."""


@dataclass(frozen=True)
class Keys:
    """A seat's (or the host's) public keys: the box key sealed boxes go to, and the key
    its signatures are checked with."""

    who: str
    box: bytes
    sign: bytes

    def text(self) -> str:
        """The public key file: a small JSON text to give to the other players."""
        return (
            json.dumps(
                {
                    "format": KEY_FORMAT,
                    "who": self.who,
                    "box": self.box.hex(),
                    "sign": self.sign.hex(),
                },
                indent=1,
            )
            + "\n"
        )


@dataclass(frozen=True)
class PrivateKeys:
    """A seat's private keys: never leave its machine (written with mode 0600)."""

    who: str
    box: PrivateKey
    sign: SigningKey

    @classmethod
    def generate(cls, who: str) -> PrivateKeys:
        from nacl.public import PrivateKey
        from nacl.signing import SigningKey

        return cls(who, PrivateKey.generate(), SigningKey.generate())

    @property
    def public(self) -> Keys:
        return Keys(self.who, bytes(self.box.public_key), bytes(self.sign.verify_key))

    def text(self) -> str:
        return (
            json.dumps(
                {
                    "format": KEY_FORMAT,
                    "who": self.who,
                    "private": True,
                    "box": bytes(self.box).hex(),
                    "sign": bytes(self.sign).hex(),
                },
                indent=1,
            )
            + "\n"
        )


def write_private(path: str | os.PathLike[str], keys: PrivateKeys) -> None:
    """Write private keys whole or not at all, readable by their owner only (0600)."""
    with atomic_writer(path) as handle:  # the temporary file is made with mode 0600
        os.chmod(handle.name, 0o600)
        handle.write(keys.text())
    os.chmod(path, 0o600)


def write_public(path: str | os.PathLike[str], keys: Keys) -> None:
    with atomic_writer(path) as handle:
        handle.write(keys.text())
    os.chmod(path, 0o644)


def _key_record(path: str | os.PathLike[str], private: bool) -> dict[str, Any]:
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PbemError(f"{path}: cannot read the key file ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise PbemError(f"{path}: not a key file of tabletop pbem") from None
    if not isinstance(record, dict) or record.get("format") != KEY_FORMAT:
        raise PbemError(f"{path}: not a key file of tabletop pbem")
    if bool(record.get("private")) != private:
        which = "a private key file" if private else "a public key file"
        raise PbemError(f"{path}: this is not {which}")
    return record


def _hex_key(path: str | os.PathLike[str], record: dict[str, Any], name: str) -> bytes:
    try:
        value = bytes.fromhex(str(record[name]))
    except (KeyError, ValueError):
        value = b""
    if len(value) != 32:
        raise PbemError(f"{path}: its {name} key is not 32 bytes of hex")
    return value


def read_public(path: str | os.PathLike[str]) -> Keys:
    record = _key_record(path, private=False)
    who = record.get("who")
    if not isinstance(who, str) or not who:
        raise PbemError(f"{path}: the key file names no seat")
    return Keys(who, _hex_key(path, record, "box"), _hex_key(path, record, "sign"))


def read_private(path: str | os.PathLike[str]) -> PrivateKeys:
    from nacl.public import PrivateKey
    from nacl.signing import SigningKey

    record = _key_record(path, private=True)
    who = record.get("who")
    if not isinstance(who, str) or not who:
        raise PbemError(f"{path}: the key file names no seat")
    return PrivateKeys(
        who, PrivateKey(_hex_key(path, record, "box")), SigningKey(_hex_key(path, record, "sign"))
    )


def keys_from_dict(record: dict[str, Any]) -> Keys:
    return Keys(record["who"], bytes.fromhex(record["box"]), bytes.fromhex(record["sign"]))


def keys_to_dict(keys: Keys) -> dict[str, str]:
    return {"who": keys.who, "box": keys.box.hex(), "sign": keys.sign.hex()}


# ---- the files that travel --------------------------------------------------------------
def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(
        {k: record[k] for k in FIELDS}, sort_keys=True, separators=(",", ":")
    ).encode()


def seal(
    kind: str,
    game: str,
    sender: PrivateKeys,
    receiver: Keys,
    first: int,
    last: int,
    payload: dict[str, Any],
) -> str:
    """A file's text: ``payload`` sealed to the receiver, the whole signed by the sender."""
    from nacl.public import PublicKey, SealedBox

    plain = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
    record: dict[str, Any] = {
        "format": FORMAT,
        "kind": kind,
        "game": game,
        "from": sender.who,
        "to": receiver.who,
        "first": first,
        "last": last,
        "sealed": base64.b64encode(SealedBox(PublicKey(receiver.box)).encrypt(plain)).decode(),
    }
    record["signature"] = sender.sign.sign(_canonical(record)).signature.hex()
    return json.dumps(record, indent=1) + "\n"


@dataclass(frozen=True)
class Envelope:
    """A file read and its signature checked, not yet opened."""

    path: str
    kind: str
    game: str
    sender: str
    receiver: str
    first: int
    last: int
    sealed: bytes

    def open(self, keys: PrivateKeys) -> dict[str, Any]:
        """The sealed payload, opened with the receiver's private key."""
        from nacl.exceptions import CryptoError
        from nacl.public import SealedBox

        try:
            plain = SealedBox(keys.box).decrypt(self.sealed)
            payload = json.loads(plain)
        except (CryptoError, ValueError, RecursionError):
            raise PbemError(
                f"{self.path}: its sealed part does not open with this seat's key"
            ) from None
        if not isinstance(payload, dict):
            raise PbemError(f"{self.path}: its sealed part is not a record")
        return payload


def read_envelope(path: str | os.PathLike[str]) -> tuple[Envelope, bytes, dict[str, Any]]:
    """A file's fields (still sealed), its signature and the record it signs; PbemError
    in one line if it is not a play-by-email file."""
    try:
        record = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise PbemError(f"{path}: cannot read the file ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise PbemError(f"{path}: not a play-by-email file (damaged or not JSON)") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise PbemError(f"{path}: not a play-by-email file of this version ({FORMAT})")
    try:
        kind, game, sender, receiver = (str(record[k]) for k in ("kind", "game", "from", "to"))
        first, last = int(record["first"]), int(record["last"])
        sealed = base64.b64decode(record["sealed"], validate=True)
        signature = bytes.fromhex(record["signature"])
    except (KeyError, TypeError, ValueError):
        raise PbemError(f"{path}: a play-by-email file with a damaged field") from None
    if kind not in KINDS:
        raise PbemError(f"{path}: a {kind!r} file is neither a turn nor a request")
    env = Envelope(str(path), kind, game, sender, receiver, first, last, sealed)
    return env, signature, record


def check_signature(env: Envelope, signature: bytes, record: dict[str, Any], keys: Keys) -> None:
    from nacl.exceptions import BadSignatureError
    from nacl.signing import VerifyKey

    try:
        VerifyKey(keys.sign).verify(_canonical(record), signature)
    except (BadSignatureError, ValueError):
        raise PbemError(
            f"{env.path}: the signature is not {env.sender}'s: the file was changed or signed"
            " with another key (nothing was changed)"
        ) from None


__all__ = [
    "FORMAT",
    "HOST",
    "Envelope",
    "Keys",
    "PbemError",
    "PrivateKeys",
    "check_signature",
    "keys_from_dict",
    "keys_to_dict",
    "read_envelope",
    "read_private",
    "read_public",
    "seal",
    "write_private",
    "write_public",
]
