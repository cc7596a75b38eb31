"""The whole turn as protobuf: a ``TurnSummary`` (engine/turns.py) and the
reveals of a step, their words in the viewer's language."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from google.protobuf import struct_pb2

from gamehost.host.engine.turns import Turn
from gamehost.host.rpc.locales import Locale
from gamehost.v1 import gamehost_pb2 as pb

STEP_SEPARATOR = " · "


def _say(english: str, message: Mapping[str, Any] | None, locale: Locale | None) -> str:
    return english if locale is None else locale.say(english, message)


def reveal_pb(reveal: Mapping[str, Any], locale: Locale | None) -> pb.Reveal:
    seen_by = reveal.get("seen_by")
    message = pb.Reveal(label=_say(reveal["label"], reveal.get("label_text"), locale),
                        seen_by=-1 if seen_by is None else seen_by)
    holder = struct_pb2.Struct()  # a Value of any JSON value (a number, a word, a list, an object, null)
    holder.update({"value": reveal.get("value")})
    message.value.CopyFrom(holder.fields["value"])
    return message


def reveals_pb(revealed: Sequence[Mapping[str, Any]], locale: Locale | None) -> list[pb.Reveal]:
    return [reveal_pb(reveal, locale) for reveal in revealed]


def turn_pb(turn: Turn, locale: Locale | None) -> pb.TurnSummary:
    """The turn as its viewer sees it (hidden moves already redacted, reveals already chosen)."""
    message = pb.TurnSummary(seat=turn.seat, complete=turn.complete)
    lines = []
    for event in turn.steps:
        label = _say(event.get("label", ""), event.get("label_text"), locale)
        revealed = reveals_pb(event.get("revealed", ()), locale)
        message.steps.append(pb.TurnStep(version=event["version"], label=label, revealed=revealed,
                                         timed_out=bool(event.get("timed_out"))))
        lines.append(label + (": " + "; ".join(reveal.label for reveal in revealed) if revealed else ""))
    message.text = STEP_SEPARATOR.join(lines)
    return message
