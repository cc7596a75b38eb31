"""Views as changes (WatchMatchRequest.view_patches) over real sockets: a
watcher who asked for patches rebuilds, at every version, exactly the view a
watcher without them receives whole, per seat and as a spectator, in full
matches of games with and without hidden information; a patch holds only
values of its own viewer's view (never another seat's secrets); a resumed
watch starts again with the whole view; a watcher who did not ask gets whole
views as before. And on a Session stream that asked for it, a move's answer
carries the mover's own event, which the watch then does not send again."""

from __future__ import annotations

import json
import random
import threading

import grpc
import jsonpatch
import jsonpointer
import pytest
from google.protobuf import json_format

from gamehost.client import GameHostClient
from gamehost.client.view_patching import PatchedViews
from gamehost.v1 import gamehost_pb2 as pb

# Two seats each: tictactoe (nothing hidden), Campanile (hands), Burgbaumeister (face-down cards),
# Kensington (a face-down pile), Callisto (nothing hidden, many legal moves).
DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]  # a full tictactoe game, no line
GAMES = ["tictactoe", "campanile", "burgbaumeister", "kensington", "callisto"]


class Recorder:
    """One WatchMatch stream's events, collected on a thread until the match ends."""

    def __init__(self, target: str, name: str, token: str, patches: bool, after_version: int = 0,
                 locale: str = "", svg: bool = False) -> None:
        self.channel = grpc.insecure_channel(target)
        self.call = pb_stub(self.channel).WatchMatch(pb.WatchMatchRequest(
            name=name, player_token=token, after_version=after_version, view_patches=patches, locale=locale,
            render=pb.RenderOptions(svg=svg)))
        self.events: list[pb.MatchEvent] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for event in self.call:
                self.events.append(event)
        except grpc.RpcError:
            pass

    def finish(self, timeout: float = 60.0) -> list[pb.MatchEvent]:
        self.thread.join(timeout)
        assert not self.thread.is_alive(), "the watch did not end with the match"
        self.channel.close()
        return self.events


def pb_stub(channel):
    from gamehost.v1 import gamehost_pb2_grpc
    return gamehost_pb2_grpc.GameHostStub(channel)


def rebuilt(events: list[pb.MatchEvent]) -> dict[int, dict]:
    """Each version's view as the patched watcher rebuilds it (JSON form), applying
    the RFC 6902 patches with jsonpatch, independently of the client library."""
    views, held, held_version = {}, None, None
    for event in events:
        if event.HasField("view"):
            assert not event.HasField("view_patch")
            held, held_version = json_format.MessageToDict(event.view), event.version
        elif event.HasField("view_patch"):
            assert event.view_patch.from_version == held_version, "a patch from a view the watcher does not hold"
            held = jsonpatch.apply_patch(held, json.loads(event.view_patch.json_patch))
            held_version = event.version
        else:
            continue
        views[event.version] = held
    return views


def whole(events: list[pb.MatchEvent]) -> dict[int, dict]:
    assert not any(event.HasField("view_patch") for event in events), "a watcher who did not ask got a patch"
    return {event.version: json_format.MessageToDict(event.view) for event in events if event.HasField("view")}


