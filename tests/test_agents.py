"""Remote agents (ServeAgent): agent processes on the Python library and
the Go example play bot seats of every shipped game, on SQLite and across
two PostgreSQL replicas; agents that answer late, answer illegal moves or
leave mid-match get the fallback bot and strikes, and the matches finish."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import grpc
import pytest
from gamehost.client import GameHostClient, GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc

from go_client import GO, GO_MODULE
from hosts import HostProcess, wait_for
from identities import write_api_keys

GAMES = ("tictactoe", "campanile", "callisto", "burgbaumeister", "scalino", "scalino-pyramid", "kensington")
AGENT_TIMEOUT = "1.5"  # seconds an agent has per turn: late answers cost this much each
# Across replicas a turn's view is read on the agent's replica, which first
# takes the other's steps: more time, on a loaded machine, than on one host.
REPLICA_AGENT_TIMEOUT = "4"
PLAYER = Path(__file__).parent / "agent_player.py"

pytestmark = pytest.mark.long_running


class AgentProcess:
    """An agent in a child process; its JSON lines (verdicts, registrations) are collected."""

    def __init__(self, command: list[str]) -> None:
        self.lines: list[dict] = []
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._collect, daemon=True).start()

    def _collect(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                self.lines.append(json.loads(line))
            except json.JSONDecodeError:
                pass

    def outcomes(self, outcome: str) -> list[dict]:
        return [line for line in self.lines if line.get("outcome") == outcome]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    path = tmp_path_factory.mktemp("keys") / "api-keys.json"
    return path, write_api_keys(path, ("robots", ["agent"]), ("ops", ["admin"]), ("someone", []))


@pytest.fixture(scope="module")
def go_random_agent(tmp_path_factory) -> Path:
    assert GO, "go must be on PATH"
    binary = tmp_path_factory.mktemp("go") / "random-agent"
    built = subprocess.run([GO, "build", "-buildvcs=false", "-o", str(binary), "./cmd/random-agent"], cwd=GO_MODULE,
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    return binary


@pytest.fixture()
def agents():
    """Start agent processes; all are stopped after the test."""
    started: list[AgentProcess] = []

    def start(command: list[str]) -> AgentProcess:
        started.append(AgentProcess(command))
        return started[-1]

    yield start
    for process in started:
        process.stop()


def python_agent(target: str, key: str, name: str, behaviour: str, games=GAMES, *extra: str) -> list[str]:
    return [sys.executable, str(PLAYER), target, key, name, behaviour, *games, *extra]


def go_agent(binary: Path, target: str, key: str, name: str, games=GAMES) -> list[str]:
    return [str(binary), "-host", target, "-bearer-token", key, "-name", name, "-seed", "5",
            *(flag for game in games for flag in ("-game", game))]


def agent_bots(client: GameHostClient, game: str) -> set[str]:
    return {bot.name for bot in client.game(game).bots if bot.agent}


def wait_finished(client: GameHostClient, matches: list[str], timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    for match in matches:
        while client.match(match).status != pb.MATCH_STATUS_FINISHED:
            assert time.monotonic() < deadline, f"{match} did not finish: {client.match(match)}"
            time.sleep(0.1)


def played(host: HostProcess, agent: str) -> list[dict]:
    """The host's log lines of the moves ``agent`` chose that were played."""
    return [line for line in host.logs if line.get("event") == "agent's move played" and line.get("agent") == agent]


def moves_by(client: GameHostClient, match: str) -> list[pb.MatchEvent]:
    return [event for event in client.log(match).events if event.kind == pb.EVENT_KIND_MOVED]


def play_every_game(create_on: GameHostClient, admin: GameHostClient, python_bot: str, go_bot: str,
                    seed: int) -> list[str]:
    """A match of every game, the Python agent against the Go agent (the
    second seat handed to the Go agent by AssignBot, which refuses an
    agent that does not play the game)."""
    matches = []
    for number, game in enumerate(GAMES):
        match = create_on.create_match(game, bots=[0], bot=python_bot, seed=seed + number).name
        if game == "callisto":  # the late agent plays tic-tac-toe only
            with pytest.raises(GameHostError) as raised:
                admin.assign_bot(match, 1, "agent:late")
            assert raised.value.reason == "AGENT_NOT_CONNECTED"
        admin.assign_bot(match, 1, go_bot)
        matches.append(match)
    return matches


