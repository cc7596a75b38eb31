"""What each client-side ``gamehost`` subcommand does."""

from __future__ import annotations

import json
import sys

from gamehost.cli.channels import connect
from gamehost.cli.endings import describe_end, status_with_reason, status_word, worded
from gamehost.cli.part_pictures import part_pictures, side_by_side
from gamehost.cli.private_matches import print_invitation, reservations
from gamehost.cli.quitting import ask_on_quit
from gamehost.cli.seats import SeatNames, seat_label, seat_name, seat_with_number
from gamehost.cli.words import _, tr
from gamehost.sdk.i18n import ENGLISH, Translator, catalogues_of, negotiate, translating
from gamehost.client import GameHostClient, Resume, candidates, canonical_json, choices, composed, from_struct
from gamehost.client import seed_commitment
from gamehost.v1 import gamehost_pb2 as pb

STATUS_NAMES = {"open": pb.MATCH_STATUS_OPEN, "active": pb.MATCH_STATUS_ACTIVE,
                "finished": pb.MATCH_STATUS_FINISHED, "abandoned": pb.MATCH_STATUS_ABANDONED,
                "aborted": pb.MATCH_STATUS_ABORTED, "suspended": pb.MATCH_STATUS_SUSPENDED}


def _status(value: int) -> str:
    return status_word(value)


def _options(pairs: list[str]) -> dict:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"error: --option takes NAME=VALUE, got {pair!r}")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            options[name] = value
    return options


def plugins(args) -> int:
    from gamehost.host.plugins import load_catalog

    catalog = load_catalog()
    for report in catalog.reports:
        origin = " ".join(filter(None, [report.distribution, report.version]))
        state = "ok" if report.ok else "FAILED"
        print(f"{report.name:<20} {state:<7} {origin}")
        if report.games:
            # The rules versions too: which ones a release ships decides which matches it plays on.
            print(f"    games: {', '.join(f'{g} (rules {catalog.games[g].versions_text()})' for g in report.games)}")
        for error in report.errors:
            print(f"    error: {error}")
    return 0 if all(report.ok for report in catalog.reports) else 1


def games(args) -> int:
    with connect(args) as host:
        found = host.games()
    if args.json:
        from google.protobuf.json_format import MessageToDict
        print(json.dumps([MessageToDict(game) for game in found], indent=2))
        return 0
    for game in found:
        traits = [t for t, on in ((_("hidden information"), game.hidden_information), (_("chance"), game.chance))
                  if on]
        players = (tr("{count} players", count=game.min_players) if game.min_players == game.max_players else
                   tr("{min}-{max} players", min=game.min_players, max=game.max_players))
        print(f"{game.id:<16} {game.title} ({players}{', ' + ', '.join(traits) if traits else ''})")
        print(f"{'':<16} {game.summary}")
        defaults = from_struct(game.default_options)
        if defaults:
            print(f"{'':<16} " + tr("options: {options}", options=json.dumps(defaults)))
        for variant in game.variants:
            print(f"{'':<16} " + tr("variant {id}: {title}", id=variant.id, title=variant.title))
    return 0


def matches(args) -> int:
    with connect(args) as host:
        found = host.matches(game=args.game, status=STATUS_NAMES.get(args.status, 0), limit=args.limit,
                             mine=args.mine, player=args.player, my_turn=args.my_turn)
    if not found:
        print(_none_found(args))
    for match in found:
        seats = ", ".join(seat_label(seat) for seat in match.seats)
        turn = "  " + _("(your turn)") if match.HasField("user_turn_since") else ""
        why = status_with_reason(match) if match.status_detail.reason or match.status_detail.message else ""
        print(f"{match.name:<26} {match.game:<18} {_status(match.status):<9} v{match.version:<5} {seats}{turn}"
              + (f"  {why}" if why else ""))
    return 0


def _none_found(args) -> str:
    """What an empty listing means, said as the filters asked it."""
    if args.my_turn:
        return _("No match is waiting for your move.")
    if args.mine:
        return _("You hold no seat in any match.")
    return _("No match found.")


