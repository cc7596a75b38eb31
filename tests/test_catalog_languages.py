"""The catalog, seat names and refused moves in the player's language, over a
real host serving a fixture race (tests/fixtures/catalog_words) whose
words are English and French: variants and options in French when asked,
"Player {number}" from the SDK's catalogue, a refusal's French sentence in a
LocalizedMessage detail beside the English status message; English
unchanged when nothing is asked. And the conformance kit checking a
catalog's words."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamehost.client.structs import from_struct, to_struct
from gamehost.testing.conformance import run_conformance
from gamehost.v1 import gamehost_pb2 as pb
from hosts import FIXTURE_SITE, HostProcess

WORDS_SITE = Path(__file__).parent / "fixtures" / "catalog_words"
GAME = "games/fixture-catalog-words"


@pytest.fixture(scope="module")
def words_host():
    path = os.pathsep.join(filter(None, [str(WORDS_SITE), str(FIXTURE_SITE), os.environ.get("PYTHONPATH")]))
    process = HostProcess(env={"PYTHONPATH": path}).start()
    yield process
    process.stop()


@pytest.fixture()
def words_client(words_host):
    with words_host.client() as connected:
        yield connected


@pytest.fixture(scope="module")
def race_game():
    sys.path.insert(0, str(WORDS_SITE))
    try:
        from gamehost_catalog_words import CatalogWords
    finally:
        sys.path.remove(str(WORDS_SITE))
    return CatalogWords


def started_race(client, **options) -> tuple[str, list[str]]:
    match = client.create_match("fixture-catalog-words", **options)
    return match.name, [client.join(match.name).player_token, client.join(match.name).player_token]


def refusal(raised: grpc.RpcError) -> tuple[grpc.StatusCode, str, list[error_details_pb2.LocalizedMessage]]:
    """A refused call's code, status message and LocalizedMessage details."""
    status = rpc_status.from_call(raised)
    assert status is not None
    said = []
    for detail in status.details:
        if detail.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR):
            message = error_details_pb2.LocalizedMessage()
            detail.Unpack(message)
            said.append(message)
    return raised.code(), status.message, said


# ------------------------------------------------------------ the catalog

def test_the_catalog_says_variants_and_options_in_french(words_client):
    game = words_client.stub.GetGame(pb.GetGameRequest(name=GAME, locale="fr"))
    assert (game.locale, game.title) == ("fr", "Course à la cible")
    assert [(v.id, v.title, v.description) for v in game.variants] == [
        ("sprint", "Sprint", "Une course courte : la cible est 5."),
        ("marathon", "Marathon", "Une course longue : la cible est 30.")]
    assert from_struct(game.variants[0].options) == {"target": 5}
    options = from_struct(game.options_schema)["properties"]
    assert (options["target"]["title"], options["target"]["description"]) == ("Cible", "Le compte qui gagne la course.")
    assert options["first"]["title"] == "Qui commence"
    # the choices' labels are translated, the values a client sends back are not
    assert options["first"]["oneOf"] == [{"const": "first-seat", "title": "La première place"},
                                         {"const": "second-seat", "title": "La deuxième place"}]
    assert options["first"]["default"] == "first-seat"
    listed = words_client.stub.ListGames(pb.ListGamesRequest(locale="fr-CH"))
    assert next(g for g in listed.games if g.name == GAME) == game
    tictactoe = next(g for g in listed.games if g.id == "tictactoe")
    assert (tictactoe.locale, tictactoe.title) == ("fr", "Morpion")


def test_the_catalog_is_unchanged_in_english(words_client):
    plain = words_client.stub.GetGame(pb.GetGameRequest(name=GAME))
    assert (plain.locale, plain.title, plain.variants[0].description) == \
        ("", "Race to the target", "A short race: the target is 5.")
    assert from_struct(plain.options_schema)["properties"]["first"]["oneOf"][1]["title"] == "The second seat"
    for tag in ("en", "de"):
        english = words_client.stub.GetGame(pb.GetGameRequest(name=GAME, locale=tag))
        assert english.locale == "en"
        english.ClearField("locale")
        assert english == plain  # field by field: serialized Struct maps need not keep one order
    listed = words_client.stub.ListGames(pb.ListGamesRequest())
    assert next(g for g in listed.games if g.name == GAME) == plain


