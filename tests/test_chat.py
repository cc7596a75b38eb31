"""A match's chat and its moderation, over real sockets: on a SQLite host,
and on two replicas of one PostgreSQL store where each test writes on one
replica and reads on the other. Players are signed in by the fixture
plugin's header (``x-fixture-user``), the admin by an API key."""

from __future__ import annotations

import queue
import threading
import uuid

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from databases import create_database, drop_database
from callers import Caller as StubCaller
from hosts import HostProcess, wait_for
from identities import write_api_keys

from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def hosts(request, tmp_path_factory):
    """(A, B): where a test writes and where it reads. One SQLite host (A is
    B), or two replicas of one fresh PostgreSQL database."""
    folder = tmp_path_factory.mktemp("chat")
    keys = folder / "api-keys.json"
    written = write_api_keys(keys, ("moderator", ["admin"]), ("troll", []))
    admin_key, troll_key = written["moderator"], written["troll"]
    args = ("--api-keys", str(keys))
    if request.param == "sqlite":
        host = HostProcess(*args, data_dir=folder / "data").start()
        yield host, host, admin_key, troll_key
        host.stop()
        return
    url = create_database()
    started = [HostProcess(*args, "--store", url, "--replica-id", name).start() for name in "ab"]
    yield started[0], started[1], admin_key, troll_key
    for host in started:
        host.stop()
    drop_database(url)


class Caller(StubCaller):
    """A caller who chats."""

    def send(self, match: str, text: str, token: str = "") -> pb.ChatMessage:
        return self("SendChat", pb.SendChatRequest(name=match, text=text, player_token=token))

    def chat(self, match: str) -> list[pb.ChatMessage]:
        return list(self("GetMatchLog", pb.GetMatchLogRequest(name=match)).chat)

    def texts(self, match: str) -> list[str]:
        return [message.text for message in self.chat(match)]

    def watch(self, match: str, after: int = 0, chat_only: bool = False) -> "ChatWatch":
        return ChatWatch(self, match, after, chat_only)

    def close(self) -> None:
        self.channel.close()


class ChatWatch:
    """A WatchMatch stream with chat, read by a thread into a queue."""

    def __init__(self, caller: Caller, match: str, after: int, chat_only: bool = False) -> None:
        self.stream = caller.game.WatchMatch(pb.WatchMatchRequest(name=match, with_chat=True, chat_only=chat_only,
                                                                  chat_after_sequence=after),
                                             metadata=caller.metadata)
        self.kinds: list[int] = []
        self.messages: queue.Queue[pb.ChatMessage] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for event in self.stream:
                self.kinds.append(event.kind)
                if event.kind == pb.EVENT_KIND_CHAT:
                    self.messages.put(event.chat)
        except grpc.RpcError:
            pass  # cancelled at the end of the test

    def next(self, timeout: float = 20) -> pb.ChatMessage:
        return self.messages.get(timeout=timeout)

    def close(self) -> None:
        self.stream.cancel()


def name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def details(error: grpc.RpcError) -> tuple[str, list[tuple[str, str]], float | None]:
    """(ErrorInfo reason, BadRequest field violations, RetryInfo seconds) of a refusal."""
    reason, fields, retry = "", [], None
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        info, bad, again = error_details_pb2.ErrorInfo(), error_details_pb2.BadRequest(), error_details_pb2.RetryInfo()
        if detail.Unpack(info):
            reason = info.reason
        elif detail.Unpack(bad):
            fields = [(v.field, v.description) for v in bad.field_violations]
        elif detail.Unpack(again):
            retry = again.retry_delay.seconds + again.retry_delay.nanos / 1e9
    return reason, fields, retry


