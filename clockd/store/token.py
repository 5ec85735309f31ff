"""The referee's API token: the journal keeps only a salted hash of it.

The token lets a client change state (pause a clock, import sign-ups). It used to be stored
in clear in the journal's ``meta`` table, beside the data, so anyone who could read the
journal could act as the referee. Now:

* the journal holds ``api_token_hash`` = ``sha256$<salt>$<SHA-256(salt ‖ token)>`` (hex). A
  plain salted SHA-256 is enough: the token is 144 random bits, not a password a person
  chose, so no guess can be checked against the hash faster than by brute force of 2¹⁴⁴;
* the token itself lives only in the daemon's memory and in ``daemon.json`` in the state
  folder (``0600`` in a ``0700`` folder), where ``duelclock status``/``table``, the GUI and
  the next start of the daemon read it;
* at start (:func:`referee_token`) the daemon takes the token back from ``daemon.json`` if
  that file's token matches the journal's hash; otherwise (no ``daemon.json``, or one written
  for another journal) it makes a new token, stores its hash and prints the token: the old
  one stops working;
* a journal from before this rule still has its token in clear (``api_token``): that token
  was readable by every user of the machine, so it is erased (overwritten, and the write-ahead
  log truncated so no old copy stays) and replaced by a new one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clockd.store.journal import Journal

TOKEN_HASH_KEY = "api_token_hash"
#: Where duelclock kept the token in clear before; erased at start.
CLEAR_TOKEN_KEY = "api_token"


def hash_token(token: str, salt: bytes | None = None) -> str:
    """The stored form of ``token``: ``sha256$<salt hex>$<digest hex>``."""
    salt = secrets.token_bytes(16) if salt is None else salt
    return f"sha256${salt.hex()}${hashlib.sha256(salt + token.encode()).hexdigest()}"


def token_matches(stored: str, token: str) -> bool:
    """Whether ``token`` is the one ``stored`` (a :func:`hash_token` value) was made from."""
    scheme, _, rest = stored.partition("$")
    salt_hex, _, digest = rest.partition("$")
    if scheme != "sha256":
        return False
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    return hmac.compare_digest(hash_token(token, salt), stored) and bool(digest)


def referee_token(journal: Journal, remembered: str | None, make: Callable[[], str]) -> str:
    """The token for the daemon on ``journal``: ``remembered`` (from ``daemon.json``) if the
    journal's hash says it is this journal's, else a new one from ``make()`` (hash stored)."""
    erased = journal.erase_meta(CLEAR_TOKEN_KEY)
    stored = journal.meta(TOKEN_HASH_KEY)
    if not erased and stored is not None and remembered and token_matches(stored, remembered):
        return remembered
    token = make()
    journal.set_meta(TOKEN_HASH_KEY, hash_token(token))
    return token
