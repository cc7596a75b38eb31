"""The CLI's private matches, invitations and endings against a real host:
`gamehost create --private ...` prints the invitation and its web link,
`join --invite` admits its holder, `invitation revoke` ends it, and
`resign`, `draw ...` and `claim` end matches as the protocol says."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from gamehost.cli.main import main
from gamehost.host.engine.live import new_seat_token
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(60)


def cli(capsys, host, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--host", host.target])
    out, err = capsys.readouterr()
    return code, out, err


def test_create_private_prints_the_invitation_and_its_link_and_join_invite_takes_a_seat(capsys, signed_in_host, user):
    alice, alice_token = user("alice")
    code, out, _ = cli(capsys, signed_in_host, "create", "tictactoe", "--private", "--spectators", "none", "--casual",
                       "--reserve", f"0={alice}", "--bearer-token", alice_token, "--web-url", "http://games.test:9000/")
    assert code == 0
    name = out.splitlines()[0]
    invitation = re.search(r"invitation code \(shown once\): (\S+)", out).group(1)
    assert f"http://games.test:9000/#/matches/{name.removeprefix('matches/')}?invite={invitation}" in out
    with signed_in_host.client(alice_token) as creator:
        match = creator.match(name)
        assert (match.visibility, match.spectators, match.rated) == (pb.VISIBILITY_PRIVATE, pb.SPECTATORS_NONE, False)
        assert match.seats[0].reserved_for == alice
    code, out, _ = cli(capsys, signed_in_host, "join", name, "--invite", invitation, "--name", "Guest")
    assert code == 0 and "Guest (Player 2) of " in out and "player token: " in out
    code, out, _ = cli(capsys, signed_in_host, "invitation", "revoke", name, "--bearer-token", alice_token)
    assert code == 0 and "admits nobody" in out
    code, _, err = cli(capsys, signed_in_host, "join", name, "--invite", invitation)
    assert code == 1 and "NOT_FOUND" in err


def test_create_without_a_web_url_links_the_host_on_the_default_web_port(capsys, host):
    code, out, _ = cli(capsys, host, "create", "tictactoe", "--unlisted")
    address = host.target.rsplit(":", 1)[0]
    assert code == 0 and f"open http://{address}:8080/#/matches/" in out


def test_a_bad_reservation_is_one_line_and_creates_nothing(capsys, host):
    with pytest.raises(SystemExit, match="--reserve takes SEAT=SUBJECT"):
        main(["create", "tictactoe", "--reserve", "alice", "--host", host.target])


def test_draw_offer_decline_withdraw_accept_and_resign_through_the_cli(capsys, host, client):
    match = client.create_match("tictactoe").name
    x, o = client.join(match, player_name="Ann").player_token, client.join(match, player_name="Bob").player_token
    code, out, _ = cli(capsys, host, "draw", "offer", match, "--token", x)
    assert code == 0 and "offered: Ann offers a draw; waiting for Bob" in out
    assert cli(capsys, host, "draw", "decline", match, "--token", o)[1].startswith("declined: the match goes on")
    cli(capsys, host, "draw", "offer", match, "--token", o)
    assert "withdrew the offer" in cli(capsys, host, "draw", "withdraw", match, "--token", o)[1]
    offered = client.offer_draw(match, x)
    code, _, err = cli(capsys, host, "draw", "accept", match, "--token", o,
                       "--offer-version", str(offered.offer.offer_version - 1))
    assert code == 1 and err.startswith("error: ABORTED: ")
    code, out, _ = cli(capsys, host, "draw", "accept", match, "--token", o)
    assert code == 0 and "the match is drawn" in out
    assert list(client.match(match).result.ranking) == [1, 1]

    resigned = client.create_match("tictactoe").name
    x, o = client.join(resigned).player_token, client.join(resigned).player_token
    code, out, _ = cli(capsys, host, "resign", resigned, "--token", x)
    assert code == 0 and f"resigned: {resigned} finished" in out
    assert list(client.match(resigned).result.winners) == [1]


def test_claim_is_refused_before_the_grace(capsys, host, client):
    match = client.create_match("tictactoe", absent_grace=60).name
    x, _ = client.join(match).player_token, client.join(match).player_token
    client.move(match, x, move={"cell": 4})
    code, _, err = cli(capsys, host, "claim", match, "--token", x)
    assert code == 1 and err.startswith("error: FAILED_PRECONDITION: ")
    assert client.match(match).status == pb.MATCH_STATUS_ACTIVE


def test_play_in_the_terminal_resigns_with_r(host, client):
    result = subprocess.run([sys.executable, "-m", "gamehost.cli.main", "play", "tictactoe", "--host", host.target,
                             "--seed", "4", "--name", "tester"], input="1\nr\n", capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert "d to offer a draw" in result.stdout and "resigned: matches/" in result.stdout
    name = result.stdout.split(":", 1)[0].strip()
    finished = client.match(name)
    assert finished.status == pb.MATCH_STATUS_FINISHED and finished.seats[0].resigned


def test_a_seat_token_never_reads_as_a_command_line_option():
    # One token in 64 of the URL-safe alphabet would start with "-", which `--token` then takes for an option.
    tokens = {new_seat_token() for _ in range(2000)}
    assert len(tokens) == 2000 and not any(token.startswith("-") for token in tokens)
