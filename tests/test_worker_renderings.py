"""Renderings made in the rules workers
(core/gamehost/host/engine/renderings.py): a worker renders each viewer's
text and SVG from that viewer's view of the state it holds; they equal what
a host running the rules itself renders from the view's data, a renderer
that fails fails the pictures as before (never the move), and a rendering is
never paired with another version's View."""

from __future__ import annotations

import re
import threading
import time

import grpc
import pytest

from gamehost.client import GameHostError
from gamehost.client.structs import from_struct
from gamehost.host.plugins import load_catalog
from gamehost.host.workers.resident import ResidentMatches
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess, wait_for

SEATS = {"tictactoe": 2, "callisto": 2, "campanile": 3, "kensington": 2, "burgbaumeister": 2, "scalino": 2,
         "scalino-pyramid": 2}
MOVES = 4  # per game: enough for a few positions, each viewer's picture at every version
EVERY_PICTURE = pb.RenderOptions(text=True, svg=True)
ASKED_AGAIN = "a step landed while the view was made: made again"  # the host's log line (debug)


@pytest.fixture(scope="module")
def in_host():
    """A host that runs the rules itself (``--isolation off``): it renders from the view's data."""
    process = HostProcess("--isolation", "off").start()
    yield process
    process.stop()


class Watched:
    """What one WatchMatch stream brings: its views by version, and the error it ended with."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.views: dict[int, pb.View] = {}
        self.error: GameHostError | None = None
        self.thread = threading.Thread(target=self._read)
        self.thread.start()

    def _read(self) -> None:
        try:
            for event in self.stream:
                if event.HasField("view"):
                    self.views[event.view.version] = event.view
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.CANCELLED:
                self.error = GameHostError.from_rpc_error(error)

    def stop(self) -> None:
        self.stream.cancel()
        self.thread.join(30)


def without_name(view: pb.View) -> pb.View:
    copy = pb.View.FromString(view.SerializeToString())
    copy.ClearField("match")
    return copy


@pytest.mark.parametrize("game_id", sorted(SEATS))
def test_the_worker_renders_each_viewer_what_the_host_renders_from_that_viewers_view(client, in_host, game_id):
    """The same match (seed, moves) on a host with rules workers and on one
    running the rules itself: every viewer's text and SVG, asked for and
    watched, are the same at every version; in Campanile each seat's
    picture is of its own hand, the spectator's of none."""
    seats = SEATS[game_id]
    reference = in_host.client()
    matches = [c.create_match(game_id, seats=seats, seed=4242).name for c in (client, reference)]
    tokens = [[c.join(m, seat=s).player_token for s in range(seats)] for c, m in zip((client, reference), matches)]
    viewers = [""] + tokens[0]
    watched = [Watched(client.open_watch(matches[0], token, render=EVERY_PICTURE)) for token in viewers]
    try:
        for _ in range(MOVES):
            current = client.view(matches[0])
            if current.status != pb.MATCH_STATUS_ACTIVE:
                break
            seat = current.to_move[0]
            for c, m, seat_tokens in zip((client, reference), matches, tokens):
                mover = c.view(m, seat_tokens[seat])
                c.move(m, seat_tokens[seat], move_id=mover.legal_moves[0].id, expected_version=mover.version)
            version = current.version + 1
            for index, (token, reference_token) in enumerate(zip(viewers, [""] + tokens[1])):
                made_in_host = reference.view(matches[1], reference_token, text=True, svg=True)
                assert made_in_host.version == version and made_in_host.svg and made_in_host.text
                made_in_worker = client.view(matches[0], token, text=True, svg=True)
                assert without_name(made_in_worker) == without_name(made_in_host), (game_id, version, index)
                assert wait_for(lambda: version in watched[index].views or watched[index].error), (game_id, index)
                assert watched[index].error is None
                assert without_name(watched[index].views[version]) == without_name(made_in_host)
    finally:
        for watch in watched:
            watch.stop()
    if game_id == "campanile":
        pictures = [watch.views[version].svg for watch in watched]
        assert len(set(pictures)) == len(pictures), "each seat sees its own hand, the spectator none"


def test_equal_renderings_cross_once_each_from_its_viewers_view():
    """A worker's batch: the spectator's and the waiting seat's tictactoe
    pictures are equal and answered once; the seat to move's carries its
    move targets; a renderer's failure is that entry's alone."""
    games = load_catalog().all_rules()
    key = next(k for k in games if k.startswith("tictactoe@"))
    table = ResidentMatches(games, {})
    table.handle({"op": "setup", "game": key, "match": "m", "seats": 2, "options": {}, "seed": 1, "new_tag": 1})
    answer = table.handle({"op": "render", "match": "m", "tag": 1, "budget": 5.0,
                           "renders": [[None, "svg", False], [1, "svg", False], [0, "svg", True], [0, "text", False]]})
    assert answer["failed"] == [] and answer["overran"] == []
    of = {(viewer, kind): i for viewer, kind, i in answer["of"]}
    assert of[(None, "svg")] == of[(1, "svg")] and len(answer["texts"]) == 3
    assert "data-move" in answer["texts"][of[(0, "svg")]] and "data-move" not in answer["texts"][of[(1, "svg")]]
    assert answer["texts"][of[(0, "text")]].endswith("a b c")