def create(args) -> int:
    bots = [int(seat) for seat in args.bots.split(",") if seat.strip()]
    with connect(args) as host:
        match = host.create_match(args.game, seats=args.seats, options=_options(args.option), seed=args.seed,
                                  bots=bots, bot=args.bot, variant=args.variant, turn_timeout=args.turn_timeout,
                                  visibility=args.visibility, spectators=args.spectators,
                                  reserved_seats=reservations(args.reserve), rated=False if args.casual else None)
    print(match.name)
    print_invitation(args, match)
    return 0


def join(args) -> int:
    with connect(args) as host:
        joined = host.join(args.match, seat=args.seat, player_name=args.name, invitation_code=args.invite)
    seat = next((seat for seat in joined.match.seats if seat.index == joined.seat), None)
    print(tr("{seat} of {match} (seat {index} in the API, counted from 0)",
             seat=seat_with_number(seat) if seat is not None else seat_name(joined.seat),
             match=joined.match.name, index=joined.seat))
    print(tr("player token: {token}", token=joined.player_token))
    return 0


def _ticket_state(ticket: pb.Ticket) -> str:
    return _(pb.TicketState.Name(ticket.state).removeprefix("TICKET_STATE_").lower())


def list_tickets(args) -> int:
    """One line per ticket of the caller's, queued ones first."""
    states = [pb.TicketState.Value(f"TICKET_STATE_{state.upper()}") for state in args.state]
    with connect(args) as host:
        for ticket in host.tickets(states=states):
            where = " -> " + tr("{match} seat {seat}", match=ticket.match, seat=ticket.seat) \
                if ticket.state == pb.TICKET_STATE_MATCHED else ""
            print(f"{ticket.name}  {_ticket_state(ticket):9}  {ticket.game}  "
                  + tr("{count} players", count=ticket.seats) + "  "
                  + tr("queued {time}", time=f"{ticket.create_time.ToDatetime():%Y-%m-%d %H:%M:%S}") + where)
    return 0


def queue(args) -> int:
    """Queue, follow the ticket, print the match; Ctrl-C cancels the ticket."""
    if args.list:
        if args.game:
            raise SystemExit("error: --list lists your tickets; name no game with it")
        return list_tickets(args)
    if not args.game and not args.party:
        raise SystemExit("error: name a game to queue for, a --party to join, or --list for your tickets")
    with connect(args) as host:
        ticket = host.create_ticket(args.game or "", seats=args.seats, variant=args.variant,
                                    options=_options(args.option), min_rating=args.min_rating,
                                    max_rating=args.max_rating, ttl=args.ttl, bot_wait=args.bot_wait, bot=args.bot,
                                    widen_per_second=args.widen_per_second, max_widening=args.max_widening,
                                    party_size=args.party_size, party=args.party)
        print(tr("{ticket}: queued for {game}, {count} players (rating {rating})", ticket=ticket.name,
                 game=ticket.game, count=ticket.seats, rating=f"{ticket.rating:.1f}"), flush=True)
        if ticket.party:
            print(tr("{party}: {queued} of {size} friends queued; they join with `{command}`", party=ticket.party,
                     queued=ticket.party_queued, size=ticket.party_size,
                     command=f"gamehost queue --party {ticket.party}"), flush=True)
        try:
            for ticket in host.watch_ticket(ticket.name):
                pass
        except KeyboardInterrupt:
            ticket = host.cancel_ticket(ticket.name)
        if ticket.state != pb.TICKET_STATE_MATCHED:
            print(f"{ticket.name}: {_ticket_state(ticket)}")
            return 1
    print(tr("{match}: you are {seat} (seat {index} in the API)", match=ticket.match, seat=seat_name(ticket.seat),
             index=ticket.seat))
    print(tr("play by identity, or `{command}` for your seat's player token", command=f"gamehost join {ticket.match}"))
    return 0


def _print_view(view: pb.View) -> None:
    print()
    print(view.text)
    if view.result.summary:
        print("\n" + tr("Game over: {summary}  scores: {scores}", summary=view.result.summary,
                        scores=list(view.result.scores)))


