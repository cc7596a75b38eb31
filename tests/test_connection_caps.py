"""What one caller may hold open on the gRPC port, on a real host over real
sockets: connections per address (the connection guard in front of grpc),
and streams of every kind per caller (health Watch, reflection, Session).

Clients from other addresses go through a TcpRelay whose connections to the
host come from another loopback address (127.0.0.2, ...).
"""

from __future__ import annotations

import queue
import socket
import time

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess, wait_for
from tcp_relay import TcpRelay

PER_PEER = 3
FIRST_CALL = 2.0
PROBES = 2
SESSIONS = 2
SESSION_IDLE = 15.0  # long enough that opening the capped sessions on a busy machine stays within it


@pytest.fixture(scope="module")
def host():
    host = HostProcess("--max-connections-per-peer", str(PER_PEER), "--first-call-timeout", str(FIRST_CALL),
                       "--max-probe-streams-per-caller", str(PROBES), "--max-sessions-per-caller", str(SESSIONS),
                       "--session-idle-timeout", str(SESSION_IDLE)).start()
    yield host
    host.stop()


def own_channel(target: str) -> grpc.Channel:
    """A channel with a connection of its own (channels may share one otherwise)."""
    return grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])


def refusal(error: grpc.RpcError) -> tuple[error_details_pb2.QuotaFailure, dict]:
    """The QuotaFailure and the ErrorInfo metadata of a RESOURCE_EXHAUSTED."""
    assert error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED, error
    status = rpc_status.from_call(error)
    failure, metadata = error_details_pb2.QuotaFailure(), {}
    for detail in status.details:
        if detail.Is(error_details_pb2.QuotaFailure.DESCRIPTOR):
            detail.Unpack(failure)
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            metadata = dict(info.metadata)
    assert failure.violations, status
    return failure, metadata


def list_games(channel: grpc.Channel) -> None:
    pb_grpc.GameHostStub(channel).ListGames(pb.ListGamesRequest(), timeout=5)


def test_one_address_beyond_its_connection_cap_is_refused_while_another_connects(host):
    relay, other = TcpRelay(host.port, source="127.0.0.2"), TcpRelay(host.port, source="127.0.0.3")
    channels = [own_channel(relay.target) for _ in range(PER_PEER + 1)]
    try:
        for channel in channels[:PER_PEER]:  # each has made a call: none is a silent one to make room
            list_games(channel)
        with pytest.raises(grpc.RpcError) as refused:
            list_games(channels[PER_PEER])
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE, refused.value
        assert host.wait_for_log("grpc connections shed", reason="refused", peer="127.0.0.2")

        with own_channel(other.target) as served:  # another address still connects
            list_games(served)
        channels[0].close()  # a place given back is free again
        assert wait_for(lambda: _served(channels[PER_PEER]), timeout=10)
    finally:
        for channel in channels:
            channel.close()
        relay.close()
        other.close()


def _served(channel: grpc.Channel) -> bool:
    try:
        list_games(channel)
        return True
    except grpc.RpcError:
        return False


def closed_by_host(sock: socket.socket) -> bool:
    try:
        while sock.recv(1 << 16):
            pass
    except ConnectionResetError:
        pass
    return True


def test_a_connection_that_makes_no_call_is_closed_and_silent_ones_make_room(host):
    started = time.monotonic()
    silent = socket.create_connection(("127.0.0.1", host.port), source_address=("127.0.0.4", 0))
    silent.settimeout(FIRST_CALL + 10)
    assert closed_by_host(silent)  # after grpc's SETTINGS, nothing: the host closed it
    assert FIRST_CALL - 0.5 <= time.monotonic() - started < FIRST_CALL + 5
    silent.close()

    # Silent connections from one address fill its cap; a client that calls still gets in.
    flood = [socket.create_connection(("127.0.0.1", host.port), source_address=("127.0.0.5", 0))
             for _ in range(PER_PEER)]
    relay = TcpRelay(host.port, source="127.0.0.5")
    try:
        with own_channel(relay.target) as channel:
            list_games(channel)
    finally:
        relay.close()
        for sock in flood:
            sock.close()


