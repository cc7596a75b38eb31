package gamehost

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// DefaultRetryLimit is how long a call or stream may keep failing with
// UNAVAILABLE (a host restarting, a network blip) before the client gives up.
const DefaultRetryLimit = 30 * time.Second

// retryBudget paces the retries of one failing call or stream: exponential
// pauses from 100 ms to 2 s, until it has been failing for longer than limit.
type retryBudget struct {
	limit time.Duration
	since time.Time // when the current run of failures began; zero while healthy
	pause time.Duration
}

// succeeded ends a run of failures.
func (b *retryBudget) succeeded() { b.since, b.pause = time.Time{}, 0 }

// wait pauses before the next attempt. It returns false, at once, when the
// budget is spent or ctx is done.
func (b *retryBudget) wait(ctx context.Context) bool {
	now := time.Now()
	if b.since.IsZero() {
		b.since, b.pause = now, 100*time.Millisecond
	}
	if now.Sub(b.since) >= b.limit {
		return false
	}
	timer := time.NewTimer(b.pause)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
	}
	b.pause = min(2*b.pause, 2*time.Second)
	return true
}

// transient reports whether err may pass by itself: the host is unreachable,
// or a stream ended before the match did.
func transient(err error) bool {
	return errors.Is(err, io.EOF) || status.Code(err) == codes.Unavailable
}

// Retry calls call until it succeeds, fails with an error that is not
// transient, or has been failing for longer than limit. Use it only for calls
// that are safe to repeat: reads, and writes with a request_id.
func Retry(ctx context.Context, limit time.Duration, call func() error) error {
	budget := retryBudget{limit: limit}
	for {
		err := call()
		if err == nil || !transient(err) || !budget.wait(ctx) {
			return err
		}
	}
}
