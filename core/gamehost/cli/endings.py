"""The CLI's endings: resigning, draws by agreement, claiming victory over
absent opponents."""

from __future__ import annotations

from gamehost.cli.channels import connect
from gamehost.cli.seats import SeatNames
from gamehost.cli.words import _, tr
from gamehost.v1 import gamehost_pb2 as pb


def status_word(status: int) -> str:
    """A match status as the CLI names it ("finished"), in its language."""
    return _(pb.MatchStatus.Name(status).removeprefix("MATCH_STATUS_").lower())


def status_with_reason(match: pb.Match) -> str:
    """The status with, for an aborted or suspended match, why:
    "aborted (ADMIN_ABORT: cheating)", "suspended (RULES_TIMEOUT: ...; plugin campanile)"."""
    detail = match.status_detail
    why = ": ".join(part for part in (detail.reason, detail.message) if part)
    if detail.plugin:
        why += "; " + tr("plugin {plugin}", plugin=detail.plugin)
    return f"{status_word(match.status)} ({why})" if why else status_word(match.status)


def describe_end(match: pb.Match) -> str:
    """One line: where the match stands after an ending call."""
    status = status_word(match.status)
    if match.status == pb.MATCH_STATUS_FINISHED and match.result.summary:
        return f"{match.name} {status} v{match.version}: {match.result.summary}"
    return f"{match.name} {status} v{match.version}"


def worded(host, match: pb.Match) -> pb.Match:
    """The match as an ending call returned it, read again in the asked language when one is asked
    (the ending calls carry no ``locale``: their answer's summary is English)."""
    return host.match(match.name) if host.locale else match


def resign(args) -> int:
    with connect(args) as host:
        match = worded(host, host.resign(args.match, args.token))
    print(tr("resigned: {match}", match=describe_end(match)))
    return 0


def claim(args) -> int:
    with connect(args) as host:
        match = worded(host, host.claim_victory(args.match, args.token))
    print(tr("claimed: {match}", match=describe_end(match)))
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
        done = {"offer": _("offered"), "accept": _("accepted"), "decline": _("declined"),
                "withdraw": _("withdrew the offer")}[args.action]
        if answer.agreed:
            print(tr("{done}: the match is drawn (v{version})", done=done, version=answer.version))
        elif answer.HasField("offer"):
            offer = answer.offer
            print(tr("{done}: {seat} offers a draw; waiting for {waiting} (offer v{offer}, expires {time} UTC)",
                     done=done, seat=names(offer.seat), waiting=", ".join(map(names, offer.waiting)),
                     offer=offer.offer_version, time=f"{offer.expire_time.ToDatetime():%H:%M:%S}"))
        else:
            print(tr("{done}: the match goes on (v{version})", done=done, version=answer.version))
    return 0
