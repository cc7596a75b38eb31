package gamehost

import (
	"context"
	"io"

	"google.golang.org/grpc"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Watcher follows one match through WatchMatch. When the stream drops (the
// host restarts, the connection breaks) it opens a new one after the last
// version it delivered, so the caller sees every event once and in order.
type Watcher struct {
	resumingStream[gamehostv1.MatchEvent]
	request *gamehostv1.WatchMatchRequest // AfterVersion: the last version delivered
	ended   bool
}

// Watch follows match (as the seat of token, or as a spectator when token is
// empty) from the events after afterVersion.
func (c *Client) Watch(match, token string, afterVersion int64) *Watcher {
	w := &Watcher{request: &gamehostv1.WatchMatchRequest{
		Name: MatchName(match), PlayerToken: token, AfterVersion: afterVersion,
	}}
	w.resumingStream = newResumingStream(
		func(ctx context.Context) (grpc.ServerStreamingClient[gamehostv1.MatchEvent], error) {
			return c.WatchMatch(ctx, w.request)
		})
	return w
}

// Version is the version of the last event delivered.
func (w *Watcher) Version() int64 { return w.request.GetAfterVersion() }

// Next returns the next event, resuming the stream as often as needed within
// DefaultRetryLimit. After the event that ends the match it returns io.EOF.
func (w *Watcher) Next(ctx context.Context) (*gamehostv1.MatchEvent, error) {
	for !w.ended {
		event, err := w.recv(ctx)
		if err != nil {
			return nil, err
		}
		if event.GetVersion() <= w.request.GetAfterVersion() {
			continue // already delivered before a resume
		}
		w.request.AfterVersion = event.GetVersion()
		if IsFinal(event.GetKind()) {
			w.ended = true
			w.Close()
		}
		return event, nil
	}
	return nil, io.EOF
}
