"""Where a match's rules state lives: which worker holds it (or the host's
own table), at which version, and how often a call may load it again."""

from __future__ import annotations

from dataclasses import dataclass

from gamehost.host.workers.pool import Worker

# Loads in a row a call may need because the worker holding its match went
# away for reasons not its own; beyond that the match itself is the likely
# cause (a plugin that has its own worker killed), and it is a failure.
RELOADS = 4


@dataclass
class Residence:
    worker: Worker | None  # None: the host's own table
    generation: int
    tag: int
    version: int  # the match version the held state is at: catching up skips steps it already has
    # The seats to move of the held state (the one ``tag`` names), when an answer told them: a step that
    # leaves the rules' state alone (a join, a seat change) needs no round trip to learn them again.
    to_move: tuple[int, ...] | None = None