def test_agents_play_every_game_and_misbehaving_ones_get_the_fallback_on_sqlite(
        start_host, keys, agents, go_random_agent, tmp_path):
    path, key = keys
    host = start_host("--api-keys", str(path), "--agent-timeout", AGENT_TIMEOUT, "--bot-delay", "0",
                      data_dir=tmp_path)
    robots = key["robots"]
    python = agents(python_agent(host.target, robots, "py-random", "random"))
    go = agents(go_agent(go_random_agent, host.target, robots, "go-random"))
    late = agents(python_agent(host.target, robots, "late", "late", ("tictactoe",)))
    illegal = agents(python_agent(host.target, robots, "illegal", "illegal", ("tictactoe", "callisto")))
    leaving = agents(python_agent(host.target, robots, "leaving", "leaving", ("tictactoe", "scalino")))
    with host.client() as client, host.client(key["ops"]) as admin:
        assert wait_for(lambda: agent_bots(client, "tictactoe") == {
            "agent:py-random", "agent:go-random", "agent:late", "agent:illegal", "agent:leaving"}, 30)
        assert agent_bots(client, "kensington") == {"agent:py-random", "agent:go-random"}
        shipped = {f"gamehost-{folder.name}" for folder in (Path(__file__).parents[1] / "plugins").iterdir()}
        assert {game.id for game in client.games() if game.plugin.split()[0] in shipped} == set(GAMES)
        matches = play_every_game(client, admin, "agent:py-random", "agent:go-random", seed=11)
        late_match = client.create_match("tictactoe", bots=[0, 1], bot="agent:late", seed=3).name
        illegal_matches = [client.create_match(game, bots=[0, 1], bot="agent:illegal", seed=4).name
                           for game in ("tictactoe", "callisto")]
        leaving_matches = [client.create_match(game, bots=[0, 1], bot="agent:leaving", seed=5).name
                           for game in ("tictactoe", "scalino")]
        wait_finished(client, [*matches, late_match, *illegal_matches, *leaving_matches])

        # The well-behaved agents played every move of their matches themselves.
        played_by = {name: len(played(host, name)) for name in ("py-random", "go-random")}
        assert wait_for(lambda: len(python.outcomes("OUTCOME_PLAYED")) == played_by["py-random"], 10)
        assert played_by["go-random"]
        assert not python.outcomes("OUTCOME_TIMED_OUT") and not python.outcomes("OUTCOME_REFUSED")
        assert sum(len(moves_by(client, match)) for match in matches) == sum(played_by.values())
        assert not [line for line in host.logs if line.get("event", "").startswith("agent") and
                    line.get("agent") in ("py-random", "go-random") and line.get("level") == "warning"]

        # Late answers: the fallback bot played those moves, each a strike, counted on.
        timed_out = late.outcomes("OUTCOME_TIMED_OUT")
        assert timed_out and [line["strikes"] for line in timed_out] == list(range(1, len(timed_out) + 1))
        assert late.outcomes("OUTCOME_PLAYED")
        # Illegal answers: refused with the reason SubmitMove gives, the fallback bot played them.
        refused = illegal.outcomes("OUTCOME_REFUSED")
        assert refused and {line["reason"] for line in refused} == {"UNKNOWN_MOVE"}
        assert len(refused) + len(illegal.outcomes("OUTCOME_PLAYED")) == sum(
            len(moves_by(client, match)) for match in illegal_matches)
        # Leaving mid-match: it came back, and its matches went on through its seats.
        assert [line for line in leaving.lines if "left" in line]
        assert len([line for line in leaving.lines if "registered" in line]) >= 2
        assert leaving.outcomes("OUTCOME_PLAYED")


