"""The web page's chat panel in headless Chromium (clients/web/e2e/chat.mjs):
two signed-in players talk, one reports and mutes the other, and an admin
bans him from the page; the host then holds the report, the mute and the ban."""

from __future__ import annotations

import json
import secrets
import shutil
import subprocess

import grpc
import pytest

from test_web_client import E2E, SCREENSHOTS

from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from gamehost.v1 import gamehost_pb2_grpc as pb_grpc
from identities import bearer

pytestmark = pytest.mark.timeout(300)


@pytest.fixture()
def chat_host(signed_in_web_host):
    return signed_in_web_host


def test_a_chat_with_a_report_a_mute_and_a_ban_in_the_browser(chat_host, idp):
    suffix = secrets.token_hex(3)
    ann_subject, bob_subject = f"ann-{suffix}", f"bob-{suffix}"
    ann, bob = idp.token(ann_subject, name="Ann"), idp.token(bob_subject, name="Bob")
    moderator = idp.token(f"mod-{suffix}", name="Mod", roles=["admin"])
    with chat_host.client(ann) as ann_client, chat_host.client(bob) as bob_client:
        match = ann_client.create_match("tictactoe").name
        ann_client.join(match, seat=0)
        bob_client.join(match, seat=1)
        command = [shutil.which("node") or "node", str(E2E / "chat.mjs"), "--target", chat_host.web_url,
                   "--match", match.removeprefix("matches/"), "--ann-token", ann, "--bob-token", bob,
                   "--admin-token", moderator, "--out", str(SCREENSHOTS)]
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(command, capture_output=True, text=True, timeout=240, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"chat.mjs failed:\n{done.stderr[-4000:]}"
        shown = json.loads(done.stdout.strip().splitlines()[-1])

        assert shown["annHeard"] == ["hello bob", "you are a *******"]  # the host's word filter masked it
        assert "Reported" in shown["reportNote"] and "Muted" in shown["muteNote"]
        assert shown["annAfterMute"] == ["hello bob", "quiet at last"]
        assert shown["moderatorSaw"] == ["hello bob", "you are a *******", "can you hear me?", "quiet at last"]
        assert "banned" in shown["banNote"] and "banned" in shown["bobRefused"]
        assert shown["adminButtons"] > 0 and shown["annAdminButtons"] == 0

        with chat_host.channel() as channel:
            admin = pb_grpc.GameHostAdminStub(channel)
            reports = admin.ListReports(pb.ListReportsRequest(), metadata=bearer(moderator), timeout=10).reports
            assert [(r.reporter, r.reported, r.message.text) for r in reports] == [
                (f"players/{ann_subject}", f"players/{bob_subject}", "you are a *******")]
            relations = pb_grpc.GameHostStub(channel).GetChatRelations(
                pb.GetChatRelationsRequest(), metadata=bearer(ann), timeout=10)
            assert list(relations.muted) == [f"players/{bob_subject}"]
        with pytest.raises(GameHostError) as refused:
            bob_client.identity()
        assert refused.value.code == grpc.StatusCode.PERMISSION_DENIED and refused.value.reason == "BANNED"
        assert [m.text for m in ann_client.log(match).chat] == ["hello bob", "quiet at last"]
