"""Helpers the rules SDK gives plugin authors."""

from gamehost.sdk import places


def test_places_rank_higher_keys_first_and_share_ties():
    assert places([5, 7, 7, 1]) == [3, 1, 1, 4]
    assert places([(3, 9), (3, 2), (1, 50)]) == [1, 2, 3]  # tuples break ties
    assert places([-4, -2]) == [2, 1]  # negate where lower is better
