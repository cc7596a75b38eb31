package gamehost

import (
	"fmt"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestQueueOptionsBecomeTheCreateTicketRequest(t *testing.T) {
	request, err := QueueOptions{
		Seats: 3, Variant: "quick", Options: map[string]any{"bet_rule": "exact"}, MinRating: new(1500.0),
		WidenPerSecond: new(10.0), MaxWidening: new(200.0), TTL: 90 * time.Second, BotWait: new(time.Duration(0)),
		Bot: "greedy", PartySize: 2,
	}.Request("campanile")
	if err != nil {
		t.Fatal(err)
	}
	if request.GetGame() != "games/campanile" || request.GetSeats() != 3 || request.GetVariant() != "quick" ||
		request.GetOptions().GetFields()["bet_rule"].GetStringValue() != "exact" || request.GetBot() != "greedy" ||
		request.GetPartySize() != 2 || request.GetParty() != "" {
		t.Errorf("request %v", request)
	}
	if request.GetMinRating() != 1500 || request.MaxRating != nil || request.GetRatingWidenPerSecond() != 10 ||
		request.GetRatingMaxWidening() != 200 {
		t.Errorf("ranges %v", request)
	}
	// Bots at once is a bot wait of zero, set: not the same as no bots.
	if request.GetTtl().AsDuration() != 90*time.Second || request.BotWait == nil ||
		request.GetBotWait().AsDuration() != 0 {
		t.Errorf("durations ttl %v bot wait %v", request.GetTtl(), request.BotWait)
	}
}

func TestTheZeroQueueOptionsLeaveEveryTermToTheHost(t *testing.T) {
	request, err := QueueOptions{Party: "AbC-12"}.Request("")
	if err != nil {
		t.Fatal(err)
	}
	if request.GetParty() != "parties/AbC-12" || request.GetGame() != "" || request.Ttl != nil ||
		request.BotWait != nil || request.Options != nil || request.MinRating != nil {
		t.Errorf("request %v", request)
	}
	if _, err := (QueueOptions{Options: map[string]any{"bad": make(chan int)}}).Request("x"); err == nil {
		t.Error("an option that is not JSON-like was accepted")
	}
}

func TestResourceNamesTakeTheIdOrTheName(t *testing.T) {
	for _, c := range [][2]string{{TicketName("t1"), "tickets/t1"}, {TicketName("tickets/t1"), "tickets/t1"},
		{PartyName("p"), "parties/p"}, {PartyName("parties/p"), "parties/p"}, {MatchName("m"), "matches/m"},
		{GameName("games/g"), "games/g"}} {
		if c[0] != c[1] {
			t.Errorf("got %q, want %q", c[0], c[1])
		}
	}
}

func TestOnlyMatchedCancelledAndExpiredTicketsAreOver(t *testing.T) {
	for state, over := range map[gamehostv1.TicketState]bool{
		gamehostv1.TicketState_TICKET_STATE_UNSPECIFIED: false, gamehostv1.TicketState_TICKET_STATE_QUEUED: false,
		gamehostv1.TicketState_TICKET_STATE_MATCHED: true, gamehostv1.TicketState_TICKET_STATE_CANCELLED: true,
		gamehostv1.TicketState_TICKET_STATE_EXPIRED: true,
	} {
		if TicketIsOver(state) != over {
			t.Errorf("%v over: %v", state, !over)
		}
	}
}

func TestReasonIsTheErrorInfosEvenThroughWrapping(t *testing.T) {
	st, err := status.New(codes.NotFound, "no party").WithDetails(
		&errdetails.ResourceInfo{ResourceType: "gamehost.dev/Party"},
		&errdetails.ErrorInfo{Reason: "PARTY_NOT_FOUND", Domain: "gamehost.dev"})
	if err != nil {
		t.Fatal(err)
	}
	if got := Reason(fmt.Errorf("queue: %w", st.Err())); got != "PARTY_NOT_FOUND" {
		t.Errorf("got %q", got)
	}
	if Reason(status.Error(codes.Unavailable, "down")) != "" || Reason(fmt.Errorf("plain")) != "" {
		t.Error("a reason without an ErrorInfo")
	}
}
