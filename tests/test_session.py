"""The Session stream (GameHost.Session) over real sockets: it keeps every
guarantee of SubmitMove and WatchMatch (docs/protocol.md, "The session
stream"): events in order with no gap or repeat, idempotent retries, stale
versions refused with details, the same errors as the calls while the
stream goes on, resume after a dropped stream, hidden information, and the
gate's limits on every message."""

from __future__ import annotations

import random

import grpc
import pytest
from google.rpc import error_details_pb2

from gamehost.client import GameHostClient, GameHostError, from_struct, to_struct
from gamehost.client.session import session_error
from gamehost.host.plugins import load_catalog
from gamehost.sdk.replay import RecordedMove, initial_state, replay
from gamehost.v1 import gamehost_pb2 as pb
from hosts import HostProcess
from view_tokens import view_tokens

DRAW = ["a3", "b3", "c3", "b2", "a2", "c2", "b1", "a1", "c1"]  # nine moves, no line: a full game
SESSION = "/gamehost.v1.GameHost/Session"


def new_match(client) -> tuple[str, str, str]:
    """An active tictactoe match at version 3 (two joins, started): its name and both tokens."""
    match = client.create_match("tictactoe")
    return match.name, client.join(match.name).player_token, client.join(match.name).player_token


def match_events(session, name: str, until_version: int) -> list[pb.MatchEvent]:
    """The match events the session receives for ``name`` up to ``until_version``."""
    found = []
    while not found or found[-1].version < until_version:
        event = session.next_event(30)
        if event.match == name and event.HasField("match_event"):
            found.append(event.match_event)
    return found


def unary_error(call) -> GameHostError:
    with pytest.raises(GameHostError) as refused:
        call()
    return refused.value


def test_a_match_played_over_two_sessions_sends_every_event_once_in_order(host, client):
    name, x, o = new_match(client)
    with client.session() as crosses, client.session() as noughts:
        assert crosses.watch(name, x).version == 3 and noughts.watch(name, o).version == 3
        for turn, move_id in enumerate(DRAW):
            mover, token = (crosses, x) if turn % 2 == 0 else (noughts, o)
            answer = mover.move(name, token, move_id=move_id, expected_version=3 + turn)
            assert answer.version == 4 + turn and not answer.replayed
        seen = {}
        for seat, session in ((0, crosses), (1, noughts)):
            session.close_requests()  # the stream ends once its watch has: the match is over
            events = list(session.events(timeout=30))
            ended = [e for e in events if e.HasField("watch_ended")]
            assert len(ended) == 1 and ended[0].watch_ended.version == 13 and ended[0] is events[-1]
            assert all(e.tag == 0 and e.match == name for e in events if not e.HasField("moved"))
            seen[seat] = [e.match_event for e in events if e.HasField("match_event")]
        log = client.log(name)
    for seat, events in seen.items():
        assert [e.version for e in events] == list(range(1, 14))  # every event once, in order
        assert [(e.kind, from_struct(e.move)) for e in events] == [(e.kind, from_struct(e.move)) for e in log.events]
        assert events[-1].kind == pb.EVENT_KIND_FINISHED and events[-1].view.status == pb.MATCH_STATUS_FINISHED
        assert events[-1].view.seat == seat


def test_a_session_sends_what_watchmatch_sends_to_the_same_viewer(host, client):
    name, x, o = new_match(client)
    client.move(name, x, move_id="b2")
    with client.session() as session:
        session.watch(name, o)
        session.move(name, o, move_id="a1")
        streamed = match_events(session, name, 5)
    watched = []
    for event in client.watch(name, o):
        watched.append(event)
        if event.version == 5:
            break
    # Event for event the same messages, the newest with the same view.
    assert [e.version for e in streamed] == [e.version for e in watched] == [1, 2, 3, 4, 5]
    assert streamed[-1] == watched[-1]
    for earlier in streamed[:-1] + watched[:-1]:  # the session, open sooner, saw event 4 as the newest
        earlier.ClearField("view")
    assert streamed[:-1] == watched[:-1]
    assert streamed[-1].view.to_move == [0] and streamed[-1].view.seat == 1 and not streamed[-1].view.legal_moves


def test_one_session_plays_and_follows_several_matches_at_once(client):
    first, second = new_match(client), new_match(client)
    with client.session() as session:
        for name, x, o in (first, second):
            session.watch(name, x)
        for turn in range(4):  # the two matches' moves interleaved on one stream
            for name, x, o in (first, second):
                assert session.move(name, (x, o)[turn % 2], move_id=DRAW[turn]).version == 4 + turn
        seen = {first[0]: [], second[0]: []}
        while min(max(v, default=0) for v in seen.values()) < 7:
            event = session.next_event(30)
            if event.HasField("match_event"):
                seen[event.match].append(event.match_event.version)
    assert seen == {first[0]: list(range(1, 8)), second[0]: list(range(1, 8))}


