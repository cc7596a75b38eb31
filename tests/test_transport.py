"""Transport hardening on real hosts: a connection flood at a low open-file
limit, and TLS on both ports."""

from __future__ import annotations

import datetime
import http.client
import ipaddress
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from gamehost.client import GameHostClient
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from hosts import HostProcess

NOFILE = 256
FLOOD = 400  # silent connections, more than the host has file descriptors


def list_games_over_http(port: int, source: str = "127.0.0.1", tls: ssl.SSLContext | None = None) -> dict:
    if tls is None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    else:
        connection = http.client.HTTPSConnection("localhost", port, timeout=10, context=tls)
    try:
        connection.request("POST", "/gamehost.v1.GameHost/ListGames", b"{}", {"Content-Type": "application/json"})
        response = connection.getresponse()
        assert response.status == 200, response.read()
        return json.loads(response.read())
    finally:
        connection.close()


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.fixture(scope="module")
def low_limit_host():
    """A host that may open only NOFILE files, so a flood can reach the limit."""
    host = HostProcess(command=["prlimit", f"--nofile={NOFILE}:{NOFILE}", sys.executable, "-m", "gamehost.cli.main",
                                "serve", "--port", "0", "--store", "memory", "--web-max-connections", "60",
                                "--web-max-connections-per-peer", "40", "--web-header-timeout", "5",
                                "--max-streams-per-connection", "2"]).start()
    yield host
    host.stop()


def test_a_connection_flood_on_the_web_port_leaves_both_ports_serving(low_limit_host):
    host = low_limit_host
    limit = host.log_lines("open-file limit")
    assert limit and limit[0]["soft"] == NOFILE == limit[0]["hard"], limit
    flood = []
    try:
        for _ in range(FLOOD):  # connect and say nothing, as a half-open client does
            try:
                flood.append(socket.create_connection(("127.0.0.1", host.web_port), timeout=5))
            except OSError:  # the host's listen queue was full for a moment: the kernel dropped our SYN
                pass
        assert len(flood) >= FLOOD // 2
        deadline = time.monotonic() + 5
        while open_files(host.process.pid) > 60 + 40:  # its cap, and the files it had before
            assert time.monotonic() < deadline, f"the host holds {open_files(host.process.pid)} files"
            time.sleep(0.05)

        # Well-behaved clients are served on both ports, from the flood's address and from another.
        with host.client() as client:
            assert client.games()
        assert list_games_over_http(host.web_port)["games"]
        assert list_games_over_http(host.web_port, source="127.0.0.2")["games"]

        # The flood's extra connections were closed at once, not left to time out.
        closed = 0
        for connection in flood:
            connection.settimeout(0.01)
            try:
                closed += connection.recv(1) == b""
            except ConnectionResetError:
                closed += 1
            except TimeoutError:
                pass
        assert closed >= len(flood) - 60, closed
        assert host.wait_for_log("web connections shed")
    finally:
        for connection in flood:
            connection.close()


def test_the_host_raises_its_open_file_limit_to_the_hard_limit():
    host = HostProcess(command=["prlimit", "--nofile=100:400", sys.executable, "-m", "gamehost.cli.main", "serve",
                                "--port", "0", "--store", "memory", "--web-port", "off"]).start()
    try:
        assert [(line["soft"], line["hard"]) for line in host.log_lines("open-file limit")] == [(400, 400)]
        limits = Path(f"/proc/{host.process.pid}/limits").read_text()
        assert [line.split()[3:5] for line in limits.splitlines() if line.startswith("Max open files")] == \
            [["400", "400"]]
    finally:
        host.stop()


def test_a_silent_web_connection_is_closed_after_the_header_timeout(low_limit_host):
    silent = socket.create_connection(("127.0.0.1", low_limit_host.web_port), timeout=10)
    try:
        started = time.monotonic()
        assert silent.recv(1) == b""  # the host closed it (an abort may also reset it)
    except ConnectionResetError:
        pass
    finally:
        silent.close()
    assert 4 <= time.monotonic() - started < 9


