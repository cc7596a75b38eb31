"""The serving process's event loop (event_loop.py): uvloop's when installed, else asyncio's."""

from __future__ import annotations

import asyncio
import sys

import pytest

from gamehost.host import event_loop


async def loop_module() -> str:
    return type(asyncio.get_running_loop()).__module__.split(".")[0]


def test_the_serving_loop_is_uvloop_when_installed():
    pytest.importorskip("uvloop")
    assert event_loop.run(loop_module()) == "uvloop"


def test_without_uvloop_the_serving_loop_is_asyncio(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvloop", None)  # an import of it fails, as when it is not installed
    assert event_loop.loop_factory() is None
    assert event_loop.run(loop_module()) == "asyncio"