def play(args) -> int:
    with connect(args) as host:
        if args.match:
            match_name, token = args.match, args.token
            if not token:
                joined = host.join(args.match, player_name=args.name)
                match_name, token = joined.match.name, joined.player_token
        elif args.game:
            game = host.game(args.game)
            seats = args.seats or game.min_players
            match = host.create_match(args.game, seats=seats, options=_options(args.option), seed=args.seed,
                                      bots=list(range(1, seats)), bot=args.bot, variant=args.variant)
            joined = host.join(match.name, seat=0, player_name=args.name)
            match_name, token = match.name, joined.player_token
        else:
            raise SystemExit(_("error: name a game to start, or --match to play an existing one"))
        try:
            return _play_match(host, match_name, token)
        except KeyboardInterrupt:  # Ctrl-C is a quit like q: the player says what becomes of the seat
            print()
            return ask_on_quit(host, args, match_name, token, input_ended=False)
        except _Quit as quitting:
            return ask_on_quit(host, args, match_name, token, input_ended=quitting.input_ended)


class _Quit(Exception):
    """The player quit the play loop (q, or input ended)."""

    def __init__(self, input_ended: bool) -> None:
        super().__init__("quit")
        self.input_ended = input_ended


def _play_match(host: GameHostClient, match_name: str, token: str) -> int:
    names = SeatNames(host, match_name)
    draws = host.game(host.match(match_name).game).draw_by_agreement
    print(tr("{match}: you are {seat}", match=match_name, seat=seat_name(host.view(match_name, token).seat)))
    view = host.view(match_name, token, text=True)
    while True:
        _print_view(view)
        if view.status != pb.MATCH_STATUS_ACTIVE:
            return 0
        if not view.legal_moves:
            print(tr("waiting for {seats} ...", seats=", ".join(map(names, view.to_move))))
            view = _next_view(host, match_name, token, view.version, names)
            continue
        if _composed_in_parts(view):
            view = host.view(match_name, token, text=True, svg=True)  # its targets draw the shapes to choose
        choice = _choose_move(view, draws=draws)
        if choice is QUIT or choice is INPUT_ENDED:
            raise _Quit(input_ended=choice is INPUT_ENDED)
        if choice is RESIGN:  # the seat is no longer the player's: its token reads nothing more
            print(tr("resigned: {match}", match=describe_end(worded(host, host.resign(match_name, token)))))
            return 0
        if choice is OFFER_DRAW:
            offered = host.offer_draw(match_name, token)
            print(_("the match is drawn") if offered.agreed else
                  tr("draw offered; waiting for {seats}", seats=", ".join(map(names, offered.offer.waiting))))
            view = host.view(match_name, token, text=True)
            continue
        answer = host.move(match_name, token, move_id=choice, expected_version=view.version, text=True)
        view = answer.view


COMPOSE_FROM = 24
"""More legal moves than this, offered in parts, are chosen part by part
(a piece, then how it lies, then its cell) instead of from one long list."""


def _composed_in_parts(view: pb.View) -> bool:
    """Whether the player chooses this view's move part by part rather than from one list."""
    return len(view.legal_moves) > COMPOSE_FROM and any(move.parts for move in view.legal_moves)


def _choose_move(view: pb.View, draws: bool = False):
    """The id of the move the player picks: from the list of moves, or part
    by part when the list is long and the plugin offers the moves in parts;
    or RESIGN ("r"), OFFER_DRAW ("d", in games with draws by agreement),
    QUIT ("q") or INPUT_ENDED. A step with one choice is taken, not asked."""
    moves = list(view.legal_moves)
    ids = [move.id for move in moves]
    if not _composed_in_parts(view):
        if len(moves) == 1:
            print("  " + tr("{choice} (the only one)", choice=moves[0].label))
            return moves[0].id
        for number, move in enumerate(moves, 1):
            print(f"  {number:>3}. {move.label}  [{move.id}]")
        prompt = (_("your move (number or id, r to resign, d to offer a draw, q to quit): ") if draws else
                  _("your move (number or id, r to resign, q to quit): "))
        return _ask([(move.id, move.id) for move in moves], ids, prompt,
                    endings={"r": RESIGN, **({"d": OFFER_DRAW} if draws else {})})
    pictures = part_pictures(view.svg)
    chosen: list[pb.MovePart] = []
    asked: list[bool] = []  # per chosen part: whether the player chose it (else it was the only one)
    while True:
        path = [part.id for part in chosen]
        # Moves offered whole are listed with the first choices.
        options = [(part.id, part.label) for part in choices(moves, path)]
        whole = [] if chosen else [(move.id, move.label) for move in moves if not move.parts]
        if len(options) == 1 and not whole:
            print("  " + tr("{choice} (the only one)", choice=options[0][1]))
            picked = options[0][0]
            asked.append(False)
        else:
            count = len(candidates(moves, path)) + len(whole)
            print(tr("{count} moves with {parts}; choose:", count=count, parts=" > ".join(p.label for p in chosen))
                  if chosen else tr("{count} moves; choose:", count=count))
            for number, (key, label) in enumerate(options + whole, 1):
                print(f"  {number:>3}. {label}  [{key}]")
            drawn = [(number, pictures[key]) for number, (key, _label) in enumerate(options, 1) if key in pictures]
            for line in side_by_side(drawn):
                print(line)
            picked = _ask(options + whole, ids, _("number, id, b to go back, q to quit: "), back=any(asked))
            if picked is QUIT or picked is INPUT_ENDED:
                return picked
            if picked == BACK:  # back to the last step the player chose, past those taken for them
                while not asked[-1]:
                    chosen.pop(), asked.pop()
                chosen.pop(), asked.pop()
                continue
            if picked in ids and picked not in {key for key, _label in options}:
                return picked
            asked.append(True)
        chosen.append(next(part for part in choices(moves, path) if part.id == picked))
        whole_move = composed(moves, [part.id for part in chosen])
        if whole_move is not None:
            return whole_move.id


