"""Views encoded in the rules workers
(core/gamehost/host/workers/view_bytes.py): the View fields a worker encodes
are the messages the host builds from the view's data, each viewer's from
that viewer's view only; moves named by id are resolved in the worker."""

from __future__ import annotations

import pickle
import threading

import grpc
import pytest
from google.protobuf import struct_pb2

from gamehost.client import GameHostError
from gamehost.client.structs import from_struct, to_struct
from gamehost.host.plugins import load_catalog
from gamehost.host.rpc.messages import legal_move
from gamehost.host.workers import wire
from gamehost.host.workers.moves_on_wire import move_data, move_of
from gamehost.host.workers.struct_writer import MoveEncodings
from gamehost.host.workers.view_bytes import ViewEncoder, decode_shared, legal_move_field
from gamehost.sdk.chance import rng_for
from gamehost.sdk.i18n import Text, catalogues_of
from gamehost.sdk.rules import Move, Part
from gamehost.v1 import gamehost_pb2 as pb
from call_errors import error_of
from hosts import wait_for

GAMES = ["tictactoe", "callisto", "campanile", "kensington", "burgbaumeister", "scalino"]


def built_view(view: dict, moves) -> pb.View:
    """The View as the host builds it from the view's data (service.py)."""
    return pb.View(state=to_struct(dict(view)), legal_moves=[legal_move(m) for m in moves])


@pytest.mark.parametrize("game_id", GAMES)
def test_encoded_view_fields_parse_to_the_view_the_host_builds_from_the_data(game_id):
    game = load_catalog().games[game_id].game
    encoder = ViewEncoder()
    seats = game.max_players if game_id != "scalino" else 2
    state = game.setup(seats, game.default_options(), rng_for(7, 0))
    rng = rng_for(7, 1000)
    for version in range(1, 13):
        to_move = list(game.to_move(state))
        if not to_move or game.outcome(state) is not None:
            break
        for viewer in [None, *range(seats)]:
            view = game.view(state, viewer)
            moves = game.legal_moves(state, viewer) if viewer in to_move else []
            encoded = pb.View()
            encoded.MergeFromString(encoder.fields(view, moves))
            assert encoded == built_view(view, moves), (game_id, version, viewer)
        seat = to_move[0]
        move = rng.choice(game.legal_moves(state, seat))
        state = game.apply(state, seat, move.args, rng_for(7, version))


def test_legal_moves_encode_their_parts_empty_labels_and_arguments_as_the_host_does():
    moves = [Move("a", "", {}), Move("b", "B", {"n": 1, "x": [1.5, True, None, "s"], "d": {"k": "v"}},
                                     (Part("p:1", "piece"), Part("c:2", ""))), Move("", "unnamed", {"big": 2 ** 60})]
    encoded = pb.View()
    encoded.MergeFromString(ViewEncoder().fields({}, moves))
    assert encoded == built_view({}, moves)


def test_what_the_encoding_does_not_take_is_left_to_the_host_and_equal_encodings_are_shared():
    encoder = ViewEncoder()
    assert encoder.fields({1: "a key that is not a string"}, []) is None
    assert encoder.fields({"n": 10 ** 400}, []) is None  # beyond a double
    assert encoder.fields({"set": {1, 2}}, []) is None
    same, other = encoder.fields({"board": [1, 2]}, []), encoder.fields({"board": [2, 1]}, [])
    frame = wire.frame({"encoded": encoder.shared([(None, same), (0, same), (1, other)])})
    answer = wire.decode(frame[wire.HEADER.size:])
    assert len(answer["encoded"]["fields"]) == 2
    decoded = decode_shared(answer["encoded"], answer[wire.ATTACHED])
    assert decoded[None] is decoded[0] and decoded[1] == other
    state = pb.View()
    state.MergeFromString(decoded[1])
    assert state.state == to_struct({"board": [2, 1]}) and isinstance(state.state, struct_pb2.Struct)


def keep_views(stream, views: dict) -> None:
    """Keep each view a WatchMatch stream brings, by version, until it is cancelled."""
    try:
        for event in stream:
            if event.HasField("view"):
                views[event.view.version] = event.view
    except grpc.RpcError:
        pass  # cancelled when the test is done