def test_agents_on_one_replica_play_matches_moved_on_the_other(start_host, postgres_url, keys, agents,
                                                                go_random_agent):
    """The Python agents hold streams to replica a, the Go agent to b; the
    matches are created on the other replica than their agents', and the
    leaving agent comes back on the other replica each time."""
    path, key = keys
    a, b = [start_host("--store", postgres_url, "--api-keys", str(path), "--agent-timeout", REPLICA_AGENT_TIMEOUT,
                       "--bot-delay", "0", "--replica-id", name) for name in "ab"]
    robots = key["robots"]
    python = agents(python_agent(a.target, robots, "py-random", "random"))
    agents(go_agent(go_random_agent, b.target, robots, "go-random"))
    late = agents(python_agent(a.target, robots, "late", "late", ("tictactoe",)))
    illegal = agents(python_agent(b.target, robots, "illegal", "illegal", ("tictactoe",)))
    leaving = agents(python_agent(a.target, robots, "leaving", "leaving", ("tictactoe",), "--back-at", b.target))
    everyone = {"agent:py-random", "agent:go-random", "agent:late", "agent:illegal", "agent:leaving"}
    with a.client() as on_a, b.client() as on_b, b.client(key["ops"]) as admin_b:
        for replica in (on_a, on_b):  # each replica knows the agents the other holds
            assert wait_for(lambda: agent_bots(replica, "tictactoe") == everyone, 30)
        matches = play_every_game(on_b, admin_b, "agent:py-random", "agent:go-random", seed=21)
        misbehaving = [on_b.create_match("tictactoe", bots=[0, 1], bot="agent:late", seed=6).name,
                       on_a.create_match("tictactoe", bots=[0, 1], bot="agent:illegal", seed=7).name,
                       on_b.create_match("tictactoe", bots=[0, 1], bot="agent:leaving", seed=8).name]
        wait_finished(on_a, [*matches, *misbehaving])
        for match in matches + misbehaving:  # one gapless log, each move once
            log = on_a.log(match).events
            assert [event.version for event in log] == list(range(1, len(log) + 1))
        hosts = (a, b)
        agent_moves = sum(len(played(host, name)) for host in hosts for name in ("py-random", "go-random"))
        fallbacks = [line for host in hosts for line in host.logs if line.get("agent") in ("py-random", "go-random")
                     and line.get("level") == "warning"]
        assert sum(len(moves_by(on_a, match)) for match in matches) == agent_moves, fallbacks[:5]
        assert wait_for(lambda: len(python.outcomes("OUTCOME_PLAYED")) == sum(
            len(played(host, "py-random")) for host in hosts), 10)
        assert not python.outcomes("OUTCOME_TIMED_OUT") and not python.outcomes("OUTCOME_REFUSED")
        assert late.outcomes("OUTCOME_TIMED_OUT") and late.outcomes("OUTCOME_PLAYED")
        assert {line["reason"] for line in illegal.outcomes("OUTCOME_REFUSED")} == {"UNKNOWN_MOVE"}
        assert [line for line in leaving.lines if "left" in line] and leaving.outcomes("OUTCOME_PLAYED")
        assert any(line.get("event") == "agent connected" and line.get("agent") == "leaving" for line in b.logs)


def serve_agent(target: str, key: str, *requests: pb.AgentRequest) -> list[pb.AgentEvent]:
    """The events a ServeAgent stream sends for ``requests`` until it ends or has sent two."""
    with grpc.insecure_channel(target) as channel:
        call = pb_grpc.GameHostStub(channel).ServeAgent(
            iter(requests), metadata=(("authorization", f"Bearer {key}"),) if key else None, timeout=10)
        events = []
        try:
            for event in call:
                events.append(event)
                if len(events) == len(requests):
                    break
        finally:
            call.cancel()
        return events


def registration(name: str, *games: str) -> pb.AgentRequest:
    return pb.AgentRequest(register=pb.AgentRegistration(name=name, games=list(games)))


def refusal(target: str, key: str, *requests: pb.AgentRequest) -> GameHostError:
    with pytest.raises(grpc.RpcError) as raised:
        serve_agent(target, key, *requests)
    return GameHostError.from_rpc_error(raised.value)


def test_refused_agents_and_seats_change_nothing(start_host, keys):
    path, key = keys
    host = start_host("--api-keys", str(path))
    anonymous = refusal(host.target, "", registration("ann", "games/tictactoe"))
    assert (anonymous.code, anonymous.reason) == (grpc.StatusCode.UNAUTHENTICATED, "AUTHENTICATION_REQUIRED")
    no_role = refusal(host.target, key["someone"], registration("ann", "games/tictactoe"))
    assert (no_role.code, no_role.reason, no_role.metadata["role"]) == (
        grpc.StatusCode.PERMISSION_DENIED, "ROLE_REQUIRED", "agent")
    robots = key["robots"]
    bad_name = refusal(host.target, robots, registration("Ann Smith", "games/tictactoe"))
    assert bad_name.code == grpc.StatusCode.INVALID_ARGUMENT and bad_name.field_violations[0][0] == "register.name"
    no_games = refusal(host.target, robots, registration("ann"))
    assert no_games.code == grpc.StatusCode.INVALID_ARGUMENT and no_games.field_violations[0][0] == "register.games"
    unknown_game = refusal(host.target, robots, registration("ann", "games/chess"))
    assert (unknown_game.code, unknown_game.reason) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND")
    move_first = refusal(host.target, robots, pb.AgentRequest(move=pb.AgentMove(turn_id="x/1/0", move_id="a1")))
    assert (move_first.code, move_first.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "AGENT_NOT_REGISTERED")
    with host.client() as client:
        assert not agent_bots(client, "tictactoe")  # no refused registration is listed
        before = len(client.matches())
        for bot, game in (("agent:ann", "tictactoe"), ("agent:ann", "callisto")):
            with pytest.raises(GameHostError) as raised:
                client.create_match(game, bots=[1], bot=bot)
            assert raised.value.reason == "AGENT_NOT_CONNECTED" and raised.value.field_violations[0][0] == "bot"
        assert len(client.matches()) == before

        # A connected agent answers a turn it was never offered: refused on the stream, which goes on.
        events = serve_agent(host.target, robots, registration("ann", "games/tictactoe"),
                             pb.AgentRequest(move=pb.AgentMove(move_id="a1")))
        assert events[0].registered.bot == "agent:ann" and list(events[0].registered.games) == ["games/tictactoe"]
        assert events[1].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
        assert "move.turn_id" in events[1].error.message