def play_to_the_end(client: GameHostClient, name: str, tokens: list[str], chooser: random.Random) -> int:
    """Random legal moves for whichever seat is to move until the match is over; its last version."""
    while True:
        views = [client.view(name, token) for token in tokens]
        now = views[0]
        if now.status != pb.MATCH_STATUS_ACTIVE:
            return now.version
        seat = next(seat for seat in now.to_move if views[seat].legal_moves)
        legal = views[seat].legal_moves
        client.move(name, tokens[seat], move_id=legal[chooser.randrange(len(legal))].id,
                    expected_version=views[seat].version)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_patched_watcher_rebuilds_every_whole_view_of_a_full_match(host, client, game_id):
    match = client.create_match(game_id, seats=2, seed=4321)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    viewers = {0: tokens[0], 1: tokens[1], -1: ""}  # each seat, and a spectator
    streams = {(viewer, patched): Recorder(host.target, match.name, token, patched)
               for viewer, token in viewers.items() for patched in (False, True)}
    last = play_to_the_end(client, match.name, tokens, random.Random(game_id))

    patches = 0
    for viewer in viewers:
        plain, patched = streams[(viewer, False)].finish(), streams[(viewer, True)].finish()
        sizes = {False: sum(e.ByteSize() for e in plain), True: sum(e.ByteSize() for e in patched)}
        assert [e.version for e in patched] == [e.version for e in plain] == list(range(1, last + 1))
        whole_views, rebuilt_views = whole(plain), rebuilt(patched)
        common = sorted(set(whole_views) & set(rebuilt_views))
        assert common and common[-1] == last  # both end on the final view
        for version in common:
            assert rebuilt_views[version] == whole_views[version], f"seat {viewer} at version {version}"
        for event in patched:
            if not event.HasField("view_patch"):
                continue
            patches += 1
            view = rebuilt_views[event.version]
            for operation in json.loads(event.view_patch.json_patch):
                if "value" in operation:  # every value a patch carries is in this viewer's own view
                    assert jsonpointer.resolve_pointer(view, operation["path"]) == operation["value"]
        assert sizes[True] <= sizes[False]  # a patch goes only when smaller than the view
        # The final view is the host's whole view now, also as the client library makes it whole.
        final = json_format.ParseDict(rebuilt_views[last], pb.View())
        assert final == client.view(match.name, viewers[viewer])
    if game_id != "tictactoe":  # its views are so small that no patch is smaller: they go whole
        assert patches > 0