def same_view(encoded: pb.View, built: pb.View) -> bool:
    built = pb.View.FromString(built.SerializeToString())
    built.ClearField("text")
    return encoded == built


@pytest.mark.parametrize("game_id,seats", [("callisto", 2), ("campanile", 3)])
def test_watchers_receive_from_the_worker_the_view_the_host_builds_each_viewer_only_their_own(client, game_id,
                                                                                                seats):
    """A rendered View (``text``) is built in the host from the view's data;
    the watchers' Views (no rendering) are merged from the worker's bytes:
    the same message, per seat and for spectators, version after version.
    Campanile hides each seat's hand from the others: their views differ."""
    match = client.create_match(game_id, seats=seats).name
    tokens = [client.join(match, seat=s).player_token for s in range(seats)]
    viewers = ["", *tokens]
    views: dict[str, dict] = {token: {} for token in viewers}
    streams = [client.open_watch(match, token) for token in viewers]
    threads = [threading.Thread(target=keep_views, args=(stream, views[token]))
               for stream, token in zip(streams, viewers)]
    # A watcher who asks for renderings has its Views built from the views' data (the move's answer carries both).
    rendered: dict[int, pb.View] = {}
    streams.append(client.open_watch(match, tokens[0], render=pb.RenderOptions(text=True)))
    threads.append(threading.Thread(target=keep_views, args=(streams[-1], rendered)))
    for thread in threads:
        thread.start()
    try:
        for _ in range(6):
            current = client.view(match, tokens[0])
            if current.status != pb.MATCH_STATUS_ACTIVE:
                break
            seat = current.to_move[0]
            mover = client.view(match, tokens[seat])
            client.move(match, tokens[seat], move_id=mover.legal_moves[0].id, expected_version=mover.version)
            version = mover.version + 1
            for token in viewers:
                built = client.view(match, token, text=True)  # built in the host from the view's data
                assert built.version == version and built.text
                assert wait_for(lambda: version in views[token]), (token, version)
                assert same_view(views[token][version], built), (game_id, version, token)
                is_to_move = bool(token) and tokens.index(token) in built.to_move
                assert bool(built.legal_moves) == is_to_move
            assert wait_for(lambda: version in rendered) and rendered[version].text
            assert same_view(views[tokens[0]][version], rendered[version])
    finally:
        for stream in streams:
            stream.cancel()
        for thread in threads:
            thread.join(30)
    if game_id == "campanile":
        states = [views[token][version].state for token in viewers]
        assert all(states.count(state) == 1 for state in states), "each seat sees its own hand, spectators none"


def test_a_move_id_the_seat_lacks_is_refused_by_the_worker_with_the_legal_ids_and_changes_nothing(client):
    match = client.create_match("callisto", seats=2).name
    by_seat = [client.join(match, seat=s).player_token for s in range(2)]
    first = client.match(match).to_move[0]  # the seed decides who begins
    tokens = [by_seat[first], by_seat[1 - first]]
    before = client.view(match, tokens[0])
    log_before = client.log(match)
    with pytest.raises(GameHostError) as refused:
        client.move(match, tokens[0], move_id="no-such-move")
    error = refused.value
    assert (error.code.name, error.reason) == ("FAILED_PRECONDITION", "UNKNOWN_MOVE")
    assert error.metadata["move_id"] == "no-such-move" and before.legal_moves[0].id in error.message
    assert client.view(match, tokens[0]) == before and client.log(match) == log_before
    # The listed move by id, then by its structured form, both land.
    client.move(match, tokens[0], move_id=before.legal_moves[0].id)
    second = client.view(match, tokens[1])
    client.move(match, tokens[1], move=from_struct(second.legal_moves[-1].move))
    log = client.log(match)
    assert [e.label for e in log.events if e.kind == pb.EVENT_KIND_MOVED] == \
        [before.legal_moves[0].label, second.legal_moves[-1].label]


def first_view(stream) -> pb.View:
    """The first View a WatchMatch stream brings."""
    for event in stream:
        if event.HasField("view"):
            return event.view
    raise AssertionError("the stream ended without a view")


