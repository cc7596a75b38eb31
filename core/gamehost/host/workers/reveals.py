"""What a step made known (``Game.revealed``), as plain data for the log.

Each reveal becomes ``{"label": english, "label_text": message or None,
"value": json value, "seen_by": seat or None}``: the engine keeps the list in
the step's MOVED event, so views, events, the log and replays read it back
from there, never from the rules again.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from gamehost.host.workers.plugin_calls import PluginFailed, call_plugin
from gamehost.sdk.i18n import message_of
from gamehost.sdk.rules import Game, Reveal


def reveals_anything(game: Any) -> bool:
    """Whether the game says what its steps reveal (the SDK's default reveals nothing)."""
    return isinstance(game, Game) and type(game).revealed is not Game.revealed


def step_revealed(game: Any, before: Any, seat: int, move: Mapping[str, Any], after: Any) -> list[dict[str, Any]]:
    """``game.revealed`` of one step as log data; a plugin's malformed answer fails like any plugin error."""
    if not reveals_anything(game):
        return []
    answer = call_plugin("revealed", game.revealed, before, seat, move, after)
    data = []
    for reveal in answer or ():
        if not isinstance(reveal, Reveal):
            raise PluginFailed("revealed", TypeError(f"revealed() must give Reveal objects, not {type(reveal).__name__}"))
        seen_by = reveal.seen_by
        if seen_by is not None and (not isinstance(seen_by, int) or isinstance(seen_by, bool)):
            raise PluginFailed("revealed", TypeError(f"Reveal.seen_by must be a seat or None, not {seen_by!r}"))
        try:
            value = json.loads(json.dumps(reveal.value))
        except (TypeError, ValueError) as error:
            raise PluginFailed("revealed", error) from None
        data.append({"label": str(reveal.label), "label_text": message_of(reveal.label), "value": value,
                     "seen_by": seen_by})
    return data
