package main

import (
	"testing"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestStrategies(t *testing.T) {
	moves := []*gamehostv1.LegalMove{{Id: "a"}, {Id: "b"}, {Id: "c"}, {Id: "d"}}
	first, _ := newStrategy("first", 0)
	if got := first(moves).GetId(); got != "a" {
		t.Errorf("first chose %q", got)
	}
	sequence := func(seed uint64) (ids string) {
		random, _ := newStrategy("random", seed)
		for range 32 {
			ids += random(moves).GetId()
		}
		return ids
	}
	if sequence(9) != sequence(9) {
		t.Error("the same seed chose differently")
	}
	if sequence(9) == sequence(10) {
		t.Error("different seeds chose alike")
	}
	if _, err := newStrategy("best", 0); err == nil {
		t.Error("an unknown strategy was accepted")
	}
}
