"""Kensington's options and rules versions as a real host serves them: the
idle-rounds option in the catalog (in English and French), refused out of
its range with nothing created, recorded in a match; new matches under rules
version 2."""

from __future__ import annotations

import grpc
import pytest
from gamehost.client import GameHostError
from gamehost.v1 import gamehost_pb2 as pb
from google.protobuf.json_format import MessageToDict
from hosts import HostProcess


@pytest.fixture(scope="module")
def host():
    process = HostProcess().start()
    yield process
    process.stop()


def test_the_catalog_offers_idle_rounds_from_three_default_ten_in_english_and_french(host):
    with host.client() as client:
        game = client.game("kensington")
        french = client.stub.GetGame(pb.GetGameRequest(name="games/kensington", locale="fr"))
    schema = MessageToDict(game.options_schema)["properties"]["idle_rounds"]
    assert game.rules_version == "2"
    assert (schema["type"], schema["default"], schema["minimum"], schema["maximum"]) == ("integer", 10, 3, 50)
    assert MessageToDict(game.default_options)["idle_rounds"] == 10
    assert schema["description"].startswith("The game ends after this many full rounds in a row")
    french_schema = MessageToDict(french.options_schema)["properties"]["idle_rounds"]
    assert french_schema["description"].startswith("La partie se termine après ce nombre de tours de table")


@pytest.mark.parametrize("rounds, words", [(2, "2 is less than the minimum of 3"),
                                           (51, "51 is greater than the maximum of 50"),
                                           ("ten", "'ten' is not of type 'integer'")])
def test_idle_rounds_out_of_range_is_refused_and_creates_no_match(host, rounds, words):
    with host.client() as client:
        before = len(client.matches(game="kensington"))
        with pytest.raises(GameHostError) as caught:
            client.create_match("kensington", options={"idle_rounds": rounds})
        after = len(client.matches(game="kensington"))
    error = caught.value
    assert (error.code, error.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_OPTIONS")
    assert error.field_violations[0][0] == "options.idle_rounds" and words in error.message
    assert after == before


def test_a_new_match_records_its_idle_rounds_under_rules_version_2(host):
    with host.client() as client:
        chosen = client.create_match("kensington", options={"idle_rounds": 4})
        default = client.create_match("kensington")
        views = [client.view(match.name) for match in (chosen, default)]
        listed = [client.match(match.name) for match in (chosen, default)]
    assert [match.rules_version for match in listed] == ["2", "2"]
    assert [MessageToDict(match.options)["idle_rounds"] for match in listed] == [4, 10]
    assert [view.state["options"]["idle_rounds"] for view in views] == [4, 10]
