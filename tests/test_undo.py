"""Undo by agreement: in a game that allows it, the player whose
move was the last one asks to take it back, every other person seated
accepts or refuses, and the log keeps the ask, the answers and the undo.
The undo is a new version, never a rewrite: replaying the log from the seed
gives the same position, on every store and across replicas."""

from __future__ import annotations

import subprocess
import sys

import grpc
import pytest

from gamehost.client import GameHostClient
from gamehost.client.structs import from_struct
from gamehost.host.engine.undo_asks import ASK_LIFETIME, open_ask
from gamehost.sdk.replay import initial_state, recorded_moves, replay
from gamehost.v1 import gamehost_pb2 as pb
from gamehost_tictactoe.game import TicTacToe
from call_errors import error_of

pytestmark = pytest.mark.timeout(120)

UNDO_KINDS = {pb.EVENT_KIND_MOVED: "moved", pb.EVENT_KIND_UNDO_ASKED: "asked",
              pb.EVENT_KIND_UNDO_ACCEPTED: "accepted", pb.EVENT_KIND_UNDO_REFUSED: "refused",
              pb.EVENT_KIND_UNDO_WITHDRAWN: "withdrawn", pb.EVENT_KIND_UNDONE: "undone",
              pb.EVENT_KIND_UNDO_LAPSED: "lapsed",
              pb.EVENT_KIND_FINISHED: "finished"}



def new_match(client: GameHostClient, seed: int) -> tuple[str, str, str]:
    match = client.create_match("tictactoe", seed=seed).name
    return match, client.join(match).player_token, client.join(match).player_token


def mark(client: GameHostClient, match: str, token: str, cell: int) -> int:
    return client.move(match, token, move={"cell": cell}).version


def story(client: GameHostClient, match: str, token: str = "") -> list[str]:
    """The log's moves and undo events, in order."""
    return [UNDO_KINDS[e.kind] for e in client.log(match, token).events if e.kind in UNDO_KINDS]


def replayed_board(client: GameHostClient, match: str) -> list:
    """The board rebuilt from the seed and the log, as anyone can once the match is over."""
    log = client.log(match)
    assert log.complete
    events = [{"version": e.version, "seat": e.seat, "kind": UNDO_KINDS.get(e.kind, ""), "undoes": e.undoes,
               "move": from_struct(e.move)} for e in log.events]
    game = TicTacToe()
    return replay(game, initial_state(game, log.seats, from_struct(log.options), log.seed), log.seed,
                  recorded_moves(events))["board"]


def test_the_catalog_says_which_games_allow_undo(client):
    offered = {game.id: game.undo for game in client.games()}
    assert offered["tictactoe"] and offered["callisto"] and offered["scalino"]
    assert not offered["kensington"] and not offered["burgbaumeister"] and not offered["campanile"]


def test_an_undo_asked_and_accepted_takes_the_move_back_and_the_log_replays_exactly(host, client):
    match, x, o = new_match(client, seed=71)
    mark(client, match, x, 4)
    mark(client, match, o, 0)
    before = client.view(match, x)
    taken_back = mark(client, match, x, 8)
    asked = client.ask_undo(match, x)
    assert (asked.version, asked.undone) == (taken_back + 1, False)
    assert (asked.ask.seat, asked.ask.undoes, list(asked.ask.waiting)) == (0, taken_back, [1])
    pending = client.match(match).undo_ask
    assert (pending.ask_version, pending.undoes, list(pending.waiting)) == (asked.version, taken_back, [1])
    stream = client.watch(match, o, after_version=taken_back)
    prompt = next(stream)  # what a frontend shows O
    stream.close()
    assert (prompt.kind, prompt.seat, prompt.undoes) == (pb.EVENT_KIND_UNDO_ASKED, 0, taken_back)
    assert prompt.undo_expire_time.seconds > prompt.time.seconds

    answer = client.answer_undo(match, o, True, ask_version=asked.version)
    assert answer.undone and answer.version == asked.version + 2 and not answer.HasField("ask")
    now = client.view(match, x)
    assert now.state == before.state and list(now.to_move) == [0] and now.version == answer.version
    assert {m.id for m in now.legal_moves} == {m.id for m in before.legal_moves}
    assert not client.match(match).HasField("undo_ask")
    events = client.log(match).events[-3:]
    assert [(e.kind, e.seat) for e in events] == [(pb.EVENT_KIND_UNDO_ASKED, 0), (pb.EVENT_KIND_UNDO_ACCEPTED, 1),
                                                  (pb.EVENT_KIND_UNDONE, 0)]
    assert events[-1].undoes == taken_back

    for seat, cell in ((x, 2), (o, 1), (x, 6)):  # X plays elsewhere and wins on the diagonal 2-4-6
        mark(client, match, seat, cell)
    final = client.match(match)
    assert final.status == pb.MATCH_STATUS_FINISHED and list(final.result.winners) == [0]
    assert story(client, match) == ["moved", "moved", "moved", "asked", "accepted", "undone",
                                    "moved", "moved", "moved", "finished"]
    board = replayed_board(client, match)
    assert board == [1, 1, 0, None, 0, None, 0, None, None]  # cell 8 was taken back
    assert from_struct(client.view(match).state)["board"] == board
    # the replay page steps over the undo: the move is there until the undo, gone after
    assert from_struct(client.view(match, at_version=asked.version).state)["board"][8] == 0
    assert from_struct(client.view(match, at_version=answer.version).state) == from_struct(before.state)
    verified = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "replay", match, "--host", host.target],
                              capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0, verified.stderr
    assert "verified:" in verified.stdout and f": took back the move of v{taken_back}\n" in verified.stdout


