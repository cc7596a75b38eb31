"""Reading the requests' common fields: resource names, page sizes, optional
numbers and durations. A field that does not read is refused with
INVALID_ARGUMENT naming it."""

from __future__ import annotations

from google.protobuf.message import Message

from gamehost.host import errors

GAME_PAGE = (100, 1000)    # default and maximum page sizes
MATCH_PAGE = (50, 500)
LOG_PAGE = (500, 1000)  # events of a match log
TICKET_PAGE = (50, 100)


def resource_id(name: str, collection: str, field: str = "name") -> str:
    """The id in ``name``, a resource name like ``matches/{id}``."""
    prefix = f"{collection}/"
    if not name.startswith(prefix) or len(name) == len(prefix) or "/" in name[len(prefix):]:
        raise errors.invalid_field(
            field, f"expected a resource name like '{collection}/{{id}}', got {errors.shown(name)}.", "INVALID_NAME")
    return name[len(prefix):]


def page_size(requested: int, sizes: tuple[int, int]) -> int:
    """The page size asked for, the default if none, at most the maximum (``sizes``)."""
    if requested < 0:
        raise errors.invalid_field("page_size", "must not be negative.")
    return min(requested or sizes[0], sizes[1])


def optional_number(request: Message, field: str) -> float | None:
    """An optional number field, None when unset."""
    return getattr(request, field) if request.HasField(field) else None


def optional_seconds(request: Message, field: str) -> float | None:
    """A Duration field in seconds, None when unset; a negative one is refused."""
    if not request.HasField(field):
        return None
    seconds: float = getattr(request, field).ToNanoseconds() / 1e9
    if seconds < 0:
        raise errors.invalid_field(field, f"must not be negative, not {seconds:g} s.")
    return seconds