def test_the_env_example_trains_an_agent_then_plays_it_at_a_host_and_serves_it_as_an_agent(start_host, keys):
    path, key = keys
    host = start_host("--api-keys", str(path), "--bot-delay", "0")
    example = Path(__file__).resolve().parent.parent / "examples" / "table_agent.py"
    run = subprocess.run([sys.executable, str(example), "tictactoe", "--train", "200", "--games", "3",
                          "--host", host.target, "--agent-key", key["robots"]],
                         capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr
    for line in ("table agent at the host, against its random bot", "table agent served as agent:table-agent"):
        assert re.search(rf"^{line}.*: \d+ won, \d+ drawn, \d+ lost", run.stdout, re.MULTILINE), run.stdout
    with host.client() as client:
        served = [m for m in client.matches() if any(seat.bot == "agent:table-agent" for seat in m.seats)]
        assert len(served) == 3 and all(m.status == pb.MATCH_STATUS_FINISHED for m in served)


def test_matchmaking_fills_a_waiting_players_seats_with_an_agent(start_host, keys, agents):
    path, key = keys
    host = start_host("--api-keys", str(path), "--bot-delay", "0")
    python = agents(python_agent(host.target, key["robots"], "filler", "random", ("tictactoe",)))
    with host.client(key["someone"]) as player:
        assert wait_for(lambda: agent_bots(player, "tictactoe") == {"agent:filler"}, 30)
        with pytest.raises(GameHostError) as raised:  # an agent of another game fills no seat
            player.create_ticket("callisto", ttl=60, bot_wait=0, bot="agent:filler")
        assert raised.value.reason == "AGENT_NOT_CONNECTED"
        ticket = player.create_ticket("tictactoe", ttl=60, bot_wait=0, bot="agent:filler")
        final = list(player.watch_ticket(ticket.name))[-1]
        assert final.state == pb.TICKET_STATE_MATCHED
        match = player.match(final.match)
        [other] = [seat for seat in match.seats if seat.index != final.seat]
        assert (other.kind, other.bot) == (pb.SEAT_KIND_BOT, "agent:filler")
        while (view := player.view(final.match)).status != pb.MATCH_STATUS_FINISHED:
            if final.seat in view.to_move:
                player.move(final.match, "", move_id=view.legal_moves[0].id)
            else:
                time.sleep(0.02)
        mine = {event.version for event in moves_by(player, final.match) if event.seat == final.seat}
        assert len(moves_by(player, final.match)) - len(mine) == len(played(host, "filler")) > 0
        assert wait_for(lambda: len(python.outcomes("OUTCOME_PLAYED")) == len(played(host, "filler")), 10)


def test_the_lobby_offers_a_connected_agent_beside_the_bots(start_host, keys, agents):
    from test_web_site_basics import site
    from web_hosts import CHROMIUM, WEB

    if not (WEB / "dist" / "index.html").is_file() or not CHROMIUM.exists():
        pytest.fail("the web client is not built or chromium is missing: run `make web` (make test does both)")
    path, key = keys
    host = start_host("--api-keys", str(path), "--web-root", str(WEB / "dist"))
    agents(python_agent(host.target, key["robots"], "dice", "random", ("tictactoe",)))
    with host.client() as client:
        assert wait_for(lambda: agent_bots(client, "tictactoe") == {"agent:dice"}, 30)
        bots = client.game("tictactoe").bots
    assert [(bot.name, bot.title, bot.agent) for bot in bots][-1] == ("agent:dice", "dice", True)
    shown = site("botClick", host.web_url, game="tictactoe", bot="agent:dice")
    assert [button["bot"] for button in shown["buttons"]] == [bot.name for bot in bots]
    assert shown["buttons"][-1]["text"] == "Play against dice"
    with host.client() as client:
        seats = client.match(f"matches/{shown['match']}").seats
    assert [(seat.kind, seat.bot) for seat in seats] == [(pb.SEAT_KIND_HUMAN, ""), (pb.SEAT_KIND_BOT, "agent:dice")]