def test_calls_per_grpc_connection_are_capped(low_limit_host):
    host = low_limit_host
    with host.client() as client:
        match = client.create_match("tictactoe").name
        client.join(match)  # an event each new watcher gets at once
    request = pb.WatchMatchRequest(name=match)
    with grpc.insecure_channel(host.target, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
        stub = pb_grpc.GameHostStub(channel)
        streams = [stub.WatchMatch(request), stub.WatchMatch(request)]
        for stream in streams:
            next(stream)
        with pytest.raises(grpc.RpcError) as waited:  # a third call on this connection waits for a free stream
            next(stub.WatchMatch(request, timeout=1))
        assert waited.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        # Another connection is not held up by this one.
        with grpc.insecure_channel(host.target, options=[("grpc.use_local_subchannel_pool", 1)]) as other:
            assert next(pb_grpc.GameHostStub(other).WatchMatch(request, timeout=5)).version == 1
        streams[0].cancel()
        assert next(stub.WatchMatch(request, timeout=5)).version == 1
        streams[1].cancel()

    # Browsers' calls all share the gateway's one loopback connection: the cap must not apply to it.
    browsers = [http.client.HTTPConnection("127.0.0.1", host.web_port, timeout=5) for _ in range(4)]
    body = request.SerializeToString()
    for browser in browsers:
        browser.request("POST", "/gamehost.v1.GameHost/WatchMatch", struct.pack(">BI", 0, len(body)) + body,
                        {"Content-Type": "application/connect+proto"})
    for browser in browsers:
        response = browser.getresponse()
        flags, length = struct.unpack(">BI", response.read(5))
        assert flags == 0 and pb.MatchEvent.FromString(response.read(length)).version == 1
    for browser in browsers:
        browser.sock.close()
        browser.close()


# ------------------------------------------------------------------ TLS


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for localhost and 127.0.0.1, made here."""
    directory = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                               x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                  critical=False)
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .sign(key, hashes.SHA256()))
    cert_path, key_path = directory / "cert.pem", directory / "key.pem"
    cert_path.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


@pytest.fixture(scope="module")
def tls_host(certificate):
    cert, key = certificate
    host = HostProcess("--tls-cert", str(cert), "--tls-key", str(key)).start()
    yield host
    host.stop()


def test_grpc_over_tls_with_the_hosts_certificate(tls_host, certificate):
    roots = certificate[0].read_bytes()
    with GameHostClient(f"localhost:{tls_host.port}", root_certificates=roots) as client:
        match = client.create_match("tictactoe")
        assert client.match(match.name).name == match.name
    with grpc.insecure_channel(tls_host.target) as plaintext:
        with pytest.raises(grpc.RpcError) as refused:
            pb_grpc.GameHostStub(plaintext).ListGames(pb.ListGamesRequest(), timeout=3)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_https_on_the_web_port_with_the_same_certificate(tls_host, certificate):
    trusted = ssl.create_default_context(cafile=str(certificate[0]))
    assert list_games_over_http(tls_host.web_port, tls=trusted)["games"]
    with pytest.raises(ssl.SSLError):  # a client that does not trust the certificate is refused
        list_games_over_http(tls_host.web_port, tls=ssl.create_default_context())


def test_the_cli_talks_tls_with_tls_ca(tls_host, certificate):
    ran = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "games", "--host", f"localhost:{tls_host.port}",
                          "--tls-ca", str(certificate[0]), "--json"], capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0, ran.stderr
    assert any(game["id"] == "tictactoe" for game in json.loads(ran.stdout))
    ran = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "health", "--host",
                          f"localhost:{tls_host.port}", "--tls-ca", str(certificate[0])],
                         capture_output=True, text=True, timeout=30)
    assert ran.returncode == 0 and "SERVING" in ran.stdout, ran.stdout + ran.stderr


def test_tls_cert_without_key_is_a_usage_error(certificate):
    refused = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "serve", "--store", "memory",
                              "--tls-cert", str(certificate[0])], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "--tls-cert and --tls-key" in refused.stderr
