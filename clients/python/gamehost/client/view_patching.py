"""Views as changes, on the client's side: a watch opened with
``view_patches`` receives its first view whole and then, on each event,
what changed since the view before as a JSON Patch (RFC 6902) over the
View's proto3 JSON form (``MatchEvent.view_patch``). ``PatchedViews``
keeps the JSON of the last view and puts the whole view back into each
event, so what reads the events sees ``event.view`` as without patches.
It applies them with jsonpatch, the client's one optional dependency:
``pip install 'gamehost-client[patches]'``."""

from __future__ import annotations

import json
from typing import Any

from google.protobuf import json_format

from gamehost.v1 import gamehost_pb2 as pb


class PatchOutOfStep(ValueError):
    """A patch from a version other than the view held: reopen the watch (it starts with a whole view)."""


class PatchedViews:
    def __init__(self) -> None:
        self.version: int | None = None
        self._json: dict[str, Any] | None = None

    def reset(self) -> None:
        """A new stream: its first view comes whole."""
        self.version, self._json = None, None

    def whole(self, event: pb.MatchEvent) -> pb.MatchEvent:
        """``event`` with its view whole (a patch applied to the view held); the event itself, changed."""
        if event.HasField("view_patch"):
            json_format.ParseDict(self.apply(event), event.view, ignore_unknown_fields=True)
            event.ClearField("view_patch")
        else:
            self.apply(event)
        return event

    def apply(self, event: pb.MatchEvent) -> dict[str, Any] | None:
        """The JSON form of the view ``event`` brings (whole or patched), kept as the view held;
        None for an event without one. For a reader that needs only some of its fields (a View
        parsed from JSON costs more than the patch)."""
        if event.HasField("view"):
            self._json = json_format.MessageToDict(event.view)
            self.version = event.view.version
        elif event.HasField("view_patch"):
            patch = event.view_patch
            if self._json is None or patch.from_version != self.version:
                raise PatchOutOfStep(f"a patch from version {patch.from_version}, the view held is at "
                                     f"{self.version}")
            # In place: the held JSON is this object's own, and a copy per event would cost more than the patch.
            self._json = _jsonpatch().apply_patch(self._json, json.loads(patch.json_patch), in_place=True)
            self.version = patch_version(self._json)
        else:
            return None
        return self._json


def _jsonpatch():
    try:
        import jsonpatch
    except ImportError:  # an optional dependency: only followers of views as changes need it
        raise ImportError("views as changes need jsonpatch: pip install 'gamehost-client[patches]'") from None
    return jsonpatch


def patch_version(view: dict[str, Any]) -> int:
    return int(view.get("version", 0))  # int64 in JSON: a string
