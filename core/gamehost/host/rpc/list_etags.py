"""Etags of ListMatches pages, so that a lobby can poll its lists cheaply.

An etag names what a page shows: the listing's filters and position, and
for each match its id and version (every change of a match adds an event,
so a new version) and when it became the listed user's turn. Equal etags:
the page the caller holds is still right. The host computes a poll's etag
from the page's keys alone (id, version), without decoding any match row,
and builds the page only when it changed.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Sequence

MAX_ETAG_CHARS = 64  # an etag this host issues is 27 characters; longer is no etag of ours


def page_etag(query: dict, page_token: str, keys: Sequence[tuple[str, int]], more: bool,
              turns: dict[str, float]) -> str:
    """``keys``: each listed match's (id, version); ``turns``: since when it
    is the listed user's turn, by match id."""
    shown = [query, page_token, more, [[match_id, version, turns.get(match_id)] for match_id, version in keys]]
    digest = hashlib.sha256(json.dumps(shown, separators=(",", ":")).encode()).digest()
    return "W/" + base64.urlsafe_b64encode(digest[:18]).decode()