def test_health_watch_streams_beyond_the_per_caller_cap_are_refused_while_another_caller_is_served(host):
    relay = TcpRelay(host.port, source="127.0.0.6")
    with host.channel() as channel, own_channel(relay.target) as other:
        stub = health_pb2_grpc.HealthStub(channel)
        watches = [stub.Watch(health_pb2.HealthCheckRequest()) for _ in range(PROBES)]
        try:
            for watch in watches:
                assert next(watch).status == health_pb2.HealthCheckResponse.SERVING
            with pytest.raises(grpc.RpcError) as refused:
                next(stub.Watch(health_pb2.HealthCheckRequest(), timeout=5))
            failure, metadata = refusal(refused.value)
            assert failure.violations[0].subject == "peer:ipv4:127.0.0.1"
            assert "health Watch streams per caller" in failure.violations[0].description
            assert metadata["limit"] == "probe_streams_per_caller"

            served = health_pb2_grpc.HealthStub(other).Watch(health_pb2.HealthCheckRequest(), timeout=5)
            assert next(served).status == health_pb2.HealthCheckResponse.SERVING
            served.cancel()
        finally:
            for watch in watches:
                watch.cancel()
        # Ended streams give their places back.
        assert wait_for(lambda: _health_watch_opens(stub), timeout=10)
    relay.close()


def _health_watch_opens(stub) -> bool:
    watch = stub.Watch(health_pb2.HealthCheckRequest(), timeout=5)
    try:
        return next(watch).status == health_pb2.HealthCheckResponse.SERVING
    except grpc.RpcError:
        return False
    finally:
        watch.cancel()


class OpenStream:
    """A bidirectional stream kept open by a queue of requests."""

    def __init__(self, method, first=None) -> None:
        self.requests: queue.Queue = queue.Queue()
        if first is not None:
            self.requests.put(first)
        self.responses = method(iter(self.requests.get, None))

    def close(self) -> None:
        self.requests.put(None)
        self.responses.cancel()


def test_reflection_streams_beyond_the_per_caller_cap_are_refused_while_another_caller_is_served(host):
    relay = TcpRelay(host.port, source="127.0.0.7")
    ask = reflection_pb2.ServerReflectionRequest(list_services="")
    with host.channel() as channel, own_channel(relay.target) as other:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        streams = [OpenStream(stub.ServerReflectionInfo, ask) for _ in range(PROBES)]
        try:
            for stream in streams:
                assert next(stream.responses).list_services_response.service
            refused = OpenStream(stub.ServerReflectionInfo, ask)
            with pytest.raises(grpc.RpcError) as error:
                next(refused.responses)
            failure, metadata = refusal(error.value)
            assert "reflection streams per caller" in failure.violations[0].description
            assert metadata["limit"] == "probe_streams_per_caller"

            served = OpenStream(reflection_pb2_grpc.ServerReflectionStub(other).ServerReflectionInfo, ask)
            assert next(served.responses).list_services_response.service
            served.close()
        finally:
            for stream in streams:
                stream.close()
    relay.close()


def test_session_streams_are_capped_per_caller_and_an_idle_one_is_closed(host):
    relay = TcpRelay(host.port, source="127.0.0.8")
    with host.channel() as channel, own_channel(relay.target) as other:
        stub = pb_grpc.GameHostStub(channel)
        # Each session is answered before the next opens: the host admits concurrent calls in no set order.
        sessions = []
        for tag in range(SESSIONS):
            opened = time.monotonic()  # before the last request: the last session's idle time runs from it
            sessions.append(OpenStream(stub.Session, pb.SessionRequest(tag=tag, unwatch="matches/nothing")))
            assert next(sessions[-1].responses).tag == tag
        try:
            refused = OpenStream(stub.Session)
            with pytest.raises(grpc.RpcError) as error:
                next(refused.responses)
            failure, metadata = refusal(error.value)
            assert "Session streams per caller" in failure.violations[0].description
            assert metadata["limit"] == "sessions_per_caller"

            # Another caller opens one and is answered on it.
            served = OpenStream(pb_grpc.GameHostStub(other).Session,
                                pb.SessionRequest(tag=1, unwatch="matches/nothing"))
            assert next(served.responses).error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
            served.close()

            # Sending nothing and following nothing, each is closed after the idle time.
            for session in sessions:
                with pytest.raises(grpc.RpcError) as idle:
                    next(session.responses)
                assert idle.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED, idle.value
                assert "sent no request and followed no match" in idle.value.details()
            assert SESSION_IDLE - 0.5 <= time.monotonic() - opened < SESSION_IDLE + 10
        finally:
            for session in sessions:
                session.close()
        again = OpenStream(stub.Session, pb.SessionRequest(tag=2, unwatch="matches/nothing"))
        assert next(again.responses).tag == 2  # the places are free again
        again.close()
    relay.close()