@pytest.fixture()
def table(hosts):
    """A tictactoe match with two signed-in players seated, a spectator,
    each as a caller on replica A and on replica B."""
    a, b, admin_key, troll_key = hosts
    ann, bob, cy = name("ann"), name("bob"), name("cy")
    opened: list[Caller] = []

    def caller(host, user="", key=""):
        opened.append(Caller(host, user, key))
        return opened[-1]

    match = caller(a, ann)("CreateMatch", pb.CreateMatchRequest(game="games/tictactoe")).name
    tokens = {}
    for seat, user in enumerate((ann, bob)):
        tokens[user] = caller(a, user)("JoinMatch", pb.JoinMatchRequest(name=match, seat=seat)).player_token
    yield {"match": match, "tokens": tokens, "ann": (caller(a, ann), caller(b, ann)),
           "bob": (caller(a, bob), caller(b, bob)), "cy": (caller(a, cy), caller(b, cy)),
           "admin": (caller(a, key=admin_key), caller(b, key=admin_key)), "caller": caller, "hosts": (a, b),
           "troll": (caller(a, key=troll_key), caller(b, key=troll_key))}
    for opened_caller in opened:
        opened_caller.close()


def test_players_and_spectators_chat_on_their_channels_and_watchers_on_the_other_replica_see_it(table):
    match, (ann_a, ann_b), (cy_a, cy_b) = table["match"], table["ann"], table["cy"]
    spectator_watch, player_watch = cy_b.watch(match), ann_b.watch(match)
    try:
        sent = ann_a.send(match, "  good luck  ")
        assert (sent.sequence, sent.channel, sent.seat, sent.text) == (1, pb.CHAT_CHANNEL_PLAYERS, 0, "good luck")
        assert sent.sender == f"players/{ann_a.subject}"
        heard = spectator_watch.next()
        assert (heard.sequence, heard.text, heard.channel) == (1, "good luck", pb.CHAT_CHANNEL_PLAYERS)
        assert player_watch.next().text == "good luck"
        aside = cy_a.send(match, "ann will win")
        assert (aside.channel, aside.seat) == (pb.CHAT_CHANNEL_SPECTATORS, -1)
        assert spectator_watch.next().text == "ann will win"
        ann_a.send(match, "thanks")
        # The player's stream skipped the spectators' message: the next one it gets is "thanks".
        assert player_watch.next().text == "thanks"
    finally:
        spectator_watch.close()
        player_watch.close()
    assert ann_b.texts(match) == ["good luck", "thanks"]  # spectators' words stay out of a player's log
    assert cy_b.texts(match) == ["good luck", "ann will win", "thanks"]
    # Once the match is over, players read the spectators' channel too.
    table["admin"][0]("AbortMatch", pb.AbortMatchRequest(name=match), admin=True)
    assert wait_for(lambda: ann_b.texts(match) == ["good luck", "ann will win", "thanks"])


def test_the_chat_goes_through_the_session_stream(table):
    match, (ann_a, _), (_, bob_b) = table["match"], table["ann"], table["bob"]
    outbox: queue.Queue[pb.SessionRequest | None] = queue.Queue()
    outbox.put(pb.SessionRequest(tag=1, watch=pb.WatchMatchRequest(name=match, with_chat=True)))
    outbox.put(pb.SessionRequest(tag=2, send_chat=pb.SendChatRequest(name=match, text="via session")))
    events = bob_b.game.Session(iter(outbox.get, None), metadata=bob_b.metadata, timeout=30)
    answered, chat = None, []
    try:
        for event in events:
            if event.WhichOneof("event") == "chat_sent":
                answered = event.chat_sent
                ann_a.send(match, "seen on the stream")
            elif event.WhichOneof("event") == "match_event" and event.match_event.kind == pb.EVENT_KIND_CHAT:
                chat.append(event.match_event.chat.text)
                if "seen on the stream" in chat:
                    break
    finally:
        outbox.put(None)
        events.cancel()
    assert answered is not None and answered.text == "via session" and answered.seat == 1
    assert chat == ["via session", "seen on the stream"]


def test_a_message_out_of_bounds_or_anonymous_is_refused_and_stores_nothing(table):
    match, (ann_a, ann_b) = table["match"], table["ann"]
    error = ann_a.refused("SendChat", pb.SendChatRequest(name=match, text="x" * 501))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details(error)[1][0][0] == "text" and "500" in error.details()
    error = ann_a.refused("SendChat", pb.SendChatRequest(name=match, text="   "))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and details(error)[1][0][0] == "text"
    anonymous = table["caller"](table["hosts"][0])
    error = anonymous.refused("SendChat", pb.SendChatRequest(name=match, text="hi"))
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED and "sign in" in error.details()
    assert ann_a.send(match, "x" * 500).sequence == 1  # the longest message passes, and took the first number
    assert ann_b.texts(match) == ["x" * 500]


