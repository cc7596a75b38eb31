"""Fair chance: who may choose a match's seed.

Whoever knows the seed of a game with chance or hidden information can
compute the dice, the shuffles and the other players' hands before the
first move. So in such a game only an admin may choose it (to reproduce a
reported match, say), and the match says so (``seed_chosen``). In a game
with neither there is nothing to predict: anyone may choose.
"""

from __future__ import annotations

from gamehost.host import errors
from gamehost.host.auth import Principal
from gamehost.sdk.rules import Game

CHOSEN_SEEDS = ("admins", "anyone")  # the host setting; "anyone" is for development and test hosts


def seed_needs_admin(game: Game) -> bool:
    return bool(game.chance or game.hidden_information)


def check_chosen_seed(game: Game, caller: Principal | None, chosen_seeds: str = "admins") -> None:
    """Refuse a chosen seed the caller may not choose. ``caller`` None: the
    host itself (the conformance kit, tools), which may."""
    if caller is None or caller.admin or chosen_seeds == "anyone" or not seed_needs_admin(game):
        return
    kinds = " and ".join(kind for kind, present in (("chance", game.chance),
                                                    ("hidden information", game.hidden_information)) if present)
    raise errors.PermissionDenied(
        f"{game.title} has {kinds}: a chosen seed would let its chooser predict them, so only an admin may "
        "choose one. Leave seed unset and the host draws one.", "SEED_NOT_ALLOWED",
        metadata=errors.metadata_of(game=game.id))
