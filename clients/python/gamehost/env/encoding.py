"""A view as a fixed-size array: what a network takes as input."""

from __future__ import annotations

from typing import Any, Mapping

from gamehost.env.rules import view_text

# Over three times the largest view of the shipped games seen in random
# playouts at their smallest and largest seat counts (4,462 bytes: Démonte
# la pyramide; Kensington at 5 seats 3,805).
DEFAULT_OBSERVATION_BYTES = 16384


class ObservationTooLarge(ValueError):
    """A view longer than the observation's fixed size."""


def encode_view(view: Mapping[str, Any], size: int = DEFAULT_OBSERVATION_BYTES) -> Any:
    """The view's canonical JSON as UTF-8 bytes in a ``numpy.uint8`` array of
    ``size``, zero-padded: the same view gives the same array from either
    back end, and a learner may read it as text again."""
    import numpy as np

    data = view_text(view).encode("utf-8")
    if len(data) > size:
        raise ObservationTooLarge(f"the view is {len(data)} bytes long, more than the observation's {size}: "
                                  f"pass a larger observation_bytes")
    array = np.zeros(size, dtype=np.uint8)
    array[:len(data)] = np.frombuffer(data, dtype=np.uint8)
    return array
