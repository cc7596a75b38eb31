"""The protobuf keys the host writes by hand (codec/length_delimited.py's
``field_tag``, read from the messages' descriptors) are the keys protobuf
itself writes for those fields."""

from __future__ import annotations

import struct

import pytest
from google.protobuf import descriptor_pb2, struct_pb2

from gamehost.host.codec import legal_move_encodings, struct_encoding
from gamehost.host.codec.length_delimited import field, field_tag
from gamehost.host.rpc import event_frames, messages
from gamehost.v1 import gamehost_pb2 as pb

MOVE = pb.LegalMove(id="e2e4", label="e4")
EVENT = pb.MatchEvent(version=3, label="moved")
VIEW = pb.View(match="matches/m", version=2)

# (the key the host writes, a message with that field set alone, the field's payload)
LENGTH_DELIMITED = {
    "View.state": (messages.VIEW_STATE_TAG, pb.View(state=struct_pb2.Struct(fields={"a": struct_pb2.Value(
        string_value="b")})), struct_pb2.Struct(fields={"a": struct_pb2.Value(string_value="b")})
                   .SerializeToString()),
    "View.legal_moves": (legal_move_encodings._VIEW_LEGAL_MOVES, pb.View(legal_moves=[MOVE]),
                         MOVE.SerializeToString()),
    "SessionEvent.match": (event_frames._SESSION_MATCH, pb.SessionEvent(match="matches/m"), b"matches/m"),
    "SessionEvent.match_event": (event_frames._SESSION_MATCH_EVENT, pb.SessionEvent(match_event=EVENT),
                                 EVENT.SerializeToString()),
    "MatchEvent.view": (event_frames._EVENT_VIEW, pb.MatchEvent(view=VIEW), VIEW.SerializeToString()),
    "Value.string_value": (struct_encoding._STRING, struct_pb2.Value(string_value="text"), b"text"),
    "Value.struct_value": (struct_encoding._STRUCT, struct_pb2.Value(struct_value=struct_pb2.Struct()), b""),
    "Value.list_value": (struct_encoding._LIST, struct_pb2.Value(list_value=struct_pb2.ListValue()), b""),
    "ListValue.values": (struct_encoding._ITEM, struct_pb2.ListValue(values=[struct_pb2.Value(bool_value=True)]),
                         struct_pb2.Value(bool_value=True).SerializeToString()),
}


@pytest.mark.parametrize("name", sorted(LENGTH_DELIMITED))
def test_a_length_delimited_field_is_written_with_the_key_protobuf_writes(name):
    tag, message, payload = LENGTH_DELIMITED[name]
    assert field(tag, payload) == message.SerializeToString()


def test_a_struct_entry_is_written_with_the_keys_protobuf_writes():
    value = struct_pb2.Value(number_value=2.0)
    entry = struct_encoding._ENTRY_KEY + b"\x01k" + field(struct_encoding._ENTRY_VALUE, value.SerializeToString())
    assert field(struct_encoding._ENTRY, entry) == struct_pb2.Struct(fields={"k": value}).SerializeToString()


def test_the_fixed_values_are_those_protobuf_writes():
    assert struct_encoding._NULL == struct_pb2.Value(null_value=struct_pb2.NULL_VALUE).SerializeToString()
    assert struct_encoding._TRUE == struct_pb2.Value(bool_value=True).SerializeToString()
    assert struct_encoding._FALSE == struct_pb2.Value(bool_value=False).SerializeToString()
    assert struct_encoding._NUMBER + struct.pack("<d", 0.5) == \
        struct_pb2.Value(number_value=0.5).SerializeToString()


def test_a_key_is_a_varint_of_the_number_and_the_wire_type():
    # field 17 of FileOptions, a bool: its key takes two bytes
    options = descriptor_pb2.FileOptions(java_generic_services=True)
    key = field_tag(descriptor_pb2.FileOptions.DESCRIPTOR.fields_by_name["java_generic_services"])
    assert len(key) == 2 and key + b"\x01" == options.SerializeToString()


def test_a_packed_field_is_refused():
    with pytest.raises(ValueError, match="packed"):
        field_tag(pb.Match.DESCRIPTOR.fields_by_name["to_move"])