def test_accept_language_names_the_catalog_on_the_web_port(words_host):
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", words_host.web_port, timeout=10)
    try:
        connection.request("POST", "/gamehost.v1.GameHost/GetGame", json.dumps({"name": GAME}).encode(),
                           {"Content-Type": "application/json", "Accept-Language": "fr, en;q=0.5"})
        answer = json.loads(connection.getresponse().read())
    finally:
        connection.close()
    assert answer["locale"] == "fr"
    assert [v["title"] for v in answer["variants"]] == ["Sprint", "Marathon"]
    assert answer["optionsSchema"]["properties"]["target"]["title"] == "Cible"


def test_each_language_of_the_catalog_is_built_once(race_game):
    from gamehost.host.plugins import load_catalog
    from gamehost.host.rpc.catalog_messages import CatalogMessages
    from gamehost.host.rpc.locales import Locales
    from gamehost.sdk import hookimpl

    class Plugin:
        @hookimpl
        def gamehost_games(self):
            return [race_game()]

    catalog = CatalogMessages(load_catalog([("words", Plugin())], use_entry_points=False), (), Locales())
    french = catalog.games(("fr",))
    assert catalog.games(("fr",)) is french  # asked again: the same list
    assert catalog.games(("fr-CH", "de"))[0] is french[0]  # another way to ask for French: the same message
    assert catalog.games(()) is catalog.english and catalog.english[0].locale == ""


# ------------------------------------------------------------ seat names

def test_seat_names_come_from_the_sdk_in_french(words_client):
    name, tokens = started_race(words_client, variant="sprint")
    view = words_client.stub.GetView(pb.GetViewRequest(name=name, player_token=tokens[0], locale="fr"))
    assert [move.label for move in view.legal_moves] == ["Joueur 1 ajoute 1", "Joueur 1 ajoute 2"]
    english = words_client.stub.GetView(pb.GetViewRequest(name=name, player_token=tokens[0]))
    assert [move.label for move in english.legal_moves] == ["Player 1 adds 1", "Player 1 adds 2"]
    for index, move in enumerate(["add2", "add1", "add2"]):  # 5 reached by the first seat
        words_client.stub.SubmitMove(pb.SubmitMoveRequest(name=name, player_token=tokens[index % 2], move_id=move))
    finished = words_client.stub.GetView(pb.GetViewRequest(name=name, locale="fr"))
    assert finished.result.summary == "Joueur 1 atteint 5."
    assert words_client.stub.GetView(pb.GetViewRequest(name=name)).result.summary == "Player 1 reaches 5."


def test_seat_name_is_a_text_whose_english_is_unchanged():
    from gamehost.sdk import Text, seat_name, seat_names
    from gamehost.sdk.i18n import Catalogues

    assert (seat_name(1), seat_name(1, colour="red"), seat_name(1, player="Ada")) == \
        ("Player 2", "Player 2 (red)", "Ada")
    assert isinstance(seat_name(0), Text) and seat_names(2, ["red", "blue"]) == ["Player 1 (red)", "Player 2 (blue)"]
    french = Catalogues(None, languages=("fr",)).translator("fr")  # a plugin with no catalogue of its own
    assert french.translate(seat_name(2)) == "Joueur 3"
    assert french.translate(seat_name(0, colour=Text("Player {number}", number=9))) == "Joueur 1 (Joueur 9)"


# ------------------------------------------------------------ refused moves