def test_patched_views_in_another_language_with_pictures_rebuild_the_whole_views(host, client):
    match = client.create_match("campanile", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    plain = Recorder(host.target, match.name, tokens[0], patches=False, locale="fr", svg=True)
    patched = Recorder(host.target, match.name, tokens[0], patches=True, locale="fr", svg=True)
    last = play_to_the_end(client, match.name, tokens, random.Random(21))
    whole_views, rebuilt_views = whole(plain.finish()), rebuilt(patched.finish())
    assert whole_views[last]["locale"] == "fr" and whole_views[last]["svg"]
    for version in set(whole_views) & set(rebuilt_views):
        assert rebuilt_views[version] == whole_views[version], f"version {version}"
    assert last in rebuilt_views
    assert any(e.HasField("view_patch") for e in patched.events)


def test_the_python_follower_makes_patched_views_whole(host, client):
    match = client.create_match("campanile", seats=2, seed=99)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    followed: list[pb.MatchEvent] = []
    follower = client.follow(match.name, tokens[1], view_patches=True)
    plain = Recorder(host.target, match.name, tokens[1], patches=False)
    reader = threading.Thread(target=lambda: followed.extend(follower), daemon=True)
    reader.start()
    last = play_to_the_end(client, match.name, tokens, random.Random(7))
    reader.join(60)
    assert not reader.is_alive()
    plain_views = {e.version: e.view for e in plain.finish() if e.HasField("view")}
    shown = {e.version: e.view for e in followed if e.HasField("view")}
    assert not any(e.HasField("view_patch") for e in followed)
    assert shown[last] == plain_views[last]
    assert all(shown[v] == plain_views[v] for v in set(shown) & set(plain_views))


def test_a_resumed_patched_watch_starts_with_the_whole_view_then_patches(host, client):
    match = client.create_match("campanile", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    first = Recorder(host.target, match.name, tokens[1], patches=True)
    chooser = random.Random(11)
    for _ in range(4):  # a few moves, then the watcher's stream drops
        views = [client.view(match.name, token) for token in tokens]
        seat = next(seat for seat in views[0].to_move if views[seat].legal_moves)
        client.move(match.name, tokens[seat], move_id=chooser.choice(views[seat].legal_moves).id,
                    expected_version=views[seat].version)
    resumed_at = client.view(match.name, tokens[1]).version
    first.call.cancel()
    first.finish()
    resumed = Recorder(host.target, match.name, tokens[1], patches=True, after_version=resumed_at)
    last = play_to_the_end(client, match.name, tokens, chooser)
    events = resumed.finish()
    assert [e.version for e in events] == list(range(resumed_at + 1, last + 1))
    with_view = [e for e in events if e.HasField("view") or e.HasField("view_patch")]
    assert with_view[0].HasField("view")  # a new watch holds no view: the first comes whole
    assert any(e.HasField("view_patch") for e in with_view[1:])
    assert rebuilt(events)[last] == json_format.MessageToDict(client.view(match.name, tokens[1]))


def test_a_watcher_that_did_not_ask_gets_whole_views(host, client):
    match = client.create_match("tictactoe", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    plain = Recorder(host.target, match.name, "", patches=False)
    last = play_to_the_end(client, match.name, tokens, random.Random(5))
    views = whole(plain.finish())
    assert views[last] == json_format.MessageToDict(client.view(match.name))


def test_a_session_move_answer_carries_the_movers_event_once(host, client):
    match = client.create_match("tictactoe", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    with client.session() as session:
        session.watch(match.name, tokens[0], own_events_in_answers=True)
        answers: list[pb.SubmitMoveResponse] = []
        for turn, move_id in enumerate(DRAW):
            version = client.view(match.name).version
            if turn % 2 == 0:
                answers.append(session.move(match.name, tokens[0], move_id=move_id, expected_version=version))
            else:
                client.move(match.name, tokens[1], move_id=move_id, expected_version=version)
        session.close_requests()  # the stream ends once its watch has: the match is over
        received = [m.match_event for m in session.events(timeout=30) if m.HasField("match_event")]
    last = client.view(match.name).version
    own = [a for a in answers if a.HasField("event")]
    assert own, "no answer carried its event"
    for answer in own:
        assert answer.event.version == answer.version and answer.event.kind == pb.EVENT_KIND_MOVED
        assert answer.event.seat == 0 and answer.event.label
        # With the view, as the watch sends the newest event (the last move's FINISHED follows it).
        assert answer.event.HasField("view") == (answer.version < last - 1)
    carried = {a.event.version for a in own}
    watched = [e.version for e in received]
    assert not carried & set(watched)  # never twice
    assert sorted(watched + list(carried)) == list(range(1, last + 1))  # and none missing


def test_a_session_that_did_not_ask_gets_every_event_as_a_match_event(host, client):
    match = client.create_match("tictactoe", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    with client.session() as session:
        session.watch(match.name, tokens[0])
        answer = session.move(match.name, tokens[0], move_id="b2", expected_version=3)
        assert not answer.HasField("event")
        events = []
        while not events or events[-1].version < 4:
            message = session.next_event(30)
            if message.HasField("match_event"):
                events.append(message.match_event)
        assert events[-1].version == 4 and events[-1].HasField("view")


def test_a_session_with_patches_and_own_events_rebuilds_every_view_in_stream_order(host, client):
    match = client.create_match("campanile", seats=2)
    tokens = [client.join(match.name).player_token for _ in range(2)]
    patched, held = PatchedViews(), {}
    carried: list[bool] = []  # per answer carrying its event: whether that event's view came as a patch
    chooser = random.Random(31)

    def take(message: pb.SessionEvent) -> None:
        event = message.match_event if message.HasField("match_event") else (
            message.moved.event if message.HasField("moved") and message.moved.HasField("event") else None)
        if event is not None:
            if message.HasField("moved"):
                carried.append(event.HasField("view_patch"))
            patched.whole(event)  # patches apply in the stream's order, answers' events included
            if event.HasField("view"):
                held[event.version] = event.view

    with client.session() as session:
        session.send(watch=pb.WatchMatchRequest(name=match.name, player_token=tokens[0], view_patches=True,
                                                own_events_in_answers=True))
        while True:
            views = [client.view(match.name, token) for token in tokens]
            if views[0].status != pb.MATCH_STATUS_ACTIVE:
                break
            seat = next(seat for seat in views[0].to_move if views[seat].legal_moves)
            move_id = chooser.choice(views[seat].legal_moves).id
            if seat == 1:
                client.move(match.name, tokens[1], move_id=move_id, expected_version=views[1].version)
                continue
            tag = session.send_move(match.name, tokens[0], move_id=move_id, expected_version=views[0].version)
            while True:
                message = session.next_event(30)
                take(message)
                if message.tag == tag:
                    assert not message.HasField("error"), message.error.message
                    break
        session.close_requests()
        for message in session.events(timeout=30):
            take(message)
    last = client.view(match.name, tokens[0])
    assert held[last.version] == last
    assert carried and any(carried)  # answers carried their events, some with patched views
