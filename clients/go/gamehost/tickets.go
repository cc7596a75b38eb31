package gamehost

import (
	"context"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Matchmaking (docs/protocol.md, "Matchmaking"): a signed-in player queues
// with a ticket, follows it until it is matched (the match and the seat,
// bound to the player's identity) or over, or cancels it.

// QueueOptions are what a ticket asks for besides its game. The zero value
// queues alone for the game's minimum player count, without bots, for the
// host's default time. Optional numbers are pointers: nil leaves them unset
// (Go 1.26: new(30*time.Second), new(1500.0)).
type QueueOptions struct {
	Seats   int32          // the player count; 0: the game's minimum
	Variant string         // a variant id of the game
	Options map[string]any // options over the variant's and the game's defaults
	// Only opponents rated within [MinRating, MaxRating]; nil: no bound.
	MinRating, MaxRating *float64
	// The range's bounds move out WidenPerSecond points a second waited,
	// MaxWidening points at most (both or neither).
	WidenPerSecond, MaxWidening *float64
	TTL                         time.Duration  // how long the ticket waits; 0: the host's default (5 minutes)
	BotWait                     *time.Duration // bots may fill the seats after this wait; nil: never
	Bot                         string         // the bot for those seats; "": random
	// PartySize starts a party of that many friends (the ticket's Party is
	// its name, to share); Party joins one ("parties/..." or its id), whose
	// game, player count and options the ticket takes when left empty.
	PartySize int32
	Party     string
}

// Request is the CreateTicket request for game ("" when joining a party).
func (o QueueOptions) Request(game string) (*gamehostv1.CreateTicketRequest, error) {
	request := &gamehostv1.CreateTicketRequest{
		Seats: o.Seats, Variant: o.Variant, MinRating: o.MinRating, MaxRating: o.MaxRating,
		RatingWidenPerSecond: o.WidenPerSecond, RatingMaxWidening: o.MaxWidening, Bot: o.Bot,
		PartySize: o.PartySize,
	}
	if game != "" {
		request.Game = GameName(game)
	}
	if o.Party != "" {
		request.Party = PartyName(o.Party)
	}
	if len(o.Options) > 0 {
		options, err := structpb.NewStruct(o.Options)
		if err != nil {
			return nil, err
		}
		request.Options = options
	}
	if o.TTL != 0 {
		request.Ttl = durationpb.New(o.TTL)
	}
	if o.BotWait != nil {
		request.BotWait = durationpb.New(*o.BotWait)
	}
	return request, nil
}

// Queue creates a ticket for game: usually queued, or matched at once when
// it completes a group. Follow it with WatchQueued, leave with Unqueue.
func (c *Client) Queue(ctx context.Context, game string, options QueueOptions) (*gamehostv1.Ticket, error) {
	request, err := options.Request(game)
	if err != nil {
		return nil, err
	}
	return c.CreateTicket(ctx, request)
}

// Queued reads a ticket now (GetTicket).
func (c *Client) Queued(ctx context.Context, ticket string) (*gamehostv1.Ticket, error) {
	return c.GetTicket(ctx, &gamehostv1.GetTicketRequest{Name: TicketName(ticket)})
}

// Unqueue cancels a queued ticket (CancelTicket); cancelling it again
// answers it again. A ticket matched meanwhile is FAILED_PRECONDITION /
// TICKET_MATCHED, with the match and seat in the details.
func (c *Client) Unqueue(ctx context.Context, ticket string) (*gamehostv1.Ticket, error) {
	return c.CancelTicket(ctx, &gamehostv1.CancelTicketRequest{Name: TicketName(ticket)})
}

// TicketIsOver reports whether a ticket in this state has left the queue
// (matched, cancelled or expired): it will not change again.
func TicketIsOver(state gamehostv1.TicketState) bool {
	switch state {
	case gamehostv1.TicketState_TICKET_STATE_MATCHED, gamehostv1.TicketState_TICKET_STATE_CANCELLED,
		gamehostv1.TicketState_TICKET_STATE_EXPIRED:
		return true
	}
	return false
}
