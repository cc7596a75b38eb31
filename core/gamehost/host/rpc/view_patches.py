"""Views as changes: a watcher who asked for them (WatchMatchRequest.view_patches)
gets, instead of its whole view on each event, what changed since the view
its watch sent last, as a JSON Patch (RFC 6902) over the View's proto3 JSON
form.

The patch is made once per (viewer, rendering kinds, language, from, to)
and its bytes kept in the live match's per-version cache, so every watcher
who sees the same view and holds the same version shares one encoding.
Patches are made between views of one viewer only (a seat's, or the
spectators'), so a patch carries nothing that viewer's whole view would
not: never another seat's secrets.

A view's JSON is made a part at a time (view_json.py): the parts that did
not change since the version before come back as the very objects of the
view before, so the patch (``json_patch``) steps over them on ``is`` and
walks only what changed. Lists are compared index by index (no search for
an item moved): cheaper to make, a little larger when an item is inserted.
A patch no smaller than the whole view (a seat's legal moves all new, as in
Callisto) is not sent: the whole view goes instead, its JSON the next
patch's base.

The JSON of recent views outlives a version (the patch to version N+1 needs
the view at N), so it is kept here: the last two views of a bounded number
of viewers, the least recently used dropped first; a watcher whose base
view is no longer kept gets its whole view again, which is always correct.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any, Hashable

from gamehost.host.rpc.view_json import ViewJson
from gamehost.v1 import gamehost_pb2 as pb

# Viewers whose recent views' JSON is kept for patching (the oldest used go
# first; their watchers then get a whole view), and views kept per viewer:
# the newest and the one before, the base of a watcher a version behind.
KEPT_VIEWERS = 2048
VIEWS_PER_VIEWER = 2


class PatchedWatch:
    """One watcher's side: the version of the last view its watch sent (None: none yet)."""

    def __init__(self) -> None:
        self.version: int | None = None


class ViewPatches:
    def __init__(self, kept_viewers: int = KEPT_VIEWERS) -> None:
        self._kept_viewers = kept_viewers
        self._views: OrderedDict[Hashable, dict[int, dict[str, Any]]] = OrderedDict()
        self._json = ViewJson()

    def view_json(self, viewer: Hashable, version: int, whole: bytes) -> dict[str, Any]:
        """The JSON form of ``viewer``'s View at ``version`` (``whole``: its bytes), kept for the next patch."""
        views = self._views.get(viewer)
        if views is None:
            views = self._views[viewer] = {}
            while len(self._views) > self._kept_viewers:
                self._views.popitem(last=False)
        else:
            self._views.move_to_end(viewer)
        view = views.get(version)
        if view is None:
            view = views[version] = self._json.of(whole)
            while len(views) > VIEWS_PER_VIEWER:
                del views[min(views)]
        return view

    def kept_json(self, viewer: Hashable, version: int) -> dict[str, Any] | None:
        return self._views.get(viewer, {}).get(version)

    @staticmethod
    def patch_bytes(before: dict[str, Any], after: dict[str, Any], from_version: int, whole_size: int) -> bytes | None:
        """The ViewPatch from ``before`` (at ``from_version``) to ``after``, serialized;
        None when it is no smaller than the whole view (``whole_size`` bytes)."""
        operations = json_patch(before, after)
        patch = pb.ViewPatch(from_version=from_version,
                             json_patch=json.dumps(operations, separators=(",", ":"))).SerializeToString()
        return patch if len(patch) < whole_size else None


def json_patch(before: Any, after: Any) -> list[dict[str, Any]]:
    """The RFC 6902 operations that turn the JSON value ``before`` into ``after``.
    The values in them are ``after``'s own objects, not copies: they are
    serialized at once and neither side is ever changed."""
    operations: list[dict[str, Any]] = []
    _diff(before, after, "", operations)
    return operations


def _diff(before: Any, after: Any, path: str, operations: list[dict[str, Any]]) -> None:
    if before is after:
        return
    kind = type(before)
    if kind is not type(after):  # checked first: 1 == True and 1 == 1.0 in Python, not in JSON
        operations.append({"op": "replace", "path": path, "value": after})
    elif before == after:  # in C: equal parts not shared as one object
        return
    elif kind is dict:
        for key, value in before.items():
            where = f"{path}/{_pointer_token(key)}"
            if key in after:
                _diff(value, after[key], where, operations)
            else:
                operations.append({"op": "remove", "path": where})
        for key, value in after.items():
            if key not in before:
                operations.append({"op": "add", "path": f"{path}/{_pointer_token(key)}", "value": value})
    elif kind is list:
        common = min(len(before), len(after))
        for index in range(common):
            _diff(before[index], after[index], f"{path}/{index}", operations)
        for index in range(common, len(after)):
            operations.append({"op": "add", "path": f"{path}/{index}", "value": after[index]})
        for index in range(len(before) - 1, common - 1, -1):  # from the end: each removal leaves the others' indexes
            operations.append({"op": "remove", "path": f"{path}/{index}"})
    else:
        operations.append({"op": "replace", "path": path, "value": after})


def _pointer_token(key: str) -> str:
    """A key as one step of a JSON Pointer (RFC 6901): ``~`` and ``/`` escaped."""
    return key.replace("~", "~0").replace("/", "~1") if "~" in key or "/" in key else key