def test_a_caller_past_the_chat_rate_is_refused_with_when_to_retry(table):
    match, (ann_a, ann_b) = table["match"], table["ann"]
    for number in range(5):
        ann_a.send(match, f"message {number}")
    error = ann_a.refused("SendChat", pb.SendChatRequest(name=match, text="one too many"))
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    reason, _, retry = details(error)
    assert reason == "CHAT_RATE" and retry is not None and 0 < retry <= 2.5
    assert "Retry in" in error.details()
    assert ann_b.texts(match) == [f"message {number}" for number in range(5)]
    # Another caller has a budget of their own.
    assert table["bob"][0].send(match, "my turn to talk").sequence == 6


def test_the_replay_log_holds_the_chat_of_a_finished_match(table):
    match, tokens = table["match"], table["tokens"]
    (ann_a, _), (bob_a, _), (cy_a, _) = table["ann"], table["bob"], table["cy"]
    version = ann_a("GetMatch", pb.GetMatchRequest(name=match)).version
    ann_a.send(match, "gl hf")
    cy_a.send(match, "watching")
    assert table["ann"][1]("GetMatch", pb.GetMatchRequest(name=match)).version == version  # chat is no step
    for move, player in zip(["a1", "b1", "a2", "b2", "a3"], [ann_a, bob_a] * 3):
        player("SubmitMove", pb.SubmitMoveRequest(name=match, player_token=tokens[player.subject], move_id=move))
    bob_a.send(match, "gg")
    replay = table["bob"][1]("GetMatchLog", pb.GetMatchLogRequest(name=match))
    assert replay.complete
    assert [(m.text, m.channel) for m in replay.chat] == [
        ("gl hf", pb.CHAT_CHANNEL_PLAYERS), ("watching", pb.CHAT_CHANNEL_SPECTATORS), ("gg", pb.CHAT_CHANNEL_PLAYERS)]
    # A resuming watcher gets the chat after the sequence it names; asking for the chat only, nothing else.
    watch = table["cy"][1].watch(match, after=2)
    chat_only = table["cy"][1].watch(match, chat_only=True)
    try:
        assert watch.next().text == "gg"
        assert [chat_only.next().text for _ in range(3)] == ["gl hf", "watching", "gg"]
        chat_only.thread.join(20)  # the match is over: the stream ends once its chat is sent
        assert chat_only.kinds == [pb.EVENT_KIND_CHAT] * 3
    finally:
        watch.close()
        chat_only.close()


def test_an_admin_hides_a_message_for_everyone_and_keeps_it_for_audit(table):
    match, (ann_a, _), (cy_a, cy_b), (admin_a, admin_b) = table["match"], table["ann"], table["cy"], table["admin"]
    ann_a.send(match, "something rude")
    watch = cy_b.watch(match)
    try:
        assert watch.next().text == "something rude"
        hidden = admin_a("HideMessage", pb.HideMessageRequest(name=match, sequence=1), admin=True)
        assert hidden.hidden and hidden.text == "something rude"
        again = watch.next()  # the same message once more, hidden, without its words
        assert (again.sequence, again.hidden, again.text) == (1, True, "")
    finally:
        watch.close()
    assert [(m.hidden, m.text) for m in cy_a.chat(match)] == [(True, "")]
    assert [(m.hidden, m.text) for m in admin_b.chat(match)] == [(True, "something rude")]
    refused = cy_a.refused("HideMessage", pb.HideMessageRequest(name=match, sequence=1), admin=True)
    assert refused.code() == grpc.StatusCode.PERMISSION_DENIED
    missing = admin_a.refused("HideMessage", pb.HideMessageRequest(name=match, sequence=99), admin=True)
    assert missing.code() == grpc.StatusCode.NOT_FOUND


