"""The engine's RNG: derived from (seed, version), lazily seeded, and
exactly the sequence of random.Random with the same key."""

from __future__ import annotations

import random

import pytest

from gamehost.sdk.chance import DerivedRandom, rng_for


def draws(rng: random.Random) -> list:
    cards = list(range(30))
    rng.shuffle(cards)
    return [rng.random(), rng.randrange(100), rng.choice("abcdef"), rng.sample(range(50), 5), rng.gauss(0, 1),
            rng.uniform(1, 2), rng.getrandbits(70), cards, rng.randbytes(4), rng.getstate(), rng.random()]


@pytest.mark.parametrize("first", ["random", "shuffle", "randbytes", "getrandbits", "choice", "getstate", "gauss"])
def test_derived_random_draws_the_same_sequence_whatever_is_drawn_first(first):
    lazy, eager = DerivedRandom("42/7/rules"), random.Random("42/7/rules")
    args = {"shuffle": [[1, 2, 3]], "choice": [[1, 2, 3]], "randbytes": [4], "getrandbits": [4], "gauss": [0, 1]}
    getattr(lazy, first)(*args.get(first, []))
    getattr(eager, first)(*args.get(first, []))
    assert draws(lazy) == draws(eager)


def test_each_version_and_purpose_gets_its_own_stream():
    assert draws(rng_for(1, 5)) == draws(rng_for(1, 5))
    assert draws(rng_for(1, 5)) != draws(rng_for(1, 6))
    assert draws(rng_for(1, 5)) != draws(rng_for(2, 5))
    assert draws(rng_for(1, 5, "bot")) != draws(rng_for(1, 5))