BACK, RESIGN, OFFER_DRAW, QUIT, INPUT_ENDED = object(), object(), object(), object(), object()


def _ask(options: list[tuple[str, str]], ids: list[str], prompt: str, back: bool = False,
         endings: dict[str, object] | None = None):
    """A key of ``options`` by its number or the key itself, any move id, BACK
    for "b" (if ``back``), what ``endings`` maps a letter to, QUIT for "q",
    INPUT_ENDED when there is no more input."""
    keys = [key for key, _label in options]
    while True:
        try:
            text = input(prompt).strip()
        except EOFError:
            return INPUT_ENDED
        if text == "q":
            return QUIT
        if back and text == "b":
            return BACK
        if endings and text in endings and text not in keys and text not in ids:
            return endings[text]
        if text.isdigit() and 1 <= int(text) <= len(keys):
            return keys[int(text) - 1]
        if text in keys or text in ids:
            return text
        print(tr("'{text}' is not one of the choices above.", text=text))


def _reconnecting(resume: Resume) -> None:
    why = resume.error or _("the stream ended")
    print(tr("connection lost ({why}); reconnecting in {delay} s (attempt {attempt})", why=why,
             delay=f"{resume.delay:.1f}", attempt=resume.attempt), file=sys.stderr, flush=True)


def _step_line(event: pb.MatchEvent) -> str:
    """A step as a person reads it: the move's label and what it revealed."""
    revealed = "; ".join(reveal.label for reveal in event.revealed)
    return event.label + (f" ({revealed})" if revealed else "")


def _whole_turn(event: pb.MatchEvent, names: SeatNames) -> str | None:
    """The line naming every step of the turn ``event`` ends, for a turn of more than one step."""
    if not event.HasField("turn") or len(event.turn.steps) < 2:
        return None
    return tr("{seat}'s whole turn: {steps}", seat=names(event.turn.seat), steps=event.turn.text)


def _next_view(host: GameHostClient, match_name: str, token: str, version: int, names: SeatNames) -> pb.View:
    for event in host.follow(match_name, token, after_version=version, text=True, on_resume=_reconnecting):
        if event.kind == pb.EVENT_KIND_MOVED:
            print(f"  {names(event.seat)}: {_step_line(event)}")
            whole = _whole_turn(event, names)
            if whole is not None:
                print(f"  {whole}")
        elif event.kind == pb.EVENT_KIND_DRAW_OFFERED:
            print("  " + tr("{seat} offers a draw: `{command}` (or decline)", seat=names(event.seat),
                            command=f"gamehost draw accept {match_name} --token ..."))
        elif event.kind == pb.EVENT_KIND_RESIGNED:
            print("  " + tr("{seat} resigned", seat=names(event.seat)))
        if event.HasField("view"):
            return event.view
    return host.view(match_name, token, text=True)