def test_an_illegal_move_is_refused_in_french_beside_the_english_status(words_client):
    name, tokens = started_race(words_client)
    before = words_client.stub.GetMatch(pb.GetMatchRequest(name=name))
    move = pb.SubmitMoveRequest(name=name, player_token=tokens[0], structured=to_struct({"add": 3}), locale="fr")
    with pytest.raises(grpc.RpcError) as raised:
        words_client.stub.SubmitMove(move)
    code, message, said = refusal(raised.value)
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert message == "Illegal move: You may add 1 or 2, not 3."  # for developers: English, as documented
    assert [(m.locale, m.message) for m in said] == [("fr", "Vous pouvez ajouter 1 ou 2, pas 3.")]
    assert words_client.stub.GetMatch(pb.GetMatchRequest(name=name)) == before  # nothing changed

    move.ClearField("locale")
    with pytest.raises(grpc.RpcError) as raised:
        words_client.stub.SubmitMove(move)
    assert refusal(raised.value) == (grpc.StatusCode.FAILED_PRECONDITION, message, [])  # nothing asked: as before


def test_a_malformed_move_is_refused_in_french(words_client):
    name, tokens = started_race(words_client)
    with pytest.raises(grpc.RpcError) as raised:
        words_client.stub.SubmitMove(pb.SubmitMoveRequest(
            name=name, player_token=tokens[0], structured=to_struct({"add": "two"}), locale="fr-CH"))
    code, message, said = refusal(raised.value)
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert message == 'Malformed move: A move is {"add": 1} or {"add": 2}.'
    assert [(m.locale, m.message) for m in said] == [("fr", 'Un coup est {"add": 1} ou {"add": 2}.')]


def test_a_refusal_in_a_language_the_game_lacks_is_said_in_english(words_client):
    name, tokens = started_race(words_client)
    with pytest.raises(grpc.RpcError) as raised:
        words_client.stub.SubmitMove(pb.SubmitMoveRequest(
            name=name, player_token=tokens[0], structured=to_struct({"add": 5}), locale="de"))
    code, message, said = refusal(raised.value)
    assert (code, message) == (grpc.StatusCode.FAILED_PRECONDITION, "Illegal move: You may add 1 or 2, not 5.")
    assert [(m.locale, m.message) for m in said] == [("en", "You may add 1 or 2, not 5.")]


def test_a_session_refuses_a_move_in_french(words_client):
    name, tokens = started_race(words_client)
    requests = iter([pb.SessionRequest(tag=7, move=pb.SubmitMoveRequest(
        name=name, player_token=tokens[0], structured=to_struct({"add": 4}), locale="fr"))])
    stream = words_client.stub.Session(requests, timeout=10)
    event = next(event for event in stream if event.tag == 7)
    stream.cancel()
    assert event.error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    said = [error_details_pb2.LocalizedMessage.FromString(d.value) for d in event.error.details
            if d.Is(error_details_pb2.LocalizedMessage.DESCRIPTOR)]
    assert [(m.locale, m.message) for m in said] == [("fr", "Vous pouvez ajouter 1 ou 2, pas 4.")]


# ------------------------------------------------------------ the conformance kit

def test_the_kit_passes_the_translated_race(race_game):
    report = run_conformance(race_game(), seats=2, playouts=3)
    assert report.words is not None and report.words.languages == ["fr"] and not report.words.problems


def test_the_kit_fails_untranslated_catalog_words(race_game):
    from gamehost.sdk import Text, Variant

    class HalfTranslatedCatalog(race_game):
        variants = (*race_game.variants, Variant("relay", Text("Relay"), {}, "Seats take turns."))
        options_schema = {**race_game.options_schema, "properties": {
            **race_game.options_schema["properties"],
            "pace": {"enum": ["slow", "fast"], "default": "slow", "description": Text("How fast to count.")}}}

    with pytest.raises(AssertionError) as failed:
        run_conformance(HalfTranslatedCatalog(), seats=2, playouts=1)
    message = str(failed.value)
    assert "title of variant 'relay': 'Relay' has no fr translation" in message
    assert "description of variant 'relay' 'Seats take turns.' is a plain string" in message
    assert "description of options.pace: 'How fast to count.' has no fr translation" in message
    assert "slow" not in message  # a choice's value is not a word
