"""The CLI's private matches: who may see, join and watch a match it
creates, the invitation's code and link, revoking the invitation."""

from __future__ import annotations

import os
from urllib.parse import quote

from gamehost.cli.channels import connect
from gamehost.cli.words import tr
from gamehost.v1 import gamehost_pb2 as pb

DEFAULT_WEB_PORT = 8080
"""The host's default --web-port: the web page's address when none is given."""


def reservations(pairs: list[str]) -> dict[int, str]:
    """``--reserve SEAT=SUBJECT`` pairs as seat -> subject; seats counted from 0 as in the API."""
    held: dict[int, str] = {}
    for pair in pairs:
        seat, sep, subject = pair.partition("=")
        if not sep or not seat.strip().isdigit() or not subject.strip():
            raise SystemExit(f"error: --reserve takes SEAT=SUBJECT (a seat number from 0 and a user's subject), "
                             f"got {pair!r}")
        if int(seat) in held:
            raise SystemExit(f"error: seat {seat} is reserved twice")
        held[int(seat)] = subject.strip()
    return held


def web_base(args) -> str:
    """The web page's address: --web-url (env GAMEHOST_WEB_URL), else the gRPC host's name on the
    default web port."""
    given = getattr(args, "web_url", "") or os.environ.get("GAMEHOST_WEB_URL", "")
    if given:
        return given.rstrip("/")
    host = args.host.rsplit(":", 1)[0] if ":" in args.host else args.host
    scheme = "https" if getattr(args, "tls", False) or getattr(args, "tls_ca", "") else "http"
    return f"{scheme}://{host}:{DEFAULT_WEB_PORT}"


def invitation_link(base: str, match_name: str, code: str) -> str:
    """The web page's link that joins (or watches) a match by its invitation. The code rides in the
    fragment, which browsers never send to a server, so no access log or Referer holds it."""
    match_id = match_name.removeprefix("matches/")
    return f"{base}/#/matches/{quote(match_id)}?invite={quote(code)}"


def print_invitation(args, match: pb.Match) -> None:
    if not match.invitation_code:
        return
    print(tr("invitation code (shown once): {code}", code=match.invitation_code))
    print(tr("join with `{command}` or open {link}",
             command=f"gamehost join {match.name} --invite {match.invitation_code}",
             link=invitation_link(web_base(args), match.name, match.invitation_code)))


def revoke(args) -> int:
    with connect(args) as host:
        match = host.revoke_invitation(args.match)
    print(tr("{match}: the invitation admits nobody from now on (seated players keep their seats)", match=match.name))
    return 0
