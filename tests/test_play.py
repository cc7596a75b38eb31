"""Playing a match over a real socket, and following it live."""

from __future__ import annotations

import threading

from gamehost.v1 import gamehost_pb2 as pb

X_WINS_TOP_ROW = ["a3", "a2", "b3", "b2", "c3"]  # X: a3 b3 c3; O: a2 b2


def collect_events(client, match, after_version=0, token=""):
    """Watch in a thread; returns (events list, thread)."""
    events: list[pb.MatchEvent] = []

    def run():
        events.extend(client.watch(match, token, after_version=after_version))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return events, thread


def test_create_join_twice_play_to_the_end(client):
    match = client.create_match("tictactoe", seed=7)
    assert match.status == pb.MATCH_STATUS_OPEN and [s.kind for s in match.seats] == [pb.SEAT_KIND_OPEN] * 2
    spectator_events, watcher = collect_events(client, match.name)
    x = client.join(match.name, player_name="xavier")
    o = client.join(match.name, player_name="olga")
    assert (x.seat, o.seat) == (0, 1) and x.player_token != o.player_token
    assert o.match.status == pb.MATCH_STATUS_ACTIVE
    tokens = [x.player_token, o.player_token]
    for turn, move_id in enumerate(X_WINS_TOP_ROW):
        view = client.view(match.name, tokens[turn % 2])
        assert list(view.to_move) == [turn % 2]
        assert move_id in [m.id for m in view.legal_moves]
        answer = client.move(match.name, tokens[turn % 2], move_id=move_id, expected_version=view.version,
                             view=True)
        assert answer.version == view.version + 1
    assert answer.view.version == answer.version + 1, "the winning move's event, then FINISHED"
    final = client.match(match.name)
    assert final.status == pb.MATCH_STATUS_FINISHED
    assert list(final.result.winners) == [0] and list(final.result.ranking) == [1, 2]
    assert final.result.summary == "X wins."
    watcher.join(10)
    assert not watcher.is_alive(), "the watch stream ends with the match"
    assert [e.version for e in spectator_events] == list(range(1, final.version + 1))
    kinds = [pb.EventKind.Name(e.kind) for e in spectator_events]
    assert kinds == ["EVENT_KIND_JOINED", "EVENT_KIND_JOINED", "EVENT_KIND_STARTED",
                     *["EVENT_KIND_MOVED"] * 5, "EVENT_KIND_FINISHED"]
    assert [e.label for e in spectator_events if e.kind == pb.EVENT_KIND_MOVED] == [
        "X on a3", "O on a2", "X on b3", "O on b2", "X on c3"]
    last = spectator_events[-1]
    assert last.view.status == pb.MATCH_STATUS_FINISHED and last.view.seat == -1
    assert list(last.view.result.winners) == [0]


