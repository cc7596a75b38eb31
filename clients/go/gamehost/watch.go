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
	host    *Client
	request *gamehostv1.WatchMatchRequest // AfterVersion: the last version delivered
	stream  grpc.ServerStreamingClient[gamehostv1.MatchEvent]
	cancel  context.CancelFunc
	retry   retryBudget
	opened  bool
	ended   bool
	// Resumes counts the streams opened after a drop.
	Resumes int
}

// Watch follows match (as the seat of token, or as a spectator when token is
// empty) from the events after afterVersion.
func (c *Client) Watch(match, token string, afterVersion int64) *Watcher {
	return &Watcher{
		host: c,
		request: &gamehostv1.WatchMatchRequest{
			Name: MatchName(match), PlayerToken: token, AfterVersion: afterVersion,
		},
		retry: retryBudget{limit: DefaultRetryLimit},
	}
}

// Version is the version of the last event delivered.
func (w *Watcher) Version() int64 { return w.request.GetAfterVersion() }

// Next returns the next event, resuming the stream as often as needed within
// DefaultRetryLimit. After the event that ends the match it returns io.EOF.
func (w *Watcher) Next(ctx context.Context) (*gamehostv1.MatchEvent, error) {
	for !w.ended {
		if w.stream == nil {
			if err := w.open(ctx); err != nil {
				if transient(err) && w.retry.wait(ctx) {
					continue
				}
				return nil, err
			}
		}
		event, err := w.stream.Recv()
		if err != nil {
			w.Close()
			if transient(err) && w.retry.wait(ctx) {
				continue
			}
			return nil, err
		}
		w.retry.succeeded()
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

func (w *Watcher) open(ctx context.Context) error {
	streamCtx, cancel := context.WithCancel(ctx)
	stream, err := w.host.WatchMatch(streamCtx, w.request)
	if err != nil {
		cancel()
		return err
	}
	if w.opened {
		w.Resumes++
	}
	w.stream, w.cancel, w.opened = stream, cancel, true
	return nil
}

// Close ends the current stream, if any.
func (w *Watcher) Close() {
	if w.cancel != nil {
		w.cancel()
	}
	w.stream, w.cancel = nil, nil
}
