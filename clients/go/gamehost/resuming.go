package gamehost

import (
	"context"

	"google.golang.org/grpc"
)

// resumingStream is a server stream that is opened again when it drops (the
// host restarts, the connection breaks), for as long as its retry budget
// lasts. The watchers built on it say where a new stream starts and skip
// what they delivered already.
type resumingStream[T any] struct {
	open   func(context.Context) (grpc.ServerStreamingClient[T], error)
	stream grpc.ServerStreamingClient[T]
	cancel context.CancelFunc
	retry  retryBudget
	opened bool
	// Resumes counts the streams opened after a drop.
	Resumes int
}

func newResumingStream[T any](open func(context.Context) (grpc.ServerStreamingClient[T], error)) resumingStream[T] {
	return resumingStream[T]{open: open, retry: retryBudget{limit: DefaultRetryLimit}}
}

// recv returns the next message, opening a stream first when none is open,
// and again after a transient failure until the budget is spent.
func (r *resumingStream[T]) recv(ctx context.Context) (*T, error) {
	for {
		if r.stream == nil {
			if err := r.start(ctx); err != nil {
				if transient(err) && r.retry.wait(ctx) {
					continue
				}
				return nil, err
			}
		}
		message, err := r.stream.Recv()
		if err != nil {
			r.Close()
			if transient(err) && r.retry.wait(ctx) {
				continue
			}
			return nil, err
		}
		r.retry.succeeded()
		return message, nil
	}
}

func (r *resumingStream[T]) start(ctx context.Context) error {
	streamCtx, cancel := context.WithCancel(ctx)
	stream, err := r.open(streamCtx)
	if err != nil {
		cancel()
		return err
	}
	if r.opened {
		r.Resumes++
	}
	r.stream, r.cancel, r.opened = stream, cancel, true
	return nil
}

// Close ends the current stream, if any.
func (r *resumingStream[T]) Close() {
	if r.cancel != nil {
		r.cancel()
	}
	r.stream, r.cancel = nil, nil
}
