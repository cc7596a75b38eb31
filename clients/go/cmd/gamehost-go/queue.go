package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// queueFlags are the flags of the queue command.
type queueFlags struct {
	seats, partySize                                       int
	variant, bot, party                                    string
	options                                                optionsFlag
	ttl, botWait, minRating, maxRating, widen, maxWidening optionalFloat
	list                                                   bool
	states                                                 stateFlags
}

// runQueue queues the signed-in caller for a match (matchmaking), follows
// the ticket until it is matched and prints the match and seat; an
// interrupt cancels the ticket. --list prints the caller's tickets instead.
func runQueue(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("queue", "<game> | --party <party> | --list")
	flags := queueFlags{options: optionsFlag{}}
	fs.IntVar(&flags.seats, "seats", 0, "the player count (default: the game's minimum)")
	fs.StringVar(&flags.variant, "variant", "", "a variant id of the game")
	fs.Var(flags.options, "option", "a match option NAME=VALUE (VALUE read as JSON if it parses); repeatable")
	fs.Var(&flags.ttl, "ttl", "seconds to wait for a match (default: the host's, 5 minutes)")
	fs.Var(&flags.botWait, "bot-wait", "after this many seconds, bots may fill the seats nobody took (default: never)")
	fs.StringVar(&flags.bot, "bot", "", "the bot for those seats (default: random)")
	fs.Var(&flags.minRating, "min-rating", "only opponents rated at least this")
	fs.Var(&flags.maxRating, "max-rating", "only opponents rated at most this")
	fs.Var(&flags.widen, "widen-per-second", "widen the rating range this much a second while waiting (with --max-widening)")
	fs.Var(&flags.maxWidening, "max-widening", "widen each bound this much at most")
	fs.IntVar(&flags.partySize, "party-size", 0, "start a party of N friends, matched together; prints the party's name to share")
	fs.StringVar(&flags.party, "party", "", "join a friend's party (parties/...); the game may then be left out")
	fs.BoolVar(&flags.list, "list", false, "list your tickets instead, queued ones first (--state narrows them)")
	fs.Var(&flags.states, "state", "with --list: only tickets in this state: queued, matched, cancelled or expired; repeatable")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	game := ""
	switch {
	case len(positional) > 1:
		return usagef("queue takes one game, got %q", positional)
	case len(positional) == 1:
		game = positional[0]
	}
	if flags.list && game != "" {
		return usagef("--list lists your tickets; name no game with it")
	}
	if !flags.list && game == "" && flags.party == "" {
		return usagef("name a game to queue for, a --party to join, or --list for your tickets")
	}
	options := gamehost.QueueOptions{
		Seats: int32(flags.seats), Variant: flags.variant, Options: flags.options, Bot: flags.bot,
		MinRating: flags.minRating.pointer(), MaxRating: flags.maxRating.pointer(),
		WidenPerSecond: flags.widen.pointer(), MaxWidening: flags.maxWidening.pointer(),
		PartySize: int32(flags.partySize), Party: flags.party,
	}
	if options.TTL, err = flags.ttl.seconds("--ttl"); err != nil {
		return err
	}
	if flags.botWait.set {
		wait, err := flags.botWait.seconds("--bot-wait")
		if err != nil {
			return err
		}
		options.BotWait = &wait
	}

	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	if flags.list {
		return listTickets(ctx, host, flags.states, out)
	}
	return queueAndWait(ctx, host, game, options, out)
}

// queueAndWait queues, follows the ticket and prints where it ended.
func queueAndWait(ctx context.Context, host *gamehost.Client, game string, options gamehost.QueueOptions,
	out io.Writer) error {
	ticket, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Ticket, error) {
		return host.Queue(ctx, game, options)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: queued for %s, %d players (rating %.1f)\n", ticket.GetName(), ticket.GetGame(),
		ticket.GetSeats(), ticket.GetRating())
	partyQueued := int32(0)
	printParty := func(ticket *gamehostv1.Ticket) {
		if ticket.GetParty() == "" || ticket.GetPartyQueued() == partyQueued {
			return
		}
		partyQueued = ticket.GetPartyQueued()
		fmt.Fprintf(out, "%s: %d of %d friends queued; they join with `gamehost-go queue --party %s`\n",
			ticket.GetParty(), partyQueued, ticket.GetPartySize(), ticket.GetParty())
	}
	printParty(ticket)
	if !gamehost.TicketIsOver(ticket.GetState()) {
		watcher := host.WatchQueued(ticket.GetName())
		defer watcher.Close()
		ended, err := watcher.Wait(ctx, printParty)
		if err != nil && ctx.Err() == nil {
			return err
		}
		if err != nil { // interrupted: leave the queue
			ended, err = unary(context.WithoutCancel(ctx), func(ctx context.Context) (*gamehostv1.Ticket, error) {
				return host.Unqueue(ctx, ticket.GetName())
			})
			if err != nil {
				return err
			}
		}
		ticket = ended
	}
	if ticket.GetState() != gamehostv1.TicketState_TICKET_STATE_MATCHED {
		return fmt.Errorf("%s: %s, not matched", ticket.GetName(), ticketState(ticket.GetState()))
	}
	fmt.Fprintf(out, "%s: you are %s (seat %d in the API)\n", ticket.GetMatch(), playerName(ticket.GetSeat()),
		ticket.GetSeat())
	fmt.Fprintf(out, "the seat is bound to you: `gamehost-go play --match %s` plays it\n", ticket.GetMatch())
	return nil
}

// listTickets prints one line per ticket of the caller's, queued ones first.
func listTickets(ctx context.Context, host *gamehost.Client, states stateFlags, out io.Writer) error {
	request := &gamehostv1.ListTicketsRequest{States: states}
	for {
		page, err := unary(ctx, func(ctx context.Context) (*gamehostv1.ListTicketsResponse, error) {
			return host.ListTickets(ctx, request)
		})
		if err != nil {
			return err
		}
		for _, ticket := range page.GetTickets() {
			line := fmt.Sprintf("%s  %-9s  %s  %d players  queued %s", ticket.GetName(),
				ticketState(ticket.GetState()), ticket.GetGame(), ticket.GetSeats(),
				ticket.GetCreateTime().AsTime().UTC().Format(time.DateTime))
			if ticket.GetParty() != "" {
				line += "  " + ticket.GetParty()
			}
			if ticket.GetState() == gamehostv1.TicketState_TICKET_STATE_MATCHED {
				line += fmt.Sprintf(" -> %s seat %d", ticket.GetMatch(), ticket.GetSeat())
			}
			fmt.Fprintln(out, line)
		}
		if request.PageToken = page.GetNextPageToken(); request.PageToken == "" {
			return nil
		}
	}
}

// ticketState is a ticket state as people say it: "queued", "expired".
func ticketState(state gamehostv1.TicketState) string {
	return strings.ToLower(strings.TrimPrefix(state.String(), "TICKET_STATE_"))
}
