"""A View's state encoded in one pass (struct_encoding.py) is the Struct
protobuf's ``Struct.update`` makes, what that pass does not take goes
through ``Struct.update`` still, and viewers share an encoding only when
they see the same state."""

from __future__ import annotations


import pytest
import structlog
from google.protobuf.message import DecodeError

from gamehost.client.structs import to_struct
from gamehost.host.engine.live import LiveMatch
from gamehost.host.plugins import load_catalog
from gamehost.host.rpc.messages import _state_text, view_state
from gamehost.host.store.base import MatchRecord
from gamehost.v1 import gamehost_pb2 as pb
from json_states import Colour, a_board, nested


STATES = {
    "empty": {},
    "every JSON type": {"none": None, "yes": True, "no": False, "zero": 0, "minus zero": -0.0, "int": -7,
                        "beyond 2**53": 2 ** 53 + 1, "float": 0.1, "huge": 1e300, "text": "Plätze – ♟ 🂡",
                        "empty list": [], "empty object": {}, "tuple": (1, "a")},
    "a board": a_board(),
    "nested": {"deep": nested(8)},
    "an IntEnum": {"colour": Colour.RED, "list": [Colour.RED]},
}


@pytest.mark.parametrize("name", list(STATES))
def test_a_views_state_is_the_struct_protobuf_makes(name):
    state = STATES[name]
    message = pb.View(match="matches/x", version=3)
    view_state(message, state)
    expected = pb.View(match="matches/x", version=3, state=to_struct(dict(state)))
    assert message == expected
    assert message.HasField("state")
    assert pb.View.FromString(message.SerializeToString()) == expected


def test_a_state_nested_deeper_than_protobuf_parses_fails_as_it_did():
    state = {"deep": nested(120)}
    with pytest.raises(DecodeError):
        pb.View(state=to_struct(state))
    with pytest.raises(DecodeError):
        view_state(pb.View(), state)


def test_a_value_protobuf_refuses_is_refused_the_same_way():
    with pytest.raises(ValueError):
        to_struct({"set": {1, 2}})
    with pytest.raises(ValueError):
        view_state(pb.View(), {"set": {1, 2}})


def test_viewers_share_the_encoding_of_a_state_only_when_its_json_text_is_the_same():
    entry = load_catalog().games["tictactoe"]
    live = LiveMatch(MatchRecord(id="m1", game_id="tictactoe", rules_version=entry.game.version, options={}, seed=1,
                                 seats=[]), entry, None, 0, structlog.get_logger())
    public = {"board": [None, 1, 0.5], "turn": 1}
    seen_by = {"spectator": public, "seat 0": dict(public), "seat 1": {**public, "hand": ["a secret card"]},
               "seat 2": {"board": [None, True, 0.5], "turn": 1}}  # == public in Python, not as JSON nor as a Struct
    for viewer, state in seen_by.items():
        message = pb.View(seat=1)
        view_state(message, state, live)
        assert message == pb.View(seat=1, state=to_struct(state)), viewer
        assert live.cache.kept_view_state_field(_state_text(state)) is not None
    assert "a secret card" not in str(live.cache.kept_view_state_field(_state_text(public)))