def test_watcher_that_drops_and_resumes_misses_nothing_and_sees_nothing_twice(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    o = client.join(match.name).player_token
    client.move(match.name, x, move_id="a3")
    first = []
    for event in client.watch(match.name, x):
        first.append(event)
        if event.version == 4:
            break  # the client drops here
    client.move(match.name, o, move_id="a2")
    client.move(match.name, x, move_id="b3")
    second, watcher = collect_events(client, match.name, after_version=first[-1].version, token=x)
    client.move(match.name, o, move_id="b2")
    client.move(match.name, x, move_id="c3")
    watcher.join(10)
    versions = [e.version for e in first] + [e.version for e in second]
    assert versions == list(range(1, client.match(match.name).version + 1))
    assert second[0].version == 5


def test_watch_delivers_each_seat_its_own_view_with_its_legal_moves(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    o = client.join(match.name).player_token
    x_events, x_watch = collect_events(client, match.name, after_version=3, token=x)
    o_events, o_watch = collect_events(client, match.name, after_version=3, token=o)
    for token, move_id in zip([x, o, x, o, x], X_WINS_TOP_ROW):
        client.move(match.name, token, move_id=move_id)
    x_watch.join(10), o_watch.join(10)
    for events, seat in ((x_events, 0), (o_events, 1)):
        assert [e.version for e in events] == list(range(4, 10))
        views = [e.view for e in events if e.HasField("view")]
        assert views and all(v.seat == seat for v in views)
    # The newest event of each batch carries the viewer's view after it: O's view after X's
    # first move offers O's eight moves; the last view is the finished match.
    for event in o_events:
        if event.HasField("view") and event.version == 4:
            assert list(event.view.to_move) == [1] and len(event.view.legal_moves) == 8
    assert o_events[-1].HasField("view") and o_events[-1].view.status == pb.MATCH_STATUS_FINISHED


def test_bots_play_their_seats(client):
    match = client.create_match("tictactoe", bots=[1], seed=3)
    me = client.join(match.name, seat=0)
    events, watcher = collect_events(client, match.name, token=me.player_token)
    while True:
        view = client.view(match.name, me.player_token)
        if view.status != pb.MATCH_STATUS_ACTIVE:
            break
        if view.legal_moves:
            client.move(match.name, me.player_token, move_id=view.legal_moves[0].id, expected_version=view.version)
        else:
            next(iter(client.watch(match.name, me.player_token, after_version=view.version)))
    watcher.join(10)
    assert view.status == pb.MATCH_STATUS_FINISHED
    bot_moves = [e for e in events if e.kind == pb.EVENT_KIND_MOVED and e.seat == 1]
    assert bot_moves, "the bot seat moved"


def test_match_of_bots_only_plays_itself_and_replays_to_the_same_result(client):
    from gamehost.client import from_struct
    from gamehost_tictactoe.game import TicTacToe
    from gamehost.sdk.replay import RecordedMove, initial_state, replay

    match = client.create_match("tictactoe", bots=[0, 1], seed=11)
    assert match.status == pb.MATCH_STATUS_ACTIVE
    list(client.watch(match.name))  # until it ends
    log = client.log(match.name)
    assert log.complete and log.HasField("seed") and log.seed == 11
    game = TicTacToe()
    state = initial_state(game, log.seats, from_struct(log.options), log.seed)
    moves = [RecordedMove(e.version, e.seat, from_struct(e.move)) for e in log.events if e.kind == pb.EVENT_KIND_MOVED]
    outcome = game.outcome(replay(game, state, log.seed, moves))
    assert list(outcome.ranking) == list(log.result.ranking)


def test_a_move_is_acknowledged_leanly_unless_the_view_is_asked_for(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    o = client.join(match.name).player_token
    lean = client.move(match.name, x, move_id="b2")
    assert lean.version == 4 and not lean.HasField("view")
    full = client.move(match.name, o, move_id="a1", view=True)
    assert full.view.seat == 1 and full.view.version == 5 and list(full.view.to_move) == [0]
    rendered = client.move(match.name, x, move_id="c3", text=True)
    assert rendered.view.text and rendered.view.version == 6


def test_listed_matches_say_who_is_to_move(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    client.join(match.name)
    client.move(match.name, x, move_id="a1")
    listed = next(m for m in client.matches(game="tictactoe") if m.name == match.name)
    assert list(listed.to_move) == [1] == list(client.match(match.name).to_move)


def test_log_during_play_is_public_and_has_no_seed(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    client.join(match.name)
    client.move(match.name, x, move_id="b2")
    log = client.log(match.name)
    assert not log.complete and not log.HasField("seed")
    assert [e.label for e in log.events if e.kind == pb.EVENT_KIND_MOVED] == ["X on b2"]


def test_list_matches_filters_by_game_and_status_and_pages(client):
    created = [client.create_match("tictactoe").name for _ in range(5)]
    crashy = client.create_match("crashy").name
    open_tictactoe = client.matches(game="tictactoe", status=pb.MATCH_STATUS_OPEN)
    names = [m.name for m in open_tictactoe]
    assert set(created) <= set(names) and crashy not in names
    assert all(m.game == "games/tictactoe" and m.status == pb.MATCH_STATUS_OPEN for m in open_tictactoe)
    from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

    pages, token = [], ""
    while True:
        page = client.stub.ListMatches(pb.ListMatchesRequest(game="games/tictactoe", page_size=2, page_token=token))
        pages.append([m.name for m in page.matches])
        token = page.next_page_token
        if not token:
            break
    flat = [name for page in pages for name in page]
    assert all(len(page) <= 2 for page in pages) and len(flat) == len(set(flat))
    assert set(created) <= set(flat)
    assert flat.index(created[-1]) < flat.index(created[0]), "newest first"


def test_leaving_an_open_match_frees_the_seat_and_leaving_an_active_one_abandons_it(client):
    match = client.create_match("tictactoe")
    first = client.join(match.name, seat=0)
    freed = client.leave(match.name, first.player_token)
    assert freed.seats[0].kind == pb.SEAT_KIND_OPEN and freed.status == pb.MATCH_STATUS_OPEN
    x = client.join(match.name, seat=0).player_token
    client.join(match.name, seat=1)
    abandoned = client.leave(match.name, x)
    assert abandoned.status == pb.MATCH_STATUS_ABANDONED
    kinds = [e.kind for e in client.log(match.name).events]
    assert kinds[-2:] == [pb.EVENT_KIND_LEFT, pb.EVENT_KIND_ABANDONED]


def test_views_render_text_and_svg_with_clickable_move_targets(client):
    match = client.create_match("tictactoe")
    x = client.join(match.name).player_token
    client.join(match.name)
    view = client.view(match.name, x, text=True, svg=True)
    assert "a b c" in view.text
    assert view.svg.startswith("<svg") and view.svg.count("data-move=") == 9


def test_create_match_with_the_same_request_id_returns_the_first_match(client):
    first = client.create_match("tictactoe", request_id="create-once")
    again = client.create_match("tictactoe", request_id="create-once")
    assert first.name == again.name
    assert len([m for m in client.matches(game="tictactoe") if m.name == first.name]) == 1


def test_options_take_defaults_then_the_variant_then_what_the_request_names(client):
    from gamehost.client import from_struct

    assert from_struct(client.create_match("crashy").options) == {"target": 5, "first_seat": 0}
    assert from_struct(client.create_match("crashy", variant="long").options)["target"] == 9
    assert from_struct(client.create_match("crashy", variant="long", options={"target": 7}).options)["target"] == 7
    match = client.create_match("crashy", options={"target": 3})
    assert client.view(match.name).state.fields["target"].number_value == 3
