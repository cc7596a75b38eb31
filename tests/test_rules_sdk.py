"""Helpers the rules SDK gives plugin authors."""

from gamehost.sdk import places


def test_places_rank_higher_keys_first_and_share_ties():
    assert places([5, 7, 7, 1]) == [3, 1, 1, 4]
    assert places([(3, 9), (3, 2), (1, 50)]) == [1, 2, 3]  # tuples break ties
    assert places([-4, -2]) == [2, 1]  # negate where lower is better


def test_player_counts_name_the_allowed_seat_counts_and_must_include_the_minimum():
    from gamehost.host.plugins import validation_errors
    from gamehost_tictactoe.game import TicTacToe

    class Gapped(TicTacToe):
        id, min_players, max_players, player_counts = "gapped", 2, 6, (2, 4, 6)

    class Missing(Gapped):
        player_counts = (4, 6)

    assert TicTacToe().player_counts_text() == "2 players"
    assert Gapped().allowed_player_counts() == [2, 4, 6] and Gapped().player_counts_text() == "2, 4 or 6 players"
    assert validation_errors(Gapped()) == []
    assert validation_errors(Missing()) == ["player_counts [4, 6] must include min_players 2"]


def test_seats_are_named_for_people_from_1_with_the_players_name_or_colour():
    from gamehost.sdk import player_number, seat_name, seat_names

    assert player_number(0) == 1
    assert seat_name(1) == "Player 2" and seat_name(1, colour="red") == "Player 2 (red)"
    assert seat_name(1, player="Ada") == "Ada" and seat_name(0, player="Ada", colour="blue") == "Ada (blue)"
    assert seat_names(2, ("red", "blue")) == ["Player 1 (red)", "Player 2 (blue)"]
