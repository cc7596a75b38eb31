"""Engine errors: what went wrong, in terms the transport maps to gRPC codes.

The engine raises these; the servicer turns each into a status code with
google.rpc details. ``reason`` is the ErrorInfo reason (UPPER_SNAKE_CASE),
stable for programs; the message is for people.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SHOWN_CHARS = 40  # at most this much of a client's value appears in an error message


def shown(value: object, limit: int = SHOWN_CHARS) -> str:
    """``value`` quoted for an error message, cut to a short prefix: a client
    that sends a megabyte gets a sentence back, not its megabyte."""
    text = str(value)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"... ({len(text)} chars)"


@dataclass
class HostError(Exception):
    message: str
    reason: str
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[tuple[str, str]] = field(default_factory=list)
    resource: tuple[str, str] | None = None  # (type, name) for NOT_FOUND
    quota_violations: list[tuple[str, str]] = field(default_factory=list)  # (subject, description)
    retry_after: float | None = None  # seconds, for RetryInfo
    player_text: str | None = None
    """What a player reads of a refusal the rules worded (a ``Text``, translatable, or a plain string):
    the message above stays English for developers; the servicer says this in the request's language."""
    localized: tuple[str, str] | None = None  # (BCP 47 tag, player_text said in it), for LocalizedMessage

    code = "UNKNOWN"

    def __str__(self) -> str:
        return self.message


class NotFound(HostError):
    code = "NOT_FOUND"


class InvalidArgument(HostError):
    code = "INVALID_ARGUMENT"


class FailedPrecondition(HostError):
    code = "FAILED_PRECONDITION"


class Aborted(HostError):
    code = "ABORTED"


class Unauthenticated(HostError):
    code = "UNAUTHENTICATED"


class PermissionDenied(HostError):
    code = "PERMISSION_DENIED"


class ResourceExhausted(HostError):
    code = "RESOURCE_EXHAUSTED"


class Internal(HostError):
    code = "INTERNAL"


class DeadlineExceeded(HostError):
    code = "DEADLINE_EXCEEDED"


class Unimplemented(HostError):
    code = "UNIMPLEMENTED"


def invalid_field(field_name: str, description: str, reason: str = "INVALID_FIELD") -> InvalidArgument:
    """An INVALID_ARGUMENT naming one request field."""
    return InvalidArgument(
        message=f"{field_name}: {description}",
        reason=reason,
        field_violations=[(field_name, description)],
    )


def metadata_of(**values: Any) -> dict[str, str]:
    """ErrorInfo metadata: string values only, as google.rpc requires."""
    return {key: str(value) for key, value in values.items() if value is not None}
