package gamehost

import (
	"context"
	"io"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// TicketWatcher follows one ticket through WatchTicket: the ticket now, then
// at each change (a friend of its party joining, cancelling or lapsing; the
// ticket matched, cancelled or expired). When the stream drops before the
// ticket is over (the host restarts, the connection breaks) it opens a new
// one, which starts with the ticket as it is then; a ticket equal to the
// last one delivered is not delivered again.
type TicketWatcher struct {
	resumingStream[gamehostv1.Ticket]
	last *gamehostv1.Ticket
}

// WatchQueued follows ticket ("tickets/..." or its id).
func (c *Client) WatchQueued(ticket string) *TicketWatcher {
	request := &gamehostv1.WatchTicketRequest{Name: TicketName(ticket)}
	return &TicketWatcher{resumingStream: newResumingStream(
		func(ctx context.Context) (grpc.ServerStreamingClient[gamehostv1.Ticket], error) {
			return c.WatchTicket(ctx, request)
		})}
}

// Next returns the ticket at its next change, resuming the stream as often
// as needed within DefaultRetryLimit. After the ticket that is over
// (TicketIsOver) it returns io.EOF.
func (w *TicketWatcher) Next(ctx context.Context) (*gamehostv1.Ticket, error) {
	for w.last == nil || !TicketIsOver(w.last.GetState()) {
		ticket, err := w.recv(ctx)
		if err != nil {
			return nil, err
		}
		if proto.Equal(ticket, w.last) {
			continue // the same ticket again, sent at the start of a resumed stream
		}
		w.last = ticket
		if TicketIsOver(ticket.GetState()) {
			w.Close()
		}
		return ticket, nil
	}
	return nil, io.EOF
}

// Wait follows the ticket until it is over and returns it as it ended;
// changed, when not nil, is called with every ticket delivered before.
func (w *TicketWatcher) Wait(ctx context.Context, changed func(*gamehostv1.Ticket)) (*gamehostv1.Ticket, error) {
	for {
		ticket, err := w.Next(ctx)
		if err != nil {
			return nil, err
		}
		if TicketIsOver(ticket.GetState()) {
			return ticket, nil
		}
		if changed != nil {
			changed(ticket)
		}
	}
}
