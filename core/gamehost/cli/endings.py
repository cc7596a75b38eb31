"""The CLI's endings: resigning, draws by agreement, claiming victory over
absent opponents."""

from __future__ import annotations

from gamehost.cli.channels import connect
from gamehost.cli.seats import SeatNames
from gamehost.v1 import gamehost_pb2 as pb


def describe_end(match: pb.Match) -> str:
    """One line: where the match stands after an ending call."""
    status = pb.MatchStatus.Name(match.status).removeprefix("MATCH_STATUS_").lower()
    if match.status == pb.MATCH_STATUS_FINISHED and match.result.summary:
        return f"{match.name} {status} v{match.version}: {match.result.summary}"
    return f"{match.name} {status} v{match.version}"


def resign(args) -> int:
    with connect(args) as host:
        match = host.resign(args.match, args.token)
    print(f"resigned: {describe_end(match)}")
    return 0


def claim(args) -> int:
    with connect(args) as host:
        match = host.claim_victory(args.match, args.token)
    print(f"claimed: {describe_end(match)}")
    return 0


def draw(args) -> int:
    """Offer a draw, accept or decline the open offer, or withdraw yours."""
    with connect(args) as host:
        if args.action == "offer":
            answer = host.offer_draw(args.match, args.token)
        elif args.action == "withdraw":
            answer = host.withdraw_draw(args.match, args.token)
        else:
            answer = host.answer_draw(args.match, args.token, args.action == "accept",
                                      offer_version=args.offer_version)
        names = SeatNames(host, args.match)
        done = {"offer": "offered", "accept": "accepted", "decline": "declined",
                "withdraw": "withdrew the offer"}[args.action]
        if answer.agreed:
            print(f"{done}: the match is drawn (v{answer.version})")
        elif answer.HasField("offer"):
            offer = answer.offer
            print(f"{done}: {names(offer.seat)} offers a draw; waiting for {', '.join(map(names, offer.waiting))} "
                  f"(offer v{offer.offer_version}, expires {offer.expire_time.ToDatetime():%H:%M:%S} UTC)")
        else:
            print(f"{done}: the match goes on (v{answer.version})")
    return 0
