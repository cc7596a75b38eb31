"""Quitting `gamehost play` without leaving a match silently active.

On q, Ctrl-C or the end of input the player is asked what becomes of their
seat: leave it, resign, or keep it and quit. Whatever the answer, the last
lines say where things stand: the command that takes the seat back (match
name and player token), or that the match was left or resigned. When input
has ended nobody can answer: the seat is kept and the command printed, so a
script or a closed pipe never gives a seat away.
"""

from __future__ import annotations

import shlex

from gamehost.cli.endings import describe_end, worded
from gamehost.cli.words import _, tr
from gamehost.v1 import gamehost_pb2 as pb

DEFAULT_TARGET = "127.0.0.1:50051"
LEAVE, RESIGN, KEEP = "l", "r", "k"


def resume_command(args, match_name: str, token: str) -> str:
    """The exact command that comes back to this seat, with the connection flags it was started with."""
    words = ["gamehost", "play", "--match", match_name, f"--token={token}"]
    if getattr(args, "host", DEFAULT_TARGET) not in ("", DEFAULT_TARGET):
        words += ["--host", args.host]
    if getattr(args, "tls_ca", ""):
        words += ["--tls-ca", args.tls_ca]
    elif getattr(args, "tls", False):
        words.append("--tls")
    return shlex.join(words)


def print_resume(args, match_name: str, token: str) -> None:
    print(tr("your seat is kept; come back to it with: {command}",
             command=resume_command(args, match_name, token)), flush=True)


def _answer(prompt: str) -> str:
    """What the player types, "" when input has ended or they press Ctrl-C again."""
    try:
        return input(prompt).strip().lower()
    except (EOFError, KeyboardInterrupt):
        print()
        return ""


def ask_on_quit(host, args, match_name: str, token: str, *, input_ended: bool) -> int:
    """Ask what becomes of the seat (unless input has ended), do it, and say how things stand."""
    if input_ended:
        print()
        print_resume(args, match_name, token)
        return 0
    match = host.match(match_name)
    if match.status != pb.MATCH_STATUS_ACTIVE:
        print(describe_end(match))
        return 0
    if match.rated:
        print(_("this match is rated: leaving it counts as resigning, and the result moves your rating"))
    elif match.HasField("absent_grace"):
        print(tr("if you leave, a bot plays your seat after {seconds} s", seconds=match.absent_grace.seconds))
    else:
        print(_("if you leave, the match ends without a result for everyone"))
    while True:
        answer = _answer(_("quit: l to leave the seat, r to resign, k to keep your seat and quit: "))
        if answer in ("", KEEP):
            print_resume(args, match_name, token)
            return 0
        if answer == RESIGN:
            print(tr("resigned: {match}", match=describe_end(worded(host, host.resign(match_name, token)))))
            return 0
        if answer == LEAVE:
            left = worded(host, host.leave(match_name, token))
            print(tr("you left the match: {match}", match=describe_end(left)))
            return 0
        print(tr("'{text}' is not one of the choices above.", text=answer))
