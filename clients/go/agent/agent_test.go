package agent

import (
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestGameNamesTakeEitherForm(t *testing.T) {
	for _, game := range []string{"tictactoe", "games/tictactoe"} {
		if got := gameName(game); got != "games/tictactoe" {
			t.Errorf("gameName(%q) = %q", game, got)
		}
	}
}

func TestOnlyPassingFailuresAreRetried(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{status.Error(codes.Unavailable, "host restarting"), true},
		{fmt.Errorf("recv: %w", errStreamEnded), true},
		{status.Error(codes.PermissionDenied, "ServeAgent needs the 'agent' role"), false},
		{status.Error(codes.InvalidArgument, "register.name: not an agent name"), false},
		{errors.New("something else"), false},
	}
	for _, c := range cases {
		if got := passing(c.err); got != c.want {
			t.Errorf("passing(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
