"""The rules workers' fast Struct writer and kept move encodings
(core/gamehost/host/workers/struct_writer.py) write the bytes the reference
encoder (struct_encoding.py) writes, whatever they kept before: values equal
in Python but not on the wire (1, 1.0, True; -0.0 and 0.0; "1" and 1 as
keys) never share an encoding, and what the reference refuses is refused."""

from __future__ import annotations

import math
import struct

import pytest
from google.protobuf import struct_pb2

from gamehost.host.codec import struct_encoding
from gamehost.host.workers import struct_writer
from gamehost.host.workers.struct_writer import MoveEncodings, StructWriter
from gamehost.host.workers.view_bytes import legal_move_field
from gamehost.sdk.rules import Move, Part
from json_states import Colour, a_board, nested

TAG = b"\x32"


class Text(str):
    pass


STATES = {
    "empty": {},
    "every JSON type": {"none": None, "yes": True, "no": False, "zero": 0, "minus zero": -0.0, "int": -7,
                        "beyond 2**53": 2 ** 53 + 1, "beyond 2**64": 2 ** 64 + 3, "float": 0.1, "huge": 1e300,
                        "tiny": 5e-324, "infinite": math.inf, "text": "Plätze – ♟ 🂡", "empty list": [],
                        "empty object": {}, "tuple": (1, "a")},
    "a board": {**a_board(), "z" * 200: 1},
    "nested": {"deep": nested(8)},
}


def reference(state: dict) -> bytes:
    return struct_encoding.struct_field(TAG, state)


@pytest.mark.parametrize("name", list(STATES))
def test_the_writer_writes_the_reference_bytes_cold_and_kept(name):
    writer = StructWriter()
    state = STATES[name]
    assert writer.struct_field(TAG, state) == reference(state)
    assert writer.struct_field(TAG, state) == reference(state)  # now from what it kept
    assert writer.value(state) == struct_encoding.value_bytes(state)


def test_values_equal_in_python_but_not_on_the_wire_never_share_an_encoding():
    writer = StructWriter()
    alike = [{"a": [1]}, {"a": [1.0]}, {"a": [True]}, {"a": [0.0]}, {"a": [-0.0]}, {"a": {"k": 1}},
             {"a": {"k": True}}, {"a": [2 ** 53]}, {"a": [2 ** 53 + 1]}, {"a": ["1"]}, {"a": (1,)}]
    for _ in range(2):
        for state in alike:
            assert writer.struct_field(TAG, state) == reference(state), state
    parsed = struct_pb2.Struct()
    parsed.MergeFromString(writer.struct_field(TAG, {"a": [True]})[2:])
    assert parsed["a"][0] is True


def test_a_nan_is_written_as_the_reference_writes_it():
    writer = StructWriter()
    state = {"a": [math.nan], "b": math.nan}
    assert writer.struct_field(TAG, state) == writer.struct_field(TAG, state) == reference(state)


@pytest.mark.parametrize("refused, error", [
    ({"a": {1: "x"}}, struct_encoding.NotPlainJson),    # a key that is not a string: kept "1" is not taken for it
    ({1: "x"}, struct_encoding.NotPlainJson),
    ({"a": {Text("1"): "x"}}, struct_encoding.NotPlainJson),
    ({"a": [{1, 2}]}, struct_encoding.NotPlainJson),    # marshal takes a set: JSON does not
    ({"a": [b"1"]}, struct_encoding.NotPlainJson),
    ({"a": [Colour.RED]}, struct_encoding.NotPlainJson),
    ({"a": [10 ** 400]}, struct.error),                  # beyond a double
    ({"a": nested(3000)}, RecursionError),               # beyond marshal's nesting too
])
def test_what_the_reference_refuses_is_refused_even_after_its_look_alike_was_kept(refused, error):
    writer = StructWriter()
    writer.struct_field(TAG, {"a": {"1": "x"}, "1": "x"})
    writer.struct_field(TAG, {"a": [[1, 2]]})
    with pytest.raises(error):
        reference(refused)
    with pytest.raises(error):
        writer.struct_field(TAG, refused)


