"""Frames between the host and its rules workers (workers/wire.py): the JSON
document and, beside it, the View fields a worker encodes, as they are (no
base64); what is not JSON's is still refused, and a frame that breaks the
format is an error, not a guess."""

from __future__ import annotations

import pytest

from gamehost.host.workers import wire
from gamehost.host.workers.view_bytes import ViewEncoder, decode_shared


def crossed(message: dict) -> dict:
    data = wire.frame(message)
    assert wire.body_length(data[:wire.HEADER.size]) == len(data) - wire.HEADER.size
    return wire.decode(data[wire.HEADER.size:])


def test_a_document_without_attachments_reads_back_as_it_was():
    message = {"op": "apply", "views": [0, None], "text": "Plätze ♟", "n": 2 ** 70}
    assert crossed(message) == message


def test_view_fields_cross_beside_the_document_and_read_back_byte_for_byte():
    encoder = ViewEncoder()
    mine, theirs = encoder.fields({"hand": ["a secret"]}, []), encoder.fields({"hand": []}, [])
    large = encoder.fields({"log": ["x" * 70_000]}, [])  # beyond one pipe buffer, lengths of three varint bytes
    answer = crossed({"outcome": None, "encoded": encoder.shared([(0, mine), (1, theirs), (None, theirs),
                                                                   (2, large)])})
    assert answer["encoded"]["fields"] == [0, 1, 2]  # indices in the document, the bytes beside it
    decoded = decode_shared(answer["encoded"], answer[wire.ATTACHED])
    assert decoded == {0: mine, 1: theirs, None: theirs, 2: large}
    assert decoded[1] is decoded[None]
    assert b"a secret" not in wire.frame({"fields": encoder.shared([(1, theirs)])})


def test_bytes_a_plugin_puts_in_an_answer_are_still_not_json_shaped():
    with pytest.raises(TypeError):
        wire.frame({"view": {"board": b"raw"}})
    with pytest.raises(TypeError):
        wire.frame({"view": {"board": {1, 2}}})


@pytest.mark.parametrize("body", [
    b"\x00\x00",                                             # shorter than the document's length
    b"\x00\x00\x00\x09{}",                                   # a document longer than the frame
    b"\x00\x00\x00\x02{}\x00\x00",                           # an attachment's length cut short
    b"\x00\x00\x00\x02{}\x00\x00\x00\x05abc",                # an attachment longer than the frame
    b"\x00\x00\x00\x02[]\x00\x00\x00\x01a",                  # attachments to a list
    b"\x00\x00\x00\x02{x",                                   # not JSON
])
def test_a_frame_that_breaks_the_format_is_refused(body):
    with pytest.raises(ValueError):
        wire.decode(body)
