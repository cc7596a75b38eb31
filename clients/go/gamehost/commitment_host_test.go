package gamehost

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
	"time"
)

// TestMatchesOfARealHost checks the finished matches that
// tests/test_seed_commitment.py played on a real host and then left alone
// or changed in its store: GAMEHOST_TEST_TARGET is the host's gRPC address,
// GAMEHOST_COMMITMENT_CASES a JSON list of {name, match, seen (the hex
// commitment kept at creation, or ""), expect ("verified", "rejected" or
// "none-recorded")}. Skipped without them (a plain `go test ./...`).
func TestMatchesOfARealHost(t *testing.T) {
	target := os.Getenv("GAMEHOST_TEST_TARGET")
	if target == "" {
		t.Skip("no GAMEHOST_TEST_TARGET: tests/test_seed_commitment.py runs this test against a host")
	}
	var cases []struct{ Name, Match, Seen, Expect string }
	if err := json.Unmarshal([]byte(os.Getenv("GAMEHOST_COMMITMENT_CASES")), &cases); err != nil || len(cases) == 0 {
		t.Fatalf("GAMEHOST_COMMITMENT_CASES: %v (%d cases)", err, len(cases))
	}
	host, err := Dial(target)
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			log, err := host.Log(ctx, c.Match, "")
			if err != nil {
				t.Fatal(err)
			}
			var seen []byte
			if c.Seen != "" {
				if seen, err = hex.DecodeString(c.Seen); err != nil {
					t.Fatal(err)
				}
			}
			err = CheckCommitment(log, seen)
			var rejected *CommitmentError
			switch got := errors.As(err, &rejected); {
			case c.Expect == "rejected" && !got,
				c.Expect == "none-recorded" && !errors.Is(err, ErrNoCommitment),
				c.Expect == "verified" && err != nil:
				t.Fatalf("%s: want %s, got %v", c.Match, c.Expect, err)
			}
			if c.Expect != "rejected" {
				if err := CheckEvents(log, nil); err != nil || len(log.GetEvents()) == 0 {
					t.Fatalf("%s: events: %v (%d)", c.Match, err, len(log.GetEvents()))
				}
			}
		})
	}
}