def test_the_first_views_of_a_watched_match_fetched_together_are_each_viewer_own(client):
    """The first stream of a match whose views are not yet known fetches
    every viewer's in one round trip; each stream still gets its own
    viewer's View (Campanile hides each hand), the one the host builds."""
    match = client.create_match("campanile", seats=3).name
    tokens = [client.join(match, seat=s).player_token for s in range(3)]
    version = client.match(match).version
    viewers = ["", *tokens]
    streams = [client.open_watch(match, token, after_version=version - 1) for token in viewers]
    try:
        views = [first_view(stream) for stream in streams]
    finally:
        for stream in streams:
            stream.cancel()
    states = [view.state for view in views]
    assert all(states.count(state) == 1 for state in states), "each seat sees its own hand, spectators none"
    for token, view in zip(viewers, views):
        built = client.view(match, token, text=True)  # built in the host from the view's data
        assert view.version == version and same_view(view, built), token
        assert bool(view.legal_moves) == (bool(token) and tokens.index(token) in view.to_move)


def test_a_viewer_whose_view_fails_does_not_cost_the_others_theirs_and_gets_its_error(client):
    """Fetched together, a seat whose legal moves raise is left out of the
    batch: the spectator and the other seat get their Views, and the seat
    to move gets the plugin's error, as when each view is fetched alone."""
    match = client.create_match("faulty", seats=2, options={"fault": "raise"}).name
    tokens = [client.join(match, seat=s).player_token for s in range(2)]
    current = client.match(match)
    mover = current.to_move[0]
    streams = {token: client.open_watch(match, token, after_version=current.version - 1)
               for token in ["", tokens[1 - mover]]}
    try:
        views = {token: first_view(stream) for token, stream in streams.items()}
    finally:
        for stream in streams.values():
            stream.cancel()
    assert all(view.version == current.version and not view.legal_moves for view in views.values())
    failed = error_of(lambda: next(client.watch(match, tokens[mover], after_version=current.version - 1)))
    assert (failed.code.name, failed.reason, failed.metadata["hook"]) == ("INTERNAL", "PLUGIN_ERROR", "legal_moves")


def test_moves_with_translatable_labels_are_encoded_once_and_keep_their_english():
    """A game that lists its moves anew each position, with Text labels (a str subclass, which marshal
    refuses as a key): equal moves share one encoding, which holds the English words."""
    encoded_moves: list[Move] = []

    def encode(move: Move) -> bytes:
        encoded_moves.append(move)
        return legal_move_field(move)

    def listing() -> list[Move]:
        return [Move("b2", Text("{mark} on {cell}", mark=Text("X"), cell="b2"), {"cell": "b2"},
                     (Part("cell:b2", Text("cell {name}", name="b2")), Part("mark:x", Text("X"))))]

    table = MoveEncodings(encode)
    first, again = table.view_field(listing()), table.view_field(listing())
    assert first == again and len(encoded_moves) == 1
    view = pb.View()
    view.MergeFromString(first)
    assert view == pb.View(legal_moves=[legal_move(move) for move in listing()])
    assert [view.legal_moves[0].label, [part.label for part in view.legal_moves[0].parts]] == [
        "X on b2", ["cell b2", "X"]]


def test_labels_read_back_from_a_worker_say_the_same_words_in_every_language():
    game = load_catalog().games["callisto"].game
    state = game.setup(4, game.default_options(), rng_for(3, 0))
    moves = list(game.legal_moves(state, game.to_move(state)[0]))
    answer = wire.decode(wire.frame({"moves": [move_data(m) for m in moves]})[wire.HEADER.size:])
    parts: dict = {}
    read = [move_of(data, parts) for data in answer["moves"]]
    french = catalogues_of(game).translator("fr")
    assert french.translate(read[0].label) != str(read[0].label)  # French words, not the English ones
    for sent, received in zip(moves, read):
        for before, after in [(sent.label, received.label),
                              *((p.label, q.label) for p, q in zip(sent.parts, received.parts))]:
            assert isinstance(after, Text) and str(after) == str(before)
            assert french.translate(after) == french.translate(before)
            assert after.message() == before.message() and after.args == before.args
            assert pickle.loads(pickle.dumps(after)) == before
