"""A real HTTP receiver of the host's webhook deliveries (tests/test_webhooks.py,
tests/test_traces.py): it records each delivery and can answer 500 or slowly."""

from __future__ import annotations

import http.server
import json
import threading
import time
from typing import Iterator

SECRET = "test-webhook-secret"


class Receiver(http.server.ThreadingHTTPServer):
    """A real HTTP receiver: records every delivery, answers 500 to the
    first ``failures[key]`` deliveries of a key."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), ReceiverHandler)
        self.deliveries: list[tuple[dict, bytes, dict]] = []
        self.failures: dict[str, int] = {}
        self.delay = 0.0  # seconds each answer takes (a slow receiver)
        self.arrived = threading.Condition()

    def wait_for(self, predicate, timeout: float = 30.0) -> list:
        with self.arrived:
            assert self.arrived.wait_for(lambda: predicate(self.deliveries), timeout), self.deliveries
            return list(self.deliveries)


class ReceiverHandler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        payload = json.loads(body)
        receiver = self.server
        time.sleep(receiver.delay)
        with receiver.arrived:
            failing = receiver.failures.get(payload["key"], 0) > 0
            if failing:
                receiver.failures[payload["key"]] -= 1
            receiver.deliveries.append((payload, body, dict(self.headers)))
            receiver.arrived.notify_all()
        self.send_response(500 if failing else 204)
        self.end_headers()

    def log_message(self, *args):
        pass


def running_receiver() -> Iterator[Receiver]:
    """A receiver serving in a thread until the caller is done (a fixture's body)."""
    server = Receiver()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