def watch(args) -> int:
    with connect(args) as host:
        names = SeatNames(host, args.match)
        for event in host.follow(args.match, args.token, after_version=args.after, text=True,
                                 on_resume=_reconnecting):
            kind = _(pb.EventKind.Name(event.kind).removeprefix("EVENT_KIND_").lower())
            who = f" {names(event.seat)}" if event.seat >= 0 else ""
            line = _step_line(event)
            print(f"v{event.version} {kind}{who}{': ' + line if line else ''}", flush=True)
            whole = _whole_turn(event, names)
            if whole is not None:
                print(f"  {whole}", flush=True)
            if event.HasField("view"):
                _print_view(event.view)
    return 0


def undo(args) -> int:
    """Ask to take back your last move, answer the open ask, or withdraw yours."""
    with connect(args) as host:
        if args.action == "ask":
            answer = host.ask_undo(args.match, args.token)
        elif args.action == "withdraw":
            answer = host.withdraw_undo(args.match, args.token)
        else:
            answer = host.answer_undo(args.match, args.token, args.action == "accept", ask_version=args.ask_version)
        names = SeatNames(host, args.match)
        done = {"ask": _("asked"), "accept": _("accepted"), "refuse": _("refused"),
                "withdraw": _("withdrew the ask")}[args.action]
        if answer.undone:
            print(tr("{done}: the move is taken back (match now at v{version})", done=done, version=answer.version))
        elif answer.HasField("ask"):
            ask = answer.ask
            print(tr("{done}: {seat} asks to take back the move of v{undoes}; waiting for {waiting} (ask v{ask}, "
                     "expires {time} UTC)", done=done, seat=names(ask.seat), undoes=ask.undoes,
                     waiting=", ".join(map(names, ask.waiting)), ask=ask.ask_version,
                     time=f"{ask.expire_time.ToDatetime():%H:%M:%S}"))
        else:
            print(tr("{done}: the move stands (match now at v{version})", done=done, version=answer.version))
    return 0


def script(args) -> int:
    """Create a match with every seat held here, play the given move ids in
    order (each by the seat whose move it is) and print the match log as
    canonical JSON: the same game, seed, options and moves give the same log from any
    client, in any language."""
    with connect(args) as host:
        seats = args.seats or host.game(args.game).min_players
        match = host.create_match(args.game, seats=seats, options=_options(args.option), seed=args.seed,
                                  variant=args.variant).name
        tokens = [host.join(match, seat=seat, player_name=f"seat {seat}").player_token for seat in range(seats)]
        for move_id in filter(None, args.moves.split(",")):
            current = host.match(match)
            seat = _mover_of(host, match, current.to_move, tokens, move_id)
            host.move(match, tokens[seat], move_id=move_id, expected_version=current.version)
        print(canonical_json(host.log(match)))
    return 0


def _mover_of(host: GameHostClient, match: str, to_move, tokens: list[str], move_id: str) -> int:
    """The seat to submit ``move_id``: the one to move, or among several the
    one whose legal moves list it; else the first, and the host says why not."""
    for seat in to_move if len(to_move) > 1 else ():
        if any(move.id == move_id for move in host.view(match, tokens[seat]).legal_moves):
            return seat
    return to_move[0] if to_move else 0


def _ended_by(events) -> str:
    """What ended a match before its game did, as the event before FINISHED
    names it (a resignation, a draw by agreement, a claim, a clock), or ""."""
    names = {pb.EVENT_KIND_RESIGNED: _("a resignation"), pb.EVENT_KIND_DRAW_AGREED: _("a draw by agreement"),
             pb.EVENT_KIND_VICTORY_CLAIMED: _("a claim of victory"),
             pb.EVENT_KIND_CLOCK_RAN_OUT: _("a clock running out")}
    kinds = [event.kind for event in events]
    if len(kinds) < 2 or kinds[-1] != pb.EVENT_KIND_FINISHED:
        return ""
    return names.get(kinds[-2], "")


def _pictures_translator(game, wanted: str) -> Translator:
    """The translator for the text pictures ``game`` draws here, in the best language it has for
    ``wanted`` (the host does the same for the pictures it sends)."""
    catalogues = catalogues_of(game)
    return catalogues.translator(negotiate([wanted], catalogues.languages) if wanted else ENGLISH)


