package main

import (
	"testing"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestStatusLinesSayWhyAMatchWasAbortedOrSuspended(t *testing.T) {
	for _, c := range []struct {
		status gamehostv1.MatchStatus
		detail *gamehostv1.StatusDetail
		want   string
	}{
		{gamehostv1.MatchStatus_MATCH_STATUS_ACTIVE, nil, "active"},
		{gamehostv1.MatchStatus_MATCH_STATUS_ABORTED,
			&gamehostv1.StatusDetail{Reason: "ADMIN_ABORT", Message: "cheating"}, "aborted (ADMIN_ABORT: cheating)"},
		{gamehostv1.MatchStatus_MATCH_STATUS_SUSPENDED,
			&gamehostv1.StatusDetail{Reason: "RULES_TIMEOUT", Plugin: "campanile"},
			"suspended (RULES_TIMEOUT; plugin campanile)"},
	} {
		if got := statusLine(c.status, c.detail); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestSeatLinesNamePlayersFrom1AndMarkVerifiedOnes(t *testing.T) {
	for seat, want := range map[*gamehostv1.Seat]string{
		{Index: 0, Kind: gamehostv1.SeatKind_SEAT_KIND_HUMAN, PlayerName: "Ann", Verified: true}: "Player 1: Ann (verified)",
		{Index: 1, Kind: gamehostv1.SeatKind_SEAT_KIND_HUMAN, PlayerName: "bob"}:                 "Player 2: bob",
		{Index: 2, Kind: gamehostv1.SeatKind_SEAT_KIND_BOT}:                                      "Player 3: bot (random)",
		{Index: 3, Kind: gamehostv1.SeatKind_SEAT_KIND_OPEN}:                                     "Player 4: open",
	} {
		if got := seatLine(seat); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
