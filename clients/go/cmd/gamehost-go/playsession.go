package main

import (
	"context"
	"io"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// playOverSession plays the held seat to the end over one Session stream:
// it follows the match from its first event and, whenever the newest view
// lists moves, sends one (without waiting: its answer comes on the stream).
// It does not resume a dropped stream; playToEnd does.
func playOverSession(ctx context.Context, host *gamehost.Client, held seatHeld, choose strategy,
	out io.Writer) (*gamehostv1.View, error) {
	session, err := host.OpenSession(ctx)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	if _, err := session.Watch(&gamehostv1.WatchMatchRequest{Name: held.match, PlayerToken: held.token}); err != nil {
		return nil, err
	}
	var view *gamehostv1.View
	for {
		message, err := session.Next()
		if err != nil {
			return nil, err
		}
		// ABORTED: the match moved on since that view; the stream brings the newer one.
		if refusal := gamehost.SessionError(message); refusal != nil && status.Code(refusal) != codes.Aborted {
			return nil, refusal
		}
		if message.GetWatchEnded() != nil { // over, or the host is closing: the last view says which
			if view != nil && gamehost.IsOver(view.GetStatus()) {
				return view, nil
			}
			return unary(ctx, func(ctx context.Context) (*gamehostv1.View, error) {
				return host.GetView(ctx, &gamehostv1.GetViewRequest{Name: held.match, PlayerToken: held.token})
			})
		}
		event := message.GetMatchEvent()
		if event == nil {
			continue // an answer to a move
		}
		printEvent(out, event)
		if event.GetView().GetVersion() != event.GetVersion() {
			continue
		}
		view = event.GetView()
		if moves := view.GetLegalMoves(); len(moves) > 0 && !gamehost.IsOver(view.GetStatus()) {
			version := view.GetVersion()
			if _, err := session.Send(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_Move{
				Move: &gamehostv1.SubmitMoveRequest{
					Name: held.match, PlayerToken: held.token, ExpectedVersion: &version,
					Move: &gamehostv1.SubmitMoveRequest_MoveId{MoveId: choose(moves).GetId()}, RequestId: gamehost.NewRequestID(),
				}}}); err != nil {
				return nil, err
			}
		}
	}
}