def test_a_retried_request_id_answers_the_first_version_and_plays_nothing_more(client):
    name, x, o = new_match(client)
    with client.session() as session:
        first = session.move(name, x, move_id="b2", request_id="retry-1", expected_version=3)
        again = session.move(name, x, move_id="b2", request_id="retry-1", expected_version=3)
        other = session.move(name, x, move_id="c3", request_id="retry-1")  # a retry is not judged again
    assert (first.version, first.replayed) == (4, False)
    assert (again.version, again.replayed) == (4, True) and (other.version, other.replayed) == (4, True)
    assert client.match(name).version == 4
    assert [e.label for e in client.log(name).events if e.kind == pb.EVENT_KIND_MOVED] == ["X on b2"]


def test_a_stale_version_is_refused_with_details_and_the_stream_goes_on(client):
    name, x, o = new_match(client)
    with client.session() as session:
        session.move(name, x, move_id="b2", expected_version=3)
        with pytest.raises(GameHostError) as stale:
            session.move(name, o, move_id="a1", expected_version=3)
        assert stale.value.code == grpc.StatusCode.ABORTED and stale.value.reason == "STALE_VERSION"
        assert stale.value.metadata == {"current_version": "4", "expected_version": "3"}
        assert client.match(name).version == 4  # nothing changed
        assert session.move(name, o, move_id="a1", expected_version=4).version == 5  # same stream


def test_errors_are_the_calls_errors_and_the_stream_goes_on(client):
    name, x, o = new_match(client)
    moves = [  # (request, what it is)
        (pb.SubmitMoveRequest(name="matches/no-such-match", player_token=x, move_id="b2"), "unknown match"),
        (pb.SubmitMoveRequest(name="games/tictactoe", player_token=x, move_id="b2"), "not a match name"),
        (pb.SubmitMoveRequest(name=name, player_token="not-a-token", move_id="b2"), "foreign token"),
        (pb.SubmitMoveRequest(name=name, move_id="b2"), "spectator"),
        (pb.SubmitMoveRequest(name=name, player_token=x, move_id="z9"), "unknown move id"),
        (pb.SubmitMoveRequest(name=name, player_token=o, move_id="a1"), "not o's turn"),
        (pb.SubmitMoveRequest(name=name, player_token=x), "no move"),
        (pb.SubmitMoveRequest(name=name, player_token=x, structured=to_struct({"cell": "q7"})), "malformed"),
    ]
    with client.session() as session:
        for request, what in moves:
            unary = unary_error(lambda: client._call(client.stub.SubmitMove, request))
            tag = session.send(move=request)
            answer = session.next_event(30)
            assert answer.tag == tag and answer.HasField("error"), what
            streamed = session_error(answer)
            assert (streamed.code, streamed.reason, streamed.message, streamed.metadata,
                    streamed.field_violations) == (unary.code, unary.reason, unary.message, unary.metadata,
                                                   unary.field_violations), what
        refusals = {  # watches and unwatches refused as WatchMatch refuses them
            "VERSION_OUT_OF_RANGE": dict(watch=pb.WatchMatchRequest(name=name, after_version=99)),
            "INVALID_TOKEN": dict(watch=pb.WatchMatchRequest(name=name, player_token="nope")),
            "NOT_WATCHING": dict(unwatch=name),
            "REQUEST_MISSING": {},
        }
        for reason, request in refusals.items():
            tag = session.send(**request)
            answer = session.next_event(30)
            assert answer.tag == tag and session_error(answer).reason == reason
        assert client.match(name).version == 3  # nothing changed
        assert session.move(name, x, move_id="b2", expected_version=3).version == 4  # the stream went on


def test_resume_after_a_dropped_stream_misses_nothing_and_repeats_nothing(client):
    name, x, o = new_match(client)
    received: list[int] = []
    dropped = client.session()
    dropped.watch(name, o)
    client.move(name, x, move_id="b2")
    received += [e.version for e in match_events(dropped, name, 4)]
    dropped.cancel()  # as a lost connection would
    client.move(name, o, move_id="a1")  # played while nobody follows
    client.move(name, x, move_id="c3")
    with client.session() as resumed:
        resumed.watch(name, o, after_version=received[-1])
        client.move(name, o, move_id="a3")
        received += [e.version for e in match_events(resumed, name, 7)]
        # Watching again on the same stream replaces the watch: again nothing twice.
        resumed.watch(name, o, after_version=received[-1])
        client.move(name, x, move_id="b3")
        received += [e.version for e in match_events(resumed, name, 8)]
    assert received == list(range(1, 9)) == [e.version for e in client.log(name).events]


