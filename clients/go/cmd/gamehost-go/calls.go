package main

import (
	"context"
	"time"
)

// callTimeout bounds each unary call; streams run until the match ends.
const callTimeout = 30 * time.Second

// unary runs one unary call under callTimeout.
func unary[T any](ctx context.Context, call func(context.Context) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return call(ctx)
}