def test_full_tables_are_emptied_and_still_write_the_reference_bytes(monkeypatch):
    monkeypatch.setattr(struct_writer, "MAX_KEPT", 4)
    writer = StructWriter()
    for round_ in range(3):
        for i in range(10):
            state = {f"key {i}": [i, f"text {i}", {"n": i / 3}], "same": ["x"]}
            assert writer.struct_field(TAG, state) == reference(state), (round_, i)
    assert len(writer._values.kept) <= 4


def test_one_viewers_kept_secret_is_not_in_another_viewers_bytes():
    writer = StructWriter()
    public = {"board": [1, 2, 3], "hand_sizes": [2, 2]}
    writer.struct_field(TAG, {**public, "hand": ["the queen of spades", "a secret"]})
    theirs = writer.struct_field(TAG, {**public, "hand": ["two of clubs"]})
    assert theirs == reference({**public, "hand": ["two of clubs"]})
    assert b"queen" not in theirs and b"secret" not in theirs


def test_kept_moves_are_the_reference_encoding_of_each_moves_content():
    encodings = MoveEncodings(legal_move_field)
    moves = [Move("a", "", {}), Move("b", "B", {"n": 1, "x": [1.5, True, None, "s"], "d": {"k": "v"}},
                                     (Part("p:1", "piece"), Part("c:2", ""))),
             Move("n", "N", {"n": 1}), Move("n", "N", {"n": 1.0}), Move("n", "N", {"n": True}),
             Move("n", "N", {"n": 1}, (Part("p", "P"),)), Move("n", "N", {"n": 1}, (Part("p", "Q"),))]
    for _ in range(2):
        for move in moves:
            assert encodings.field(move) == legal_move_field(move), move
        assert encodings.view_field(moves) == b"".join(legal_move_field(m) for m in moves)
    twin = Move("b", "B", {"n": 1, "x": [1.5, True, None, "s"], "d": {"k": "v"}},
                (Part("p:1", "piece"), Part("c:2", "")))
    assert encodings.field(twin) == legal_move_field(moves[1])


def test_a_move_listed_again_with_its_arguments_changed_is_encoded_again():
    encodings = MoveEncodings(legal_move_field)
    move = Move("m", "M", {"x": [1, 2]})
    first = encodings.field(move)
    move.args["x"].append(3)  # a plugin that reuses its Move objects and changes them in place
    assert encodings.field(move) == legal_move_field(move) != first


def test_a_move_whose_arguments_are_not_a_dict_is_encoded_as_the_reference_does():
    from types import MappingProxyType

    encodings = MoveEncodings(legal_move_field)
    move = Move("m", "M", MappingProxyType({"x": 1}))
    assert encodings.field(move) == encodings.field(move) == legal_move_field(move)


def test_moves_the_game_dropped_are_not_held_and_moves_it_keeps_still_answer_by_object():
    """A game that lists new move objects at each position drops them; the
    table must not keep them alive (a loaded worker held every move it ever
    listed), while moves the game keeps (its own tables) are answered by
    object as before."""
    import gc

    encodings = MoveEncodings(legal_move_field)
    kept = [Move(f"k{index}", "kept", {"i": index}) for index in range(100)]
    for move in kept:
        encodings.field(move)
    for position in range(60):  # 60 positions of 200 new moves each: 12,000 moves, all dropped
        listed = [Move(f"m{index}", "M", {"i": index, "position": position}) for index in range(200)]
        assert encodings.view_field(listed) == b"".join(legal_move_field(move) for move in listed)
    del listed
    gc.collect()
    held = {id(entry[0]) for entry in encodings._objects.values()}
    assert len(held) <= 2 * struct_writer.MIN_SWEEP, "the moves of positions long gone are still held"
    assert all(id(move) in held for move in kept), "a move the game keeps was forgotten"
    assert [encodings.field(move) for move in kept] == [legal_move_field(move) for move in kept]
