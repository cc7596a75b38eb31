"""Etags of ListMatches pages, so that a lobby can poll its lists cheaply.

An etag names what a page shows: the listing's filters and position, and
for each match its id and version (every change of a match adds an event,
so a new version) and when it became the listed user's turn. Equal etags:
the page the caller holds is still right, and the host skips building it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Sequence

from gamehost.host.store.base import MatchRecord

MAX_ETAG_CHARS = 64  # an etag this host issues is 27 characters; longer is no etag of ours


def page_etag(query: dict, page_token: str, records: Sequence[MatchRecord], more: bool,
              turns: dict[str, float]) -> str:
    shown = [query, page_token, more, [[r.id, r.version, turns.get(r.id)] for r in records]]
    digest = hashlib.sha256(json.dumps(shown, separators=(",", ":")).encode()).digest()
    return "W/" + base64.urlsafe_b64encode(digest[:18]).decode()
