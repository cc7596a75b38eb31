package main

import (
	"context"
	"fmt"
	"io"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// playToEnd plays the held seat until the match is over and returns the
// final view. Views come from a WatchMatch stream that resumes after a drop;
// moves and the first view are retried while the host is unreachable.
func playToEnd(ctx context.Context, host *gamehost.Client, held seatHeld, choose strategy,
	out io.Writer) (*gamehostv1.View, error) {
	var view *gamehostv1.View
	err := gamehost.Retry(ctx, gamehost.DefaultRetryLimit, func() (err error) {
		view, err = unary(ctx, func(ctx context.Context) (*gamehostv1.View, error) {
			return host.GetView(ctx, &gamehostv1.GetViewRequest{Name: held.match, PlayerToken: held.token})
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	watcher := host.Watch(held.match, held.token, view.GetVersion())
	defer watcher.Close()
	for !gamehost.IsOver(view.GetStatus()) {
		if moves := view.GetLegalMoves(); len(moves) > 0 {
			err := submit(ctx, host, held, choose(moves), view.GetVersion())
			// ABORTED: the match moved on since this view; the stream brings the newer one.
			if err != nil && status.Code(err) != codes.Aborted {
				return nil, err
			}
		}
		if view, err = nextView(ctx, host, held, watcher, out); err != nil {
			return nil, err
		}
	}
	if watcher.Resumes > 0 {
		fmt.Fprintf(out, "(the stream dropped and was resumed %d times)\n", watcher.Resumes)
	}
	return view, nil
}

// submit plays one move, chosen from the view at version. One request id
// for all attempts: a retry after a lost answer cannot play twice.
func submit(ctx context.Context, host *gamehost.Client, held seatHeld, move *gamehostv1.LegalMove,
	version int64) error {
	request := &gamehostv1.SubmitMoveRequest{
		Name: held.match, PlayerToken: held.token, Move: &gamehostv1.SubmitMoveRequest_MoveId{MoveId: move.GetId()},
		ExpectedVersion: &version, RequestId: gamehost.NewRequestID(),
	}
	return gamehost.Retry(ctx, gamehost.DefaultRetryLimit, func() error {
		_, err := unary(ctx, func(ctx context.Context) (*gamehostv1.SubmitMoveResponse, error) {
			return host.SubmitMove(ctx, request)
		})
		return err
	})
}

// nextView prints the events up to the next one that carries a view, and
// returns that view. An event that ends the match without one (an admin's
// abort) is followed by a GetView: the stream has nothing more to say.
func nextView(ctx context.Context, host *gamehost.Client, held seatHeld, watcher *gamehost.Watcher,
	out io.Writer) (*gamehostv1.View, error) {
	for {
		event, err := watcher.Next(ctx)
		if err != nil {
			return nil, err
		}
		printEvent(out, event)
		if event.GetView() != nil {
			return event.GetView(), nil
		}
		if gamehost.IsFinal(event.GetKind()) {
			return unary(ctx, func(ctx context.Context) (*gamehostv1.View, error) {
				return host.GetView(ctx, &gamehostv1.GetViewRequest{Name: held.match, PlayerToken: held.token})
			})
		}
	}
}