def moved(client, match: str, token: str) -> int:
    view = client.view(match, token)
    return client.move(match, token, move_id=view.legal_moves[0].id, expected_version=view.version).version


@pytest.mark.parametrize("fault,code,reason", [("raise", "INTERNAL", "PLUGIN_ERROR"),
                                               ("sleep", "DEADLINE_EXCEEDED", "RULES_TIMEOUT")])
def test_a_renderer_that_fails_fails_the_pictures_as_before_and_the_move_stands(host, fault, code, reason):
    """Renderings are asked for after the step is committed, apart from the
    move: a renderer that raises (INTERNAL / PLUGIN_ERROR) or overruns its
    budget (DEADLINE_EXCEEDED / RULES_TIMEOUT, a strike) fails the watcher
    who asked for the SVG and GetView with the SVG, naming render_svg, as
    when the host rendered from the view's data; the move stands, and a
    watcher without renderings gets its view. (The fault "sleep" takes 3 s,
    over the host's 2-s budget.)"""
    client = host.client()
    match = client.create_match("faulty", seats=1, options={"fault": fault, "hook": "render", "after": 1}).name
    token = client.join(match).player_token
    pictures = Watched(client.open_watch(match, token, render=pb.RenderOptions(svg=True)))
    plain = Watched(client.open_watch(match, token))
    try:
        assert client.view(match, token, svg=True).svg  # count 0: the renderer still draws
        version = moved(client, match, token)  # count 1: it fails from now on
        assert wait_for(lambda: pictures.error is not None, 60)
        for error in (pictures.error, pytest.raises(GameHostError, client.view, match, token, svg=True).value):
            assert (error.code.name, error.reason) == (code, reason), error
            assert error.metadata["hook"] == "render_svg" and "render_svg()" in error.message
        assert wait_for(lambda: version in plain.views) and plain.error is None
        assert plain.views[version].state == client.view(match, token).state
        assert from_struct(client.view(match, token).state)["count"] == 1
        assert client.match(match).status == pb.MATCH_STATUS_ACTIVE
    finally:
        pictures.stop()
        plain.stop()


def test_a_step_landing_while_a_view_is_made_never_pairs_a_picture_with_another_versions_view(host):
    """Players move back to back while a spectator asks for the SVG, each
    view taking 40 ms to make: steps land while the View's fields are made
    (made again, as the log says) and between the fields and the picture
    (drawn from the very state the fields are of, which the worker still
    holds). Each picture shows the count of the View it comes with."""
    client = host.client()
    asked_again = 0
    deadline = time.monotonic() + 60
    while not asked_again and time.monotonic() < deadline:
        match = client.create_match("faulty", seats=2, options={"target": 20, "slow_view_ms": 40}).name
        tokens = [client.join(match, seat=seat).player_token for seat in (0, 1)]
        players = threading.Thread(target=lambda: [client.move(match, tokens[turn % 2], move_id="add")
                                                   for turn in range(20)])
        players.start()
        try:
            while True:
                view = client.view(match, svg=True)
                count = from_struct(view.state)["count"]
                assert re.search(r"<text>(\d+)</text>", view.svg).group(1) == str(count), (view.version, view.svg)
                if view.status != pb.MATCH_STATUS_ACTIVE:
                    break
        finally:
            players.join(60)
        asked_again = len([line for line in host.log_lines(ASKED_AGAIN)
                           if line.get("match_id") == match.removeprefix("matches/")])
    assert asked_again, "no step landed while a View was made"


def test_pictures_go_only_to_watchers_who_asked_and_equal_watchers_get_equal_bytes(client):
    """Campanile (hands hidden): of three WatchMatch streams of seat 0, the
    one that asked for no rendering gets views without SVG or text, the two
    that asked for the SVG get the same View, byte for byte, at every
    version; the spectator who asked gets its own picture (no hand)."""
    match = client.create_match("campanile", seats=3, seed=77).name
    tokens = [client.join(match, seat=seat).player_token for seat in range(3)]
    svg = pb.RenderOptions(svg=True)
    plain = Watched(client.open_watch(match, tokens[0]))
    pictures = [Watched(client.open_watch(match, tokens[0], render=svg)) for _ in range(2)]
    spectator = Watched(client.open_watch(match, "", render=svg))
    watched = [plain, *pictures, spectator]
    try:
        versions = []
        for _ in range(MOVES):
            view = client.view(match, tokens[0])
            mover = tokens[view.to_move[0]]
            legal = client.view(match, mover).legal_moves
            versions.append(client.move(match, mover, move_id=legal[0].id, expected_version=view.version).version)
        assert wait_for(lambda: all(versions[-1] in watch.views for watch in watched), 60)
        assert all(watch.error is None for watch in watched)
        for version in versions:
            assert not plain.views[version].svg and not plain.views[version].text
            first, second = (watch.views[version] for watch in pictures)
            assert first.svg.startswith("<svg") and first.SerializeToString() == second.SerializeToString()
            assert spectator.views[version].svg.startswith("<svg")
            assert spectator.views[version].svg != first.svg, "the spectator's picture shows no hand"
    finally:
        for watch in watched:
            watch.stop()
