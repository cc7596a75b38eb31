"""The error a client call is refused with, for tests that check refusals."""

from __future__ import annotations

import pytest

from gamehost.client import GameHostError


def error_of(call, *args, **kwargs) -> GameHostError:
    """Call ``call`` and return the GameHostError it raises (the test fails if it does not)."""
    with pytest.raises(GameHostError) as caught:
        call(*args, **kwargs)
    return caught.value
