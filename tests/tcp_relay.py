"""A TCP relay to a host that a test cuts on demand: cut() resets every
connection through it and each new one until restore(), as a network that
drops does (tests/ts_client/play.mjs does the same for the TypeScript client)."""

from __future__ import annotations

import socket
import struct
import threading


def _reset(sock: socket.socket) -> None:
    """Close with a TCP RST: the peer sees the connection fail. The shutdown
    first wakes the relay's thread blocked reading it (a bare close would not)."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


class TcpRelay:
    def __init__(self, target_port: int, source: str = "") -> None:
        """``source``: the loopback address its connections to the host come
        from (127.0.0.2, ...), so the host sees another client."""
        self.target_port = target_port
        self.source = source
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.target = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.open = True
        self.sockets: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if not self.open:
                _reset(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port),
                                                    source_address=(self.source, 0) if self.source else None)
            except OSError:
                _reset(client)
                continue
            with self.lock:
                self.sockets |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self.lock:
                self.sockets -= {source, sink}
            _reset(sink)

    def cut(self) -> None:
        self.open = False
        with self.lock:
            dropped, self.sockets = list(self.sockets), set()
        for sock in dropped:
            _reset(sock)

    def restore(self) -> None:
        self.open = True

    def close(self) -> None:
        self.cut()
        self.listener.close()