def _seed_committed(log: pb.MatchLog, seen: bytes) -> bool:
    """Check the revealed seed and salt against the commitment the match
    published at creation (and against ``seen``, that commitment as the
    caller kept it, when given); say what was found. False: the seed is not
    the one committed to, and the replay is refused."""
    if seen and seen != log.seed_commitment:
        print(tr("REJECTED: the log's seed commitment {logged} is not the one the match showed at its creation, "
                 "{seen}", logged=log.seed_commitment.hex() or "-", seen=seen.hex()), file=sys.stderr)
        return False
    found = seed_commitment.check(log.seed_commitment, log.seed, log.seed_salt)
    if not found.recorded:
        print(tr("note: no commitment recorded: the match was created before the host committed to seeds, so "
                 "nothing shows that its seed was fixed before the first move"))
    elif found.rejected:
        print(tr("REJECTED: the revealed seed {seed} and salt {salt} do not hash to the commitment {commitment} "
                 "published when the match was created: the seed is not the one the match was played with",
                 seed=log.seed, salt=log.seed_salt.hex(), commitment=log.seed_commitment.hex()), file=sys.stderr)
        return False
    else:
        print(tr("commitment verified: seed {seed} was fixed when the match was created ({commitment})",
                 seed=log.seed, commitment=log.seed_commitment.hex()))
    return True


def replay(args) -> int:
    from gamehost.host.plugins import load_catalog
    from gamehost.sdk.replay import RecordedMove, initial_state
    from gamehost.sdk.endings import ranked_with_resigned
    from gamehost.sdk.replay import replay as replay_moves

    with connect(args) as host:
        log = host.log(args.match)
        seats = {seat.index: seat_label(seat) for seat in host.match(args.match).seats}
    if not log.complete:
        print(tr("error: {match} is not over; its full log (with the seed) is published at the end",
                 match=log.match), file=sys.stderr)
        return 1
    if not _seed_committed(log, args.commitment):
        return 1
    game_id = log.game.removeprefix("games/")
    entry = load_catalog().get(game_id)
    if entry is None:
        print(tr("error: the {game} plugin is not installed here", game=game_id), file=sys.stderr)
        return 1
    pinned = entry.at_version(log.rules_version)  # the rules the match was played under, if shipped
    game = (pinned or entry).game
    pictures = _pictures_translator(game, args.locale)
    if pinned is None:
        print(tr("warning: match used rules {used}, local plugin has {local}", used=log.rules_version,
                 local=entry.versions_text()), file=sys.stderr)
    first = state = initial_state(game, log.seats, from_struct(log.options), log.seed)
    standing: list[RecordedMove] = []  # the moves not taken back so far
    for event in log.events:
        if event.kind == pb.EVENT_KIND_MOVED:
            standing.append(RecordedMove(event.version, event.seat, from_struct(event.move)))
            state = replay_moves(game, state, log.seed, standing[-1:])
            what = event.label
        elif event.kind == pb.EVENT_KIND_UNDONE:  # the position before that move: the others replayed
            standing = [move for move in standing if move.version != event.undoes]
            state = replay_moves(game, first, log.seed, standing)
            what = tr("took back the move of v{version}", version=event.undoes)
        else:
            continue
        if not args.quiet:
            print(f"\nv{event.version} {seats.get(event.seat) or seat_name(event.seat)}: {what}")
            with translating(pictures):
                print(game.render_text(game.view(state, None)))
    outcome = game.outcome(state)
    if not log.result.ranking:
        print(tr("replayed {count} events: the match ended without a result (abandoned or aborted), so there is "
                 "no result to verify", count=len(log.events)))
        return 0
    ended_by = _ended_by(log.events)
    if outcome is None and ended_by:  # the players (or a clock) ended it before the game's own end
        print(tr("verified: {count} events replay; the match ended by {ending} before the game's end, with the "
                 "result the host recorded: {summary}", count=len(log.events), ending=ended_by,
                 summary=log.result.summary))
        return 0
    expected = list(log.result.ranking), list(log.result.scores)
    resigned = [event.seat for event in log.events if event.kind == pb.EVENT_KIND_RESIGNED]
    if outcome is None or (ranked_with_resigned(outcome.ranking, resigned),
                           [float(s) for s in outcome.scores]) != expected:
        print(tr("MISMATCH: the replay ends with {outcome}, the host recorded {result}", outcome=outcome,
                 result=log.result), file=sys.stderr)
        return 1
    print(tr("verified: {count} events replay to the recorded result: {summary}", count=len(log.events),
             summary=log.result.summary))
    return 0


