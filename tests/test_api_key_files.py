"""An integrator's first keys: `gamehost api-key` writes a key file the host
reads as it is, and a key file the host cannot read stops it at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from hosts import HostProcess


def gamehost(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gamehost.cli.main", *args], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "LC_ALL": "C"})


def made_key(made: subprocess.CompletedProcess) -> str:
    """The key `api-key` showed its maker (stderr, once)."""
    assert made.returncode == 0, made.stderr
    return made.stderr.strip().rsplit(" ", 1)[-1]


def test_keys_printed_and_keys_added_to_a_file_are_read_by_the_host_as_they_are(tmp_path):
    keys = tmp_path / "keys.json"
    printed = gamehost("api-key", "key:ops", "--roles", "admin")
    keys.write_text(printed.stdout)  # the README's "save what it prints"
    added = gamehost("api-key", "key:robot", "--file", str(keys))
    assert "holds 2 key(s) now" in added.stdout and "--api-keys" in added.stdout
    assert [entry["name"] for entry in json.loads(keys.read_text())] == ["key:ops", "key:robot"]
    assert keys.stat().st_mode & 0o077 == 0  # hashes of secrets: the owner's alone
    host = HostProcess("--api-keys", str(keys)).start()
    try:
        with host.client(made_key(printed)) as ops, host.client(made_key(added)) as robot:
            assert (ops.identity().subject, list(ops.identity().roles)) == ("key:ops", ["admin"])
            assert (robot.identity().subject, list(robot.identity().roles)) == ("key:robot", [])
    finally:
        host.stop()


def test_a_key_file_holding_one_entry_alone_is_a_list_of_one(tmp_path):
    keys = tmp_path / "one.json"
    printed = gamehost("api-key", "key:solo")
    keys.write_text(json.dumps(json.loads(printed.stdout)[0]))  # the object alone, as older versions printed it
    added = gamehost("api-key", "key:duo", "--file", str(keys))
    assert [entry["name"] for entry in json.loads(keys.read_text())] == ["key:solo", "key:duo"], added.stderr


@pytest.mark.parametrize("content, problem", [("{not json", "cannot read the API key file"),
                                              ('[{"name": "x", "sha256": "abc"}]', "key 1 is malformed"),
                                              ('"a string"', "must hold a JSON list of keys")])
def test_a_key_file_the_host_cannot_read_is_refused_before_anything_starts(tmp_path, content, problem):
    keys = tmp_path / "bad.json"
    keys.write_text(content)
    refused = gamehost("api-key", "key:late", "--file", str(keys))
    assert refused.returncode != 0 and problem in refused.stderr and str(keys) in refused.stderr
    assert keys.read_text() == content and "ghk_" not in refused.stderr + refused.stdout  # no key without its entry
    served = gamehost("serve", "--port", "0", "--web-port", "0", "--store", "memory", "--api-keys", str(keys))
    assert served.returncode != 0 and problem in served.stderr and str(keys) in served.stderr
    assert "workers started" not in served.stderr and "host serving" not in served.stderr