def test_a_refused_watch_of_a_followed_match_leaves_its_watch_going(client):
    name, x, o = new_match(client)
    with client.session() as session:
        session.watch(name, o)
        assert [e.version for e in match_events(session, name, 3)] == [1, 2, 3]
        for refused in (dict(after_version=99), dict(player_token="nope")):
            tag = session.send(watch=pb.WatchMatchRequest(name=name, **refused))
            answer = session.next_event(30)
            assert answer.tag == tag and answer.HasField("error")
        client.move(name, x, move_id="b2")  # the watch in place still follows the match
        following = session.next_event(30)
        assert following.match == name and following.match_event.version == 4
        assert session.unwatch(name) == 4


def test_unwatch_ends_the_watch_at_the_last_version_sent(client):
    name, x, o = new_match(client)
    with client.session() as session:
        session.watch(name)
        assert [e.version for e in match_events(session, name, 3)] == [1, 2, 3]
        assert session.unwatch(name) == 3
        client.move(name, x, move_id="b2")
        session.close_requests()
        assert list(session.events(timeout=30)) == []  # no watch left: the stream ended


# ---------------------------------------------------------------- undo on the stream

UNDO_EVENTS = [pb.EVENT_KIND_UNDO_ASKED, pb.EVENT_KIND_UNDO_ACCEPTED, pb.EVENT_KIND_UNDONE]


def test_an_undo_asked_and_accepted_over_two_sessions_reaches_both_and_resumes_after_it(client):
    name, x, o = new_match(client)
    with client.session() as crosses, client.session() as noughts:
        crosses.watch(name, x)
        noughts.watch(name, o)
        moved = crosses.move(name, x, move_id="b2").version
        asked = crosses.ask_undo(name, x)
        assert (asked.version, asked.undone, asked.ask.seat, asked.ask.undoes) == (moved + 1, False, 0, moved)
        assert list(asked.ask.waiting) == [1]
        received = {1: match_events(noughts, name, asked.version)}
        prompt = received[1][-1]  # O learns of the ask on its stream
        assert (prompt.kind, prompt.seat, prompt.undoes) == (pb.EVENT_KIND_UNDO_ASKED, 0, moved)
        accepted = noughts.answer_undo(name, o, True, ask_version=asked.version)
        assert accepted.undone and accepted.version == asked.version + 2 and not accepted.HasField("ask")
        received[0] = match_events(crosses, name, accepted.version)
        received[1] += match_events(noughts, name, accepted.version)
        for seat, events in received.items():
            assert [e.version for e in events] == list(range(1, accepted.version + 1)), seat  # no gap, no repeat
            seen = [e for e in events if e.version > moved]
            assert [e.kind for e in seen] == UNDO_EVENTS
            assert seen[-1].undoes == moved and seen[-1].view.seat == seat
            assert from_struct(seen[-1].view.state)["board"] == [None] * 9 and list(seen[-1].view.to_move) == [0]
    # The version after the undo is one to resume from, as any other.
    with client.session() as resumed:
        resumed.watch(name, o, after_version=accepted.version)
        replayed = resumed.move(name, x, move_id="a1", expected_version=accepted.version)
        assert replayed.version == accepted.version + 1
        assert [e.version for e in match_events(resumed, name, replayed.version)] == [replayed.version]
    assert [e.version for e in client.log(name).events] == list(range(1, replayed.version + 1))