def test_an_undo_refused_changes_nothing(client):
    match, x, o = new_match(client, seed=72)
    mark(client, match, x, 4)
    before = client.view(match, o)
    asked = client.ask_undo(match, x)
    answer = client.answer_undo(match, o, False)
    assert (answer.version, answer.undone, answer.HasField("ask")) == (asked.version + 1, False, False)
    now = client.view(match, o)
    assert now.state == before.state and now.legal_moves == before.legal_moves and list(now.to_move) == [1]
    assert story(client, match) == ["moved", "asked", "refused"]
    assert error_of(client.answer_undo, match, o, True).reason == "NO_UNDO_ASKED"  # the ask is closed
    assert client.log(match).events[-1].kind == pb.EVENT_KIND_UNDO_REFUSED  # and that refusal wrote nothing


def test_a_game_without_undo_refuses_the_ask_and_changes_nothing(client):
    match = client.create_match("kensington", seats=2).name
    tokens = [client.join(match).player_token for _ in range(2)]
    before = client.match(match)
    error = error_of(client.ask_undo, match, tokens[0])
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "UNDO_NOT_SUPPORTED")
    assert "Kensington" in error.message
    assert client.match(match).version == before.version


def test_a_stale_ask_expires_after_a_move(client):
    match, x, o = new_match(client, seed=74)
    mark(client, match, x, 4)
    asked = client.ask_undo(match, x)
    mark(client, match, o, 0)  # O moves instead of answering: the position changed
    assert not client.match(match).HasField("undo_ask")
    error = error_of(client.answer_undo, match, o, True, ask_version=asked.version)
    assert (error.code, error.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NO_UNDO_ASKED")
    assert error_of(client.withdraw_undo, match, x).reason == "NO_UNDO_ASKED"
    assert error_of(client.ask_undo, match, x).reason == "UNDO_NOT_YOURS"  # O's move is the last one now
    assert story(client, match) == ["moved", "asked", "moved"]


def test_who_may_ask_answer_and_withdraw(client):
    match, x, o = new_match(client, seed=75)
    assert error_of(client.ask_undo, match, x).reason == "NOTHING_TO_UNDO"
    mark(client, match, x, 4)
    spectator = error_of(client.ask_undo, match, "")
    assert (spectator.code, spectator.reason) == (grpc.StatusCode.PERMISSION_DENIED, "SPECTATOR_FORBIDDEN")
    assert error_of(client.ask_undo, match, o).reason == "UNDO_NOT_YOURS"
    asked = client.ask_undo(match, x)
    assert error_of(client.ask_undo, match, x).reason == "UNDO_ALREADY_ASKED"
    assert error_of(client.answer_undo, match, x, True).reason == "UNDO_OWN_ASK"
    stale = error_of(client.answer_undo, match, o, True, ask_version=asked.version - 1)
    assert (stale.code, stale.reason) == (grpc.StatusCode.ABORTED, "STALE_UNDO_ASK")
    assert error_of(client.withdraw_undo, match, o).reason == "UNDO_NOT_YOURS"
    assert client.match(match).version == asked.version  # none of the refusals wrote anything
    withdrawn = client.withdraw_undo(match, x)
    assert withdrawn.version == asked.version + 1 and not withdrawn.HasField("ask")
    assert story(client, match) == ["moved", "asked", "withdrawn"]
    again = client.ask_undo(match, x)  # a new ask may follow
    assert client.answer_undo(match, o, True, ask_version=again.version).undone
    assert from_struct(client.view(match).state)["board"] == [None] * 9


def test_in_a_clocked_match_the_ask_stops_no_clock_and_the_undo_gives_nobody_time(client):
    match = client.create_match("tictactoe", seed=78, clock=300, increment=5).name
    x, o = client.join(match).player_token, client.join(match).player_token
    mark(client, match, x, 4)
    moved = client.match(match).clock
    client.ask_undo(match, x)
    assert client.match(match).clock.since == moved.since  # O's time runs on while asked
    client.answer_undo(match, o, True)
    clock = client.match(match).clock
    assert clock.remaining[0] == moved.remaining[0]  # X was not to move: nothing charged, no increment given back
    assert clock.remaining[1].ToNanoseconds() < moved.remaining[1].ToNanoseconds()  # O was: charged till the undo
    assert list(clock.running) == [0]


def test_against_a_bot_the_undo_needs_no_answer_and_survives_a_restart(start_host, tmp_path):
    """SQLite: the undo's step writes a snapshot; the restarted host loads the taken-back position."""
    host = start_host("--bot-delay-with-humans", "60", data_dir=tmp_path)  # the bot waits: X's move stays the last
    with host.client() as client:
        match = client.create_match("tictactoe", bots=[1], seed=76).name
        x = client.join(match).player_token
        moved = mark(client, match, x, 4)
        answer = client.ask_undo(match, x)
        assert answer.undone and answer.version == moved + 2
        assert story(client, match, x) == ["moved", "asked", "undone"]
    host.stop()
    host = start_host(data_dir=tmp_path)
    with host.client() as client:
        view = client.view(match, x)
        assert from_struct(view.state)["board"] == [None] * 9 and view.version == answer.version
        assert list(view.to_move) == [0]
        mark(client, match, x, 0)
        assert from_struct(client.view(match, x).state)["board"][0] == 0


def test_an_ask_on_one_replica_is_answered_through_the_other_on_postgresql(start_host, postgres_url):
    a, b = (start_host("--store", postgres_url, "--replica-id", name) for name in "ab")
    with a.client() as on_a, b.client() as on_b:
        match = on_a.create_match("tictactoe", seed=77).name
        x, o = on_a.join(match).player_token, on_b.join(match).player_token
        mark(on_a, match, x, 4)
        mark(on_b, match, o, 0)
        before = on_a.view(match, x)
        taken_back = mark(on_a, match, x, 8)
        on_b.view(match, o)  # b holds the position with the move, to be taken back under it
        asked = on_a.ask_undo(match, x)
        assert on_b.match(match).undo_ask.ask_version == asked.version  # b reads the ask from the shared log
        answer = on_b.answer_undo(match, o, True, ask_version=asked.version)
        assert answer.undone and answer.version == asked.version + 2
        for client, token in ((on_a, x), (on_b, o)):
            view = client.view(match, token)
            assert (view.version, view.state, list(view.to_move)) == (answer.version, before.state, [0])
        mark(on_a, match, x, 2)  # a moves on from the taken-back position
        assert from_struct(on_b.view(match, o).state)["board"] == [1, None, 0, None, 0, None, None, None, None]
        assert on_b.log(match) == on_a.log(match)
        assert story(on_a, match)[-4:] == ["asked", "accepted", "undone", "moved"]
        assert taken_back == asked.version - 1


def test_an_ask_lapses_after_its_lifetime_and_closes_at_any_event_but_an_acceptance():
    """What every replica reads from the log: the ask's time closes it, before its lapse event is written."""
    asked = {"version": 5, "kind": "undo_asked", "seat": 0, "time": 100.0, "undoes": 4,
             "expire_time": 100.0 + ASK_LIFETIME}
    accepted = {"version": 6, "kind": "undo_accepted", "seat": 2, "time": 101.0}
    assert open_ask([asked, accepted], now=101.0).accepted == (2,)
    assert open_ask([asked, accepted], now=100.0 + ASK_LIFETIME) is None
    assert open_ask([asked, {"version": 6, "kind": "bot_assigned", "seat": 1, "time": 101.0}], now=101.0) is None


def test_an_unanswered_ask_lapses_with_an_event_and_an_answered_one_does_not(start_host, tmp_path):
    """Part "gaps2": at its expire_time the host writes UNDO_LAPSED (seat: the
    asker, undoes: the move, which stands), so clients see the ask close; it
    is written after a restart too, and not for an ask answered in time."""
    host = start_host("--undo-ask-lifetime", "1", data_dir=tmp_path)
    with host.client() as client:
        match, x, o = new_match(client, seed=78)
        moved = mark(client, match, x, 4)
        asked = client.ask_undo(match, x)
        lapsed = next(e for e in client.watch(match, o, after_version=asked.version)
                      if e.kind != pb.EVENT_KIND_UNDO_ACCEPTED)
        assert (lapsed.kind, lapsed.version, lapsed.seat, lapsed.undoes) == \
            (pb.EVENT_KIND_UNDO_LAPSED, asked.version + 1, 0, moved)
        assert not client.match(match).HasField("undo_ask")
        assert error_of(client.answer_undo, match, o, True).reason == "NO_UNDO_ASKED"
        assert from_struct(client.view(match, o).state)["board"][4] == 0  # the move stands
        assert client.view(match, o).to_move == [1]

        mark(client, match, o, 0)
        answered = client.ask_undo(match, o)
        client.answer_undo(match, x, False)
        restart = client.ask_undo(match, o)
    host.stop()  # this ask lapses while no host runs: the next one writes its event at start
    host = start_host("--undo-ask-lifetime", "1", data_dir=tmp_path)
    with host.client() as client:
        after = next(e for e in client.watch(match, x, after_version=restart.version))
        assert (after.kind, after.seat) == (pb.EVENT_KIND_UNDO_LAPSED, 1)
        assert story(client, match, x) == ["moved", "asked", "lapsed", "moved", "asked", "refused", "asked", "lapsed"]
    assert answered.version + 1 < restart.version
