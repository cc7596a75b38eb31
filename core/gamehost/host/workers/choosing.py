"""A bot's choice in progress, in the table that holds its match."""

from __future__ import annotations

from typing import Any

from gamehost.host.workers.choice_thread import ChoiceInThread
from gamehost.host.workers.messages import Chosen
from gamehost.host.workers.moves_on_wire import move_data
from gamehost.sdk.rules import Move


class Choosing:
    """A bot's choice in progress. A bot with ``think`` (the SDK's search
    bots) searches in slices, ``run(until)`` each, so the worker holding it
    answers other calls in between. Any other bot's ``choose`` runs whole in
    one ``run``, or, where the caller ``slices`` (a worker), in a thread of
    its own that each ``run`` waits on. A bot that raises or offers a move
    that is not legal is replaced by the random bot for this move."""

    def __init__(self, game: Any, state: Any, seat: int, moves: list[Move], rng: Any, bot: Any, fallback: Any, *,
                 slices: bool = False) -> None:
        self.game, self.state, self.seat, self.moves = game, state, seat, moves
        self.rng, self.bot, self.fallback = rng, bot, fallback
        self.think: Any = None
        self.failure: str | None = None
        if hasattr(bot, "think"):
            try:
                self.think = bot.think(game, state, seat, moves, rng)
            except MemoryError:
                raise
            except Exception as error:
                self.failure = f"{type(error).__name__}: {error}"
        elif slices and bot is not fallback:  # the random bot chooses at once: no thread for it
            self.think = ChoiceInThread(bot, game, state, seat, moves, rng)

    @property
    def sliced(self) -> bool:
        return self.think is not None

    def run(self, until: float) -> Chosen | None:
        """Go on until the monotonic time ``until``; the answer once chosen, else None."""
        choice: Any = None
        if self.failure is None:
            try:
                if self.think is None:
                    choice = self.bot.choose(self.game, self.state, self.seat, self.moves, self.rng)
                elif not self.think.run(until):
                    return None
                else:
                    choice = self.think.choice()
                if choice not in self.moves:
                    raise ValueError(f"it chose {getattr(choice, 'id', choice)!r}, which is not a legal move")
            except MemoryError:
                raise
            except Exception as error:
                self.failure = f"{type(error).__name__}: {error}"
        if self.failure is not None:
            choice = self.fallback.choose(self.game, self.state, self.seat, self.moves, self.rng)
        answer: Chosen = {"move": move_data(choice), "bot_failed": self.failure}
        if self.think is not None:
            answer["iterations"] = getattr(self.think, "iterations", None)
        return answer