def test_an_undo_refused_or_withdrawn_over_a_session_changes_no_position(client):
    name, x, o = new_match(client)
    with client.session() as crosses, client.session() as noughts:
        moved = crosses.move(name, x, move_id="b2").version
        before = client.view(name, o)
        asked = crosses.ask_undo(name, x)
        refused = noughts.answer_undo(name, o, False)
        assert (refused.version, refused.undone, refused.HasField("ask")) == (asked.version + 1, False, False)
        with pytest.raises(GameHostError) as closed:  # the ask is closed: an error answer, the stream goes on
            noughts.answer_undo(name, o, True)
        assert (closed.value.code, closed.value.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_UNDO_ASKED")
        again = crosses.ask_undo(name, x)
        withdrawn = crosses.withdraw_undo(name, x)
        assert withdrawn.version == again.version + 1 and not withdrawn.undone and not withdrawn.HasField("ask")
        assert noughts.move(name, o, move_id="a1", expected_version=withdrawn.version).version == withdrawn.version + 1
    assert from_struct(client.view(name, o).state)["board"] != from_struct(before.state)["board"]
    kinds = [e.kind for e in client.log(name).events if e.version > moved]
    assert kinds == [pb.EVENT_KIND_UNDO_ASKED, pb.EVENT_KIND_UNDO_REFUSED, pb.EVENT_KIND_UNDO_ASKED,
                     pb.EVENT_KIND_UNDO_WITHDRAWN, pb.EVENT_KIND_MOVED]


def test_an_undo_in_a_game_without_undo_is_the_calls_error_with_its_details(client):
    match = client.create_match("kensington", seats=2).name
    tokens = [client.join(match).player_token for _ in range(2)]
    before = client.match(match).version
    requests = [  # (the Session request's field, the request, the unary call)
        ("ask_undo", pb.AskUndoRequest(name=match, player_token=tokens[0]), client.stub.AskUndo),
        ("answer_undo", pb.AnswerUndoRequest(name=match, player_token=tokens[1], accept=True), client.stub.AnswerUndo),
        ("withdraw_undo", pb.WithdrawUndoRequest(name=match, player_token=tokens[0]), client.stub.WithdrawUndo)]
    with client.session() as session:
        for field, request, call in requests:
            unary = unary_error(lambda: client._call(call, request))
            tag = session.send(**{field: request})
            answer = session.next_event(30)
            assert answer.tag == tag and answer.match == match and answer.HasField("error")
            streamed = session_error(answer)
            assert (streamed.code, streamed.reason, streamed.message, streamed.metadata) == (
                unary.code, unary.reason, unary.message, unary.metadata)
        assert (streamed.code, streamed.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "UNDO_NOT_SUPPORTED")
        assert "Kensington" in streamed.message
        assert [d for d in answer.error.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)]
    assert client.match(match).version == before  # nothing written


def test_a_seat_never_receives_another_seats_secrets(client):
    game = load_catalog().games["campanile"].game
    match = client.create_match("campanile", seats=2, bots=[1], seed=2024)
    me = client.join(match.name, seat=0)
    chooser = random.Random(7)
    views: dict[int, dict[int, pb.View]] = {0: {}, -1: {}}
    with client.session() as mine, client.session() as spectator:
        mine.watch(match.name, me.player_token)
        spectator.watch(match.name)
        for _ in range(5000):  # messages, until the match ends (the seeds make it one game, always the same)
            event = mine.next_event(30)
            if event.HasField("error"):
                raise session_error(event)
            if event.HasField("watch_ended"):
                break
            if not event.HasField("match_event") or not event.match_event.HasField("view"):
                continue
            view = views[0][event.match_event.version] = event.match_event.view
            if view.legal_moves and view.version == event.match_event.version:
                choice = view.legal_moves[chooser.randrange(len(view.legal_moves))]
                mine.send_move(match.name, me.player_token, move_id=choice.id, expected_version=view.version)
        spectator.close_requests()
        for event in spectator.events(timeout=30):
            if event.HasField("match_event") and event.match_event.HasField("view"):
                views[-1][event.match_event.version] = event.match_event.view
    log = client.log(match.name)
    assert log.complete and len(views[0]) > 5 and len(views[-1]) > 5
    state = initial_state(game, 2, from_struct(log.options), log.seed)
    states = {0: state}
    for event in log.events:
        if event.kind == pb.EVENT_KIND_MOVED:
            state = replay(game, state, log.seed, [RecordedMove(event.version, event.seat, from_struct(event.move))])
        states[event.version] = state
    for viewer, seen in views.items():
        for version, view in seen.items():
            if view.status == pb.MATCH_STATUS_FINISHED:
                continue
            secrets = [s for s in game.secrets(states[version]) if viewer < 0 or s.owner != viewer]
            leaked = [s.value for s in secrets if s.value in view_tokens(from_struct(view.state))]
            assert not leaked, f"view for seat {viewer} at version {version} carries {leaked[:3]}"


def test_a_struct_past_the_limits_is_refused_and_the_stream_goes_on(client):
    name, x, o = new_match(client)
    with client.session() as session:
        huge = {"cell": "b2", "padding": "x" * 20_000}  # past the 16 KiB of a structured move
        with pytest.raises(GameHostError) as refused:
            session.move(name, x, move=huge)
        assert refused.value.code == grpc.StatusCode.INVALID_ARGUMENT and refused.value.reason == "INPUT_TOO_LARGE"
        assert refused.value.field_violations[0][0] == "move.structured"
        assert session.move(name, x, move_id="b2").version == 4