def test_a_banned_user_is_refused_on_every_replica_until_unbanned(table):
    match, (bob_a, bob_b), (admin_a, admin_b) = table["match"], table["bob"], table["admin"]
    subject = bob_a.subject
    assert bob_b("GetIdentity", pb.GetIdentityRequest()).subject == subject
    ban = admin_a("BanUser", pb.BanUserRequest(player=f"players/{subject}", reason="abuse in chat"), admin=True)
    assert ban.active and ban.player == f"players/{subject}" and ban.reason == "abuse in chat"

    def refused_on(caller: Caller) -> bool:
        try:
            caller("GetIdentity", pb.GetIdentityRequest())
        except grpc.RpcError as error:
            return error.code() == grpc.StatusCode.PERMISSION_DENIED
        return False

    assert wait_for(lambda: refused_on(bob_b), timeout=20), "replica B still serves the banned user"
    assert refused_on(bob_a)
    error = bob_b.refused("SubmitMove", pb.SubmitMoveRequest(name=match, player_token=table["tokens"][subject],
                                                              move_id="a1"))
    assert error.code() == grpc.StatusCode.PERMISSION_DENIED and details(error)[0] == "BANNED"
    assert "banned" in error.details() and "abuse in chat" in error.details()
    error = bob_a.refused("SendChat", pb.SendChatRequest(name=match, text="let me in"))
    assert details(error)[0] == "BANNED"
    assert admin_b.texts(match) == []
    admin_b("UnbanUser", pb.UnbanUserRequest(player=f"players/{subject}"), admin=True)
    assert wait_for(lambda: not refused_on(bob_a), timeout=20), "replica A still refuses the unbanned user"
    missing = admin_b.refused("UnbanUser", pb.UnbanUserRequest(player=f"players/{subject}"), admin=True)
    assert missing.code() == grpc.StatusCode.NOT_FOUND


def test_an_api_key_of_a_banned_subject_is_refused_and_an_admin_cannot_ban_themselves(table):
    (troll_a, troll_b), (admin_a, admin_b) = table["troll"], table["admin"]
    assert troll_b("GetIdentity", pb.GetIdentityRequest()).subject == "troll"
    admin_b("BanUser", pb.BanUserRequest(player="players/troll", reason="spam"), admin=True)
    try:
        def refused() -> bool:
            try:
                troll_a("GetIdentity", pb.GetIdentityRequest())
            except grpc.RpcError as error:
                return error.code() == grpc.StatusCode.PERMISSION_DENIED and details(error)[0] == "BANNED"
            return False

        assert wait_for(refused, timeout=20), "the banned subject's API key still works on replica A"
    finally:
        admin_a("UnbanUser", pb.UnbanUserRequest(player="players/troll"), admin=True)
    error = admin_a.refused("BanUser", pb.BanUserRequest(player="players/moderator"), admin=True)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert admin_b("GetIdentity", pb.GetIdentityRequest()).subject == "moderator"


