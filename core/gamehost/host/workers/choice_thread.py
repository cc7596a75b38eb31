"""A bot with only ``choose`` (a plugin's own) thinking in a thread of its
worker, so the worker answers its other matches' calls meanwhile, as it
does between a search bot's slices. It offers the worker the same two
calls as a search bot's think: ``run(until)`` and ``choice()``.

A choose that never returns is ended as every think is: the host kills the
worker at the think's deadline. The thread only reads the match's state;
the engine holds the match's lock while its bot thinks, so no move
changes it meanwhile. Two matches' choices may run at once, so a bot keeps
no state of its own between calls (plugin-guide.md says so).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Sequence

from gamehost.sdk.rules import Move


class ChoiceInThread:
    def __init__(self, bot: Any, game: Any, state: Any, seat: int, moves: Sequence[Move], rng) -> None:
        self._ended = threading.Event()
        self._choice: Move | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._choose, args=(bot, game, state, seat, moves, rng),
                                        name="bot choose", daemon=True)
        self._thread.start()

    def _choose(self, bot: Any, *arguments: Any) -> None:
        try:
            self._choice = bot.choose(*arguments)
        except BaseException as error:  # MemoryError too: raised again where the worker handles it
            self._error = error
        finally:
            self._ended.set()

    def run(self, until: float) -> bool:
        """Wait for the choice until the monotonic time ``until``; True once made."""
        return self._ended.wait(max(0.0, until - time.monotonic()))

    def choice(self) -> Move | None:
        if self._error is not None:
            raise self._error
        return self._choice
