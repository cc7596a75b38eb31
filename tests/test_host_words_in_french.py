"""The host's own words in French over real sockets: the results it decides
(a resignation, leaving a rated match, a draw by agreement, a claim of
victory, a clock running out), the reasons it gives for aborting a match
and its bots' titles read in French with locale "fr", and exactly as before
in English."""

from __future__ import annotations

import pytest

from hosts import wait_for
from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb

pytestmark = pytest.mark.timeout(60)


def summaries(client, match: str) -> tuple[str, str, str]:
    """The result's summary: asked in French, asked in nothing, and in the French log."""
    french = client.stub.GetMatch(pb.GetMatchRequest(name=match, locale="fr"))
    plain = client.stub.GetMatch(pb.GetMatchRequest(name=match))
    log = client.stub.GetMatchLog(pb.GetMatchLogRequest(name=match, locale="fr"))
    assert french.locale == "fr" and plain.locale == "" and log.result.summary == french.result.summary
    return french.result.summary, plain.result.summary, log.result.summary


def two_players(client, **create) -> tuple[str, str, str]:
    match = client.create_match("tictactoe", **create).name
    return match, client.join(match).player_token, client.join(match).player_token


def test_a_resignation_and_a_draw_by_agreement_read_in_french(client):
    match, x, _ = two_players(client)
    client.resign(match, x)
    assert summaries(client, match)[:2] == ("Le joueur 1 abandonne.", "Seat 1 resigned.")
    view = client.stub.GetView(pb.GetViewRequest(name=match, locale="fr"))
    assert view.result.summary == "Le joueur 1 abandonne."

    drawn, x, o = two_players(client)
    client.offer_draw(drawn, x)
    client.answer_draw(drawn, o, True)
    assert summaries(client, drawn)[:2] == ("Partie nulle par accord mutuel.", "Drawn by agreement.")


def test_a_claim_of_victory_reads_in_french(client):
    match, x, _ = two_players(client, absent_grace=0.2)
    client.move(match, x, move_id="b2")

    def claimed() -> bool:  # O is to move and does nothing: after the grace X may claim
        try:
            client.claim_victory(match, x)
        except GameHostError as error:
            assert error.reason == "CLAIM_TOO_EARLY"
            return False
        return True

    assert wait_for(claimed, timeout=10)
    assert summaries(client, match)[:2] == ("Le joueur 1 revendique la victoire : joueur 2 absent.",
                                            "Seat 1 claimed victory: seat 2 absent.")


def test_a_clock_running_out_reads_in_french(client):
    match, _, _ = two_players(client, clock=0.3)
    assert wait_for(lambda: client.match(match).status == pb.MATCH_STATUS_FINISHED, timeout=10)
    assert summaries(client, match)[:2] == ("Temps écoulé pour le joueur 1.", "Time ran out for seat 1.")
    events = list(client.stub.WatchMatch(pb.WatchMatchRequest(name=match, locale="fr",
                                                              render=pb.RenderOptions(text=True)), timeout=10))
    assert events[-1].view.result.summary == "Temps écoulé pour le joueur 1."


def test_leaving_a_rated_match_reads_in_french(signed_in_host, user):
    (_, ann_token), (_, bob_token) = user("ann"), user("bob")
    with signed_in_host.client(ann_token) as ann, signed_in_host.client(bob_token) as bob:
        match = ann.create_match("tictactoe").name
        ann.join(match, seat=0)
        bob.join(match, seat=1)
        bob.leave(match, "")
        assert wait_for(lambda: ann.match(match).status == pb.MATCH_STATUS_FINISHED, timeout=10)
        assert summaries(ann, match)[:2] == ("Le joueur 2 a quitté la partie.", "Seat 2 left.")


def test_the_bots_titles_read_in_french(client):
    french = client.stub.GetGame(pb.GetGameRequest(name="games/tictactoe", locale="fr"))
    plain = client.stub.GetGame(pb.GetGameRequest(name="games/tictactoe"))
    titles = {bot.name: bot.title for bot in french.bots}
    assert titles["random"] == "Coups au hasard" and titles["mcts-hard"] == "Robot chercheur, difficile"
    assert {bot.name: bot.title for bot in plain.bots}["random"] == "Random moves"


def test_an_expired_match_says_why_in_french(start_host, tmp_path):
    expiring = start_host("--open-match-ttl", "0.5", "--retention-interval", "0.1", data_dir=tmp_path)
    with expiring.client() as client:
        match = client.create_match("tictactoe").name
        assert wait_for(lambda: client.match(match).status == pb.MATCH_STATUS_ABORTED, timeout=10)
        french = client.stub.GetMatch(pb.GetMatchRequest(name=match, locale="fr"))
        assert french.status_detail.message == "personne ne l’a commencée à temps"
        assert client.match(match).status_detail.message == "nobody started it in time"