def test_a_muted_user_s_messages_leave_the_muter_s_sight_only(table):
    match, (ann_a, ann_b), (bob_a, _), (cy_a, cy_b) = table["match"], table["ann"], table["bob"], table["cy"]
    bob_a.send(match, "before the mute")
    relations = ann_a("MuteUser", pb.MuteUserRequest(player=f"players/{bob_a.subject}"))
    assert list(relations.muted) == [f"players/{bob_a.subject}"] and not relations.blocked
    bob_a.send(match, "after the mute")
    ann_a.send(match, "quiet now")
    assert ann_b.texts(match) == ["quiet now"]
    assert cy_b.texts(match) == ["before the mute", "after the mute", "quiet now"]
    watch = ann_b.watch(match)
    try:
        bob_a.send(match, "still muted")
        ann_a.send(match, "hello cy")
        assert watch.next().text == "quiet now"
        assert watch.next().text == "hello cy"
    finally:
        watch.close()
    ann_b("UnmuteUser", pb.UnmuteUserRequest(player=f"players/{bob_a.subject}"))
    assert wait_for(lambda: "after the mute" in ann_a.texts(match))
    assert ann_a("GetChatRelations", pb.GetChatRelationsRequest()) == pb.ChatRelations()
    error = ann_a.refused("MuteUser", pb.MuteUserRequest(player=f"players/{ann_a.subject}"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_blocked_users_do_not_read_each_other_nor_get_seated_together(table):
    match, (ann_a, ann_b), (bob_a, bob_b), (cy_a, _) = table["match"], table["ann"], table["bob"], table["cy"]
    ann_a("BlockUser", pb.BlockUserRequest(player=f"players/{bob_a.subject}"))
    ann_a.send(match, "from ann")
    bob_a.send(match, "from bob")
    assert ann_b.texts(match) == ["from ann"]
    assert bob_b.texts(match) == ["from bob"]  # the blocked side no longer reads the blocker either
    assert table["cy"][1].texts(match) == ["from ann", "from bob"]
    # Matchmaking: ann and bob queue first; the next player is seated with ann, never bob with ann.
    a, b = table["hosts"]
    dee = table["caller"](b, name("dee"))
    tickets = {}
    for caller in (ann_a, bob_b, dee):
        tickets[caller.subject] = caller("CreateTicket", pb.CreateTicketRequest(game="games/tictactoe", seats=2))

    def ticket(caller: Caller) -> pb.Ticket:
        return caller("GetTicket", pb.GetTicketRequest(name=tickets[caller.subject].name))

    assert wait_for(lambda: ticket(dee).state == pb.TICKET_STATE_MATCHED, timeout=30)
    assert ticket(ann_a).match == ticket(dee).match
    assert ticket(bob_a).state == pb.TICKET_STATE_QUEUED
    bob_a("CancelTicket", pb.CancelTicketRequest(name=tickets[bob_a.subject].name))
    assert cy_a("GetChatRelations", pb.GetChatRelationsRequest()) == pb.ChatRelations()


def test_players_report_messages_and_players_and_admins_list_the_reports(table):
    match, (ann_a, _), (bob_a, bob_b), (admin_a, admin_b) = table["match"], table["ann"], table["bob"], table["admin"]
    ann_a.send(match, "you are bad")
    report = bob_b("ReportChat", pb.ReportChatRequest(name=match, sequence=1, reason="insult"))
    assert report.reported == f"players/{ann_a.subject}" and report.reporter == f"players/{bob_a.subject}"
    bob_a("ReportPlayer", pb.ReportPlayerRequest(player=f"players/{ann_a.subject}", reason="rude all game",
                                                 match=match))
    missing = bob_a.refused("ReportChat", pb.ReportChatRequest(name=match, sequence=7, reason="?"))
    assert missing.code() == grpc.StatusCode.NOT_FOUND
    listed = admin_b("ListReports", pb.ListReportsRequest(reported=f"players/{ann_a.subject}"), admin=True)
    assert [(r.reason, r.sequence) for r in listed.reports] == [("rude all game", 0), ("insult", 1)]
    assert listed.reports[1].message.text == "you are bad" and listed.reports[1].match == match
    first = admin_a("ListReports", pb.ListReportsRequest(reported=f"players/{ann_a.subject}", page_size=1),
                    admin=True)
    second = admin_a("ListReports", pb.ListReportsRequest(reported=f"players/{ann_a.subject}", page_size=1,
                                                          page_token=first.next_page_token), admin=True)
    assert [r.reason for r in [*first.reports, *second.reports]] == ["rude all game", "insult"]
    refused = bob_a.refused("ListReports", pb.ListReportsRequest(), admin=True)
    assert refused.code() == grpc.StatusCode.PERMISSION_DENIED


def test_a_plugin_s_word_filter_masks_words_and_refuses_messages(table):
    match, (ann_a, ann_b) = table["match"], table["ann"]
    assert ann_a.send(match, "a gremlin ate it").text == "a ******* ate it"
    error = ann_a.refused("SendChat", pb.SendChatRequest(name=match, text="the Forbidden-Fruit"))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and details(error)[0] == "CHAT_REFUSED"
    assert ann_a.send(match, "filter-crash passes").text == "filter-crash passes"  # a failing filter is passed over
    assert ann_b.texts(match) == ["a ******* ate it", "filter-crash passes"]
