"""The View's JSON that views as changes are made over, read from its bytes a
part at a time (host/rpc/view_json.py), is exactly protobuf's ``MessageToDict``
of the whole message, for every kind of value a state or a legal move holds
and for bytes the reader leaves to protobuf; and the host's patches, applied
with jsonpatch, give the next view, keys that need escaping included. The
full matches over real sockets are in test_view_patches.py."""

from __future__ import annotations

import jsonpatch
from google.protobuf import json_format, struct_pb2

from gamehost.host.rpc.view_json import ViewJson
from gamehost.host.rpc.view_patches import json_patch
from gamehost.v1 import gamehost_pb2 as pb


def _struct(data: dict) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(data)
    return message


STATE = {"board": [[0, 1, None], [True, False, 2.5]], "empty": {}, "none": [], "name": "Élodie ✓",
         "a/b~c": {"deep": {"deeper": [{"x": -0.0}, "long " * 40]}}, "big": 1e300, "neg": -3}


def _view(state: dict, moves: int = 3, **extra) -> pb.View:
    view = pb.View(match="matches/m1", version=7, status=pb.MATCH_STATUS_ACTIVE, seat=1, to_move=[1, 0],
                   state=_struct(state), text="a board", **extra)
    for index in range(moves):
        move = view.legal_moves.add(id=f"m{index}", label="" if index == 1 else f"move {index}")
        if index:
            move.move.CopyFrom(_struct({"to": [index, index + 1], "piece": "king"} if index == 2 else {}))
        if index == 2:
            move.parts.add(id="from", label="")
            move.parts.add(id="to", label="b2")
    view.last_turn.seat = 0
    return view


def test_the_view_json_read_by_parts_is_protobufs_for_every_kind_of_value():
    reader = ViewJson()
    views = [_view(STATE), _view({**STATE, "board": [[0, 1, None]], "name": ""}, moves=0),
             _view({}, moves=1), pb.View(), pb.View(state=_struct({})),
             _view(STATE, result=pb.Result(winners=[1]))]
    for view in views:
        encoded = view.SerializeToString()
        assert reader.of(encoded) == json_format.MessageToDict(view)
        assert reader.of(encoded) == json_format.MessageToDict(view), "read again from what it kept"
    # As the host writes a worker's view: the header's fields, then the state and legal moves after them.
    head = pb.View(match="matches/m1", version=8).SerializeToString()
    fields = pb.View(state=_struct(STATE), legal_moves=[pb.LegalMove(id="x")]).SerializeToString()
    assert reader.of(head + fields) == json_format.MessageToDict(pb.View.FromString(head + fields))


def test_bytes_the_reader_leaves_to_protobuf_give_protobufs_json():
    reader = ViewJson()
    twice = (pb.View(state=_struct({"a": 1})).SerializeToString()
             + pb.View(state=_struct({"b": [2]})).SerializeToString())  # protobuf merges the two states
    assert reader.of(twice) == json_format.MessageToDict(pb.View.FromString(twice)) == {"state": {"a": 1.0, "b": [2.0]}}
    two_versions = pb.View(version=1).SerializeToString() + pb.View(version=2).SerializeToString()
    assert reader.of(two_versions) == {"version": "2"}


def test_a_patch_applied_gives_the_next_view_and_escapes_keys():
    reader = ViewJson()
    before = reader.of(_view(STATE).SerializeToString())
    changed = {**STATE, "board": [[0, 1, None, 3]], "a/b~c": {"deep": 1}, "big": True, "new~/key": [1, 2]}
    after = reader.of(_view(changed, moves=1).SerializeToString())
    operations = json_patch(before, after)
    assert jsonpatch.apply_patch(before, operations) == after
    assert {"op": "add", "path": "/state/new~0~1key", "value": [1, 2]} in operations
    assert {"op": "replace", "path": "/state/big", "value": True} in operations, "a number become a bool is replaced"
    assert not [op for op in operations if op["path"].startswith("/state/name")], "an unchanged value is left out"
    assert json_patch(after, after) == []