def whoami(args) -> int:
    with connect(args) as host:
        identity = host.identity()
    if not identity.subject:
        print("anonymous")
        return 0
    print(f"{identity.subject} ({identity.display_name}) via {identity.method}; roles: "
          f"{', '.join(identity.roles) or 'none'}")
    return 0


def admin(args) -> int:
    if args.action in ("deliveries", "redeliver"):
        return _deliveries(args)
    if args.action in ("export-user", "delete-user"):
        return _user_data(args)
    with connect(args) as host:
        if args.action == "abort":
            match = host.abort(args.match, args.reason)
        elif args.action == "delete":
            host.delete(args.match)
            print(f"deleted {args.match}")
            return 0
        elif args.action == "assign-bot":
            match = host.assign_bot(args.match, args.seat, args.bot)
        else:
            match = host.resume(args.match)
    print(f"{match.name} {status_with_reason(match)} v{match.version}")
    return 0


def _user_data(args) -> int:
    """Export a user's data to a file or stdout, or erase it once the operator typed the user's id."""
    subject = args.player.removeprefix("players/")
    if args.action == "delete-user" and not args.yes:
        if not sys.stdin.isatty():
            print(tr("delete-user cannot be undone: add --yes to delete {player} without asking",
                     player=f"players/{subject}"), file=sys.stderr)
            return 2
        typed = input(tr("Every trace of {player} will be replaced by a pseudonym or deleted; this cannot be "
                         "undone. Type {subject} to confirm: ", player=f"players/{subject}", subject=subject))
        if typed.strip() != subject:
            print(tr("not confirmed: nothing was deleted"), file=sys.stderr)
            return 1
    with connect(args) as host:
        if args.action == "delete-user":
            done = host.delete_user_data(subject, confirm=True)
            print(tr("deleted the data of {player}: it is {pseudonym} in {matches} match(es) from now on",
                     player=done.player, pseudonym=done.pseudonym, matches=done.matches))
            return 0
        document = host.export_user_data(subject)
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    if not args.out:
        sys.stdout.write(text)
        return 0
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(text)
    print(tr("wrote the data of {player} to {file}", player=f"players/{subject}", file=args.out))
    return 0


def _deliveries(args) -> int:
    """One line per delivery: key, state, attempts, the last failure."""
    with connect(args) as host:
        if args.action == "redeliver":
            listed = [host.retry_delivery(args.key)]
        else:
            state = pb.DeliveryState.Value(f"DELIVERY_STATE_{args.state.upper()}") if args.state else 0
            listed = host.deliveries(state=state, match=args.match, limit=args.limit)
    for delivery in listed:
        last = delivery.attempts[-1] if delivery.attempts else None
        failure = f" last: {last.error or last.http_status}" if last and last.error else ""
        due = f" next attempt {delivery.next_attempt_time.ToDatetime():%H:%M:%S}Z" \
            if delivery.HasField("next_attempt_time") else ""
        print(f"{delivery.key} {pb.DeliveryState.Name(delivery.state).removeprefix('DELIVERY_STATE_').lower()} "
              f"attempts={len(delivery.attempts)}{failure}{due}")
    return 0


def api_key(args) -> int:
    """A new API key: the key for its holder, the entry (its hash) for the key file."""
    from gamehost.host.auth.api_keys import append_entry, key_entry, new_key

    key = new_key()
    roles = [role for role in args.roles.split(",") if role]
    entry = key_entry(args.name, key, roles, args.display_name)
    if args.file:
        count = append_entry(args.file, entry)  # before the key is shown: a refused file shows no orphan key
        print(tr("key (give it to {name}; it is shown once): {key}", name=args.name, key=key), file=sys.stderr)
        print(tr("{file} holds {count} key(s) now; a running host reads it when restarted with --api-keys {file}",
                 file=args.file, count=count))
        return 0
    print(tr("key (give it to {name}; it is shown once): {key}", name=args.name, key=key), file=sys.stderr)
    print(json.dumps([entry]))
    return 0
