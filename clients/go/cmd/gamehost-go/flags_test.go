package main

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestFlagsMayFollowPositionalArguments(t *testing.T) {
	fs := newFlagSet("script", "")
	var seed seedFlag
	fs.Var(&seed, "seed", "")
	got, err := fs.parse([]string{"tictactoe", "--seed", "7", "b2", "--host=h:1", "a1", "--", "-x", "--seed"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tictactoe", "b2", "a1", "-x", "--seed"}; !reflect.DeepEqual(got, want) {
		t.Errorf("positional %q, want %q", got, want)
	}
	if !seed.set || seed.value != 7 || *fs.host != "h:1" {
		t.Errorf("seed %+v, host %q", seed, *fs.host)
	}
}

func TestOptionValuesAreJSONWhenTheyParse(t *testing.T) {
	options := optionsFlag{}
	for _, pair := range []string{"n=3", "on=true", "rule=exact", `list=[1,"a"]`, "empty="} {
		if err := options.Set(pair); err != nil {
			t.Fatal(err)
		}
	}
	want := optionsFlag{"n": 3.0, "on": true, "rule": "exact", "list": []any{1.0, "a"}, "empty": ""}
	if !reflect.DeepEqual(options, want) {
		t.Errorf("got %v, want %v", options, want)
	}
	if err := options.Set("novalue"); err == nil {
		t.Error("an option without '=' was accepted")
	}
}

func TestExitStatusOfUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"nope"}, {"play"}, {"script", "tictactoe"}, {"games", "extra"},
		{"play", "tictactoe", "--strategy", "best"}, {"play", "--seed", "-1", "tictactoe"},
		{"queue"}, {"queue", "--list", "tictactoe"}, {"queue", "tictactoe", "chess"}, {"queue", "x", "--ttl", "-1"},
		{"queue", "x", "--bot-wait", "soon"}, {"queue", "--list", "--state", "waiting"}} {
		if got := run(args, discard{}, discard{}); got != 2 {
			t.Errorf("run(%q) = %d, want 2", args, got)
		}
	}
	if got := run([]string{"help"}, discard{}, discard{}); got != 0 {
		t.Errorf("help exits %d", got)
	}
}

func TestTheAuthTokenFlagWinsOverTheEnvironment(t *testing.T) {
	t.Setenv(bearerTokenEnv, "from env") // not a valid token: dial must not look at it
	fs := newFlagSet("whoami", "")
	if _, err := fs.parse([]string{"--bearer-token", "flagtoken"}); err != nil {
		t.Fatal(err)
	}
	if host, err := fs.dial(); err != nil {
		t.Errorf("the flag's token was refused: %v", err)
	} else {
		host.Close()
	}
	fs = newFlagSet("whoami", "")
	if _, err := fs.parse(nil); err != nil {
		t.Fatal(err)
	}
	var usage usageError
	if _, err := fs.dial(); !errors.As(err, &usage) {
		t.Errorf("a bad token from %s gave %v, want a usage error", bearerTokenEnv, err)
	}
}

func TestTLSCAFilesThatHoldNoCertificateAreUsageErrors(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{notPEM, filepath.Join(t.TempDir(), "missing.pem")} {
		var usage usageError
		if _, err := tlsConfig(file); !errors.As(err, &usage) {
			t.Errorf("%s gave %v, want a usage error", file, err)
		}
	}
	if config, err := tlsConfig(""); err != nil || config.RootCAs != nil {
		t.Errorf("without a CA file: %v, %v (want the system's roots)", config, err)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestQueueFlagsTellALeftOutNumberFromZero(t *testing.T) {
	var minRating, botWait optionalFloat
	var states stateFlags
	fs := newFlagSet("queue", "")
	fs.Var(&minRating, "min-rating", "")
	fs.Var(&botWait, "bot-wait", "")
	fs.Var(&states, "state", "")
	if _, err := fs.parse([]string{"--bot-wait", "0", "--state", "queued", "--state", "EXPIRED"}); err != nil {
		t.Fatal(err)
	}
	if minRating.pointer() != nil || botWait.pointer() == nil || *botWait.pointer() != 0 {
		t.Errorf("min rating %+v, bot wait %+v", minRating, botWait)
	}
	if wait, err := (&optionalFloat{value: 1.5, set: true}).seconds("--ttl"); err != nil || wait != 1500*time.Millisecond {
		t.Errorf("1.5 s is %v (%v)", wait, err)
	}
	want := stateFlags{gamehostv1.TicketState_TICKET_STATE_QUEUED, gamehostv1.TicketState_TICKET_STATE_EXPIRED}
	if !reflect.DeepEqual(states, want) {
		t.Errorf("states %v", states)
	}
	for _, bad := range []string{"inf", "NaN", "x"} {
		if minRating.Set(bad) == nil {
			t.Errorf("%q was taken for a rating", bad)
		}
	}
}
