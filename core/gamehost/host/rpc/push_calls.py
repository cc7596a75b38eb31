"""The push calls: the host's VAPID key for pages, and the browsers that
signed-in users subscribed. Sending is ops/push.py's."""

from __future__ import annotations

import base64
import binascii
import ipaddress
import time
from urllib.parse import urlsplit

from google.protobuf.timestamp_pb2 import Timestamp

from gamehost.host import errors
from gamehost.host.auth.principal import Principal
from gamehost.host.store.base import Store
from gamehost.host.store.push_rows import PushSubscriptionRecord
from gamehost.sdk.i18n import valid_tag
from gamehost.v1 import gamehost_pb2 as pb

MAX_ENDPOINT_CHARS = 1024
SUBSCRIPTIONS_PER_USER = 10  # browsers and devices of one person; the oldest goes past it
PUBLIC_KEY_BYTES = 65  # an uncompressed P-256 point
AUTH_BYTES = 16


def base64url_bytes(text: str) -> bytes | None:
    """``text`` decoded as base64url (padding optional); None if it is not."""
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None


def refused_endpoint(endpoint: str, insecure_allowed: bool) -> str | None:
    """Why the host will not POST to ``endpoint``; None when it will. Only
    https: the host sends what users hand it, so plain http is for a
    development host that says so (``--push-insecure-endpoints``)."""
    if not endpoint or len(endpoint) > MAX_ENDPOINT_CHARS:
        return f"give the push service's URL (PushSubscription.endpoint), at most {MAX_ENDPOINT_CHARS} characters."
    parts = urlsplit(endpoint)
    schemes = ("https", "http") if insecure_allowed else ("https",)
    if parts.scheme not in schemes or not parts.hostname or parts.username or parts.password:
        return "must be an https URL without credentials, as PushSubscription.endpoint gives it."
    if not insecure_allowed and names_this_network(parts.hostname):
        return "must be a push service on the internet, not this host or its network."
    return None


def names_this_network(hostname: str) -> bool:
    """Whether ``hostname`` is the host itself or an address of a private network: the host would POST
    there on a user's word (push services are public)."""
    if hostname == "localhost" or hostname.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        address = ipaddress.ip_address(hostname)
    except ValueError:
        return False
    return not address.is_global


class PushCalls:
    """GetPushKey, SubscribePush and UnsubscribePush; built only when the
    host sends push (it has a VAPID key)."""

    def __init__(self, store: Store, application_server_key: str, *, insecure_endpoints: bool = False,
                 keep: int = SUBSCRIPTIONS_PER_USER) -> None:
        self.store = store
        self.application_server_key = application_server_key
        self.insecure_endpoints = insecure_endpoints
        self.keep = keep

    def key(self) -> pb.PushKey:
        return pb.PushKey(application_server_key=self.application_server_key)

    async def subscribe(self, request: pb.SubscribePushRequest, caller: Principal) -> pb.PushSubscription:
        subject = signed_in(caller, "SubscribePush")
        problem = refused_endpoint(request.endpoint, self.insecure_endpoints)
        if problem:
            raise errors.invalid_field("endpoint", problem)
        public_key = base64url_bytes(request.p256dh)
        if public_key is None or len(public_key) != PUBLIC_KEY_BYTES or public_key[0] != 4:
            raise errors.invalid_field("p256dh", "the browser's P-256 public key, base64url "
                                                 "(PushSubscription.getKey(\"p256dh\"), 65 bytes).")
        secret = base64url_bytes(request.auth)
        if secret is None or len(secret) != AUTH_BYTES:
            raise errors.invalid_field("auth", "the browser's auth secret, base64url "
                                               "(PushSubscription.getKey(\"auth\"), 16 bytes).")
        if request.locale and not valid_tag(request.locale):
            raise errors.invalid_field("locale", "a BCP 47 language tag such as fr or en-GB, or nothing.")
        now = time.time()
        await self.store.add_push_subscription(
            PushSubscriptionRecord(request.endpoint, subject, request.p256dh, request.auth, request.locale, now),
            self.keep)
        created = Timestamp()
        created.FromNanoseconds(int(now * 1e9))
        return pb.PushSubscription(endpoint=request.endpoint, subject=subject, create_time=created)

    async def unsubscribe(self, request: pb.UnsubscribePushRequest, caller: Principal) -> pb.UnsubscribePushResponse:
        subject = signed_in(caller, "UnsubscribePush")
        if not await self.store.remove_push_subscription(request.endpoint, subject):
            raise errors.NotFound(f"you have no push subscription at {errors.shown(request.endpoint)}.",
                                  "PUSH_SUBSCRIPTION_NOT_FOUND", resource=("push subscription", request.endpoint))
        return pb.UnsubscribePushResponse()


def signed_in(caller: Principal, call: str) -> str:
    if caller.anonymous:
        raise errors.Unauthenticated(f"{call} keeps a signed-in user's browsers: sign in "
                                     "(authorization: Bearer ...).", "AUTHENTICATION_REQUIRED")
    return caller.subject


def push_off() -> errors.FailedPrecondition:
    return errors.FailedPrecondition("this host sends no push notifications: its operator starts it with "
                                     "--push-vapid-key FILE to send them.", "PUSH_DISABLED")