def test_bytes_that_are_no_request_are_refused_and_the_stream_goes_on(host, client):
    name, x, o = new_match(client)
    with host.channel() as channel:
        call = channel.stream_stream(SESSION)(iter([
            b"\xff\xff\xff", pb.SessionRequest(tag=5, watch=pb.WatchMatchRequest(name=name)).SerializeToString()]))
        first, second = (pb.SessionEvent.FromString(next(call)) for _ in range(2))
        call.cancel()
    assert first.tag == 0 and session_error(first).reason == "UNDECODABLE_REQUEST"
    assert session_error(first).code == grpc.StatusCode.INVALID_ARGUMENT
    assert second.tag == 5 and second.watching.name == name


@pytest.fixture(scope="module")
def limited_host():
    """A host with production-like budgets: 2 calls per second in bursts of
    10, and one open watch per caller."""
    process = HostProcess(env={"GAMEHOST_CALL_RATE": "2", "GAMEHOST_CALL_BURST": "10",
                               "GAMEHOST_MAX_WATCHERS_PER_CALLER": "1"}).start()
    yield process
    process.stop()


def test_a_caller_the_gate_refuses_gets_no_stream(host):
    with GameHostClient(host.target, bearer_token="not-a-jwt") as stranger:
        unary = unary_error(stranger.identity)
        session = stranger.session()
        with pytest.raises(GameHostError) as refused:
            session.next_event(30)
        session.close()
    assert (refused.value.code, refused.value.reason) == (unary.code, unary.reason) == (
        grpc.StatusCode.UNAUTHENTICATED, "INVALID_BEARER_TOKEN")


def test_a_flood_on_one_stream_is_rate_limited_per_message(limited_host):
    with limited_host.client() as client:
        name, x, o = new_match(client)  # 3 calls of the burst
        with client.session() as session:  # the stream itself is one call
            tags = [session.send_move(name, x, move_id="z9") for _ in range(20)]
            answers = [session.next_event(30) for _ in tags]
            assert [a.tag for a in answers] == tags  # every message answered, in order
            reasons = [session_error(a).reason for a in answers]
            assert "UNKNOWN_MOVE" in reasons and reasons[-1] == "QUOTA_EXCEEDED"  # spent, then refused
            exhausted = answers[-1].error
            assert exhausted.code == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
            retry = [d for d in exhausted.details if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)]
            assert retry
            # The stream is still open and answering.
            tag = session.send_move(name, x, move_id="b2")
            assert session.next_event(30).tag == tag


def test_a_watch_holds_one_of_the_callers_watch_streams_until_it_ends():
    host = HostProcess(env={"GAMEHOST_MAX_WATCHERS_PER_CALLER": "1"}).start()
    try:
        with host.client() as client, client.session() as session:
            name, x, o = new_match(client)
            session.watch(name, x)
            with pytest.raises(GameHostError) as capped:
                session.watch(new_match(client)[0])
            assert capped.value.reason == "QUOTA_EXCEEDED" and capped.value.metadata["limit"] == "watchers_per_caller"
            with pytest.raises(GameHostError):
                next(iter(client.watch(name)))  # a WatchMatch call counts against the same cap
            session.unwatch(name)  # gives the stream back
            assert session.watch(name, o).version == 3
    finally:
        host.stop()


def test_a_message_past_the_size_limit_ends_the_stream_and_changes_nothing(host, client):
    name, x, o = new_match(client)
    with host.channel() as channel:
        request = pb.SessionRequest(tag=1, move=pb.SubmitMoveRequest(
            name=name, player_token=x, move_id="b2", request_id="r" * (1 << 20)))  # past the 1 MiB default
        call = channel.stream_stream(SESSION)(iter([request.SerializeToString()]))
        with pytest.raises(grpc.RpcError) as ended:
            next(call)
    assert ended.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in ended.value.details()
    assert client.match(name).version == 3


def test_the_host_closing_ends_every_session_cleanly(client):
    # A grace longer than HostProcess.stop waits (15 s before SIGKILL): a
    # stream the host did not end itself would hold the stop past it.
    host = HostProcess("--shutdown-grace", "60").start()
    try:
        with host.client() as own:
            name, x, o = new_match(own)
            idle, watching = own.session(), own.session()
            watching.watch(name, x)
            assert host.stop() == 0
            assert list(idle.events(timeout=10)) == [] and idle.failure is None
            ended = [e for e in watching.events(timeout=10) if e.HasField("watch_ended")]
            assert [e.watch_ended.version for e in ended] == [3] and watching.failure is None
    finally:
        host.stop()
