package gamehost

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// countingSalt is the salt 0, 1, ..., 31, whose commitments the Python
// client computes too (gamehost.client.seed_commitment): the same bytes in
// both languages.
func countingSalt() []byte {
	salt := make([]byte, SeedSaltSize)
	for i := range salt {
		salt[i] = byte(i)
	}
	return salt
}

func TestSeedCommitmentHasTheDocumentedLayout(t *testing.T) {
	for seed, want := range map[uint64]string{
		42:         "0cd60dd0388cd5affcb66a3aede2744959f15ee62a67fb0097e4179b7c18dc8c",
		^uint64(0): "f2cc21bdad5ad4644b49c91c0de09df91b3e7babe463a5cac5c88f57025b4816",
	} {
		if got := hex.EncodeToString(SeedCommitment(seed, countingSalt())); got != want {
			t.Errorf("SeedCommitment(%d) = %s, want %s", seed, got, want)
		}
	}
}

// revealed is a finished match's log revealing seed 42 under the counting salt.
func revealed() *gamehostv1.MatchLog {
	seed := uint64(42)
	return &gamehostv1.MatchLog{
		Match: "matches/m1", Complete: true, Seed: &seed, SeedSalt: countingSalt(),
		SeedCommitment: SeedCommitment(seed, countingSalt()),
		Events: []*gamehostv1.MatchEvent{
			{Version: 1, Kind: gamehostv1.EventKind_EVENT_KIND_STARTED, Seat: -1},
			{Version: 2, Kind: gamehostv1.EventKind_EVENT_KIND_MOVED, Seat: 0,
				Move: &structpb.Struct{Fields: map[string]*structpb.Value{"cell": structpb.NewStringValue("b2")}}},
		},
	}
}

func TestTheRevealedSeedVerifies(t *testing.T) {
	log := revealed()
	if err := CheckCommitment(log, nil); err != nil {
		t.Fatalf("honest log: %v", err)
	}
	if err := CheckCommitment(log, log.GetSeedCommitment()); err != nil {
		t.Fatalf("honest log, commitment kept from creation: %v", err)
	}
}

func TestATamperedSeedOrSaltIsRejected(t *testing.T) {
	tampered := map[string]func(*gamehostv1.MatchLog){
		"seed":       func(log *gamehostv1.MatchLog) { seed := log.GetSeed() + 1; log.Seed = &seed },
		"salt":       func(log *gamehostv1.MatchLog) { log.SeedSalt[0] ^= 1 },
		"short salt": func(log *gamehostv1.MatchLog) { log.SeedSalt = log.SeedSalt[:31] },
	}
	for name, tamper := range tampered {
		log := revealed()
		tamper(log)
		var rejected *CommitmentError
		if err := CheckCommitment(log, nil); !errors.As(err, &rejected) ||
			!strings.Contains(err.Error(), "do not hash to the commitment") {
			t.Errorf("%s tampered: got %v, want a rejection", name, err)
		}
	}
}

func TestACommitmentOtherThanTheOneKeptIsRejected(t *testing.T) {
	// The host made a new commitment for another seed after the fact: the log is consistent,
	// but not with what the match showed at its creation.
	log := revealed()
	kept := proto.Clone(log).(*gamehostv1.MatchLog).GetSeedCommitment()
	seed := uint64(7)
	log.Seed, log.SeedCommitment = &seed, SeedCommitment(seed, log.GetSeedSalt())
	if err := CheckCommitment(log, nil); err != nil {
		t.Fatalf("a consistent log on its own: %v", err)
	}
	var rejected *CommitmentError
	if err := CheckCommitment(log, kept); !errors.As(err, &rejected) ||
		!strings.Contains(err.Error(), "showed at its creation") {
		t.Fatalf("got %v, want a rejection naming the kept commitment", err)
	}
}

func TestAMatchWithoutCommitmentIsANoteNotAFailure(t *testing.T) {
	log := revealed()
	log.SeedCommitment, log.SeedSalt = nil, nil
	if err := CheckCommitment(log, nil); !errors.Is(err, ErrNoCommitment) {
		t.Fatalf("got %v, want ErrNoCommitment", err)
	}
}

func TestAnUnfinishedLogRevealsNothingToCheck(t *testing.T) {
	log := revealed()
	log.Complete, log.Seed, log.SeedSalt = false, nil, nil
	var rejected *CommitmentError
	if err := CheckCommitment(log, nil); !errors.As(err, &rejected) {
		t.Fatalf("got %v, want a rejection", err)
	}
}

func TestEveryEventOnceInOrderAndAsPlayed(t *testing.T) {
	log := revealed()
	played := proto.Clone(log.GetEvents()[1]).(*gamehostv1.MatchEvent)
	if err := CheckEvents(log, []*gamehostv1.MatchEvent{played}); err != nil {
		t.Fatalf("honest log: %v", err)
	}
	other := proto.Clone(played).(*gamehostv1.MatchEvent)
	other.Move.Fields["cell"] = structpb.NewStringValue("c3")
	if err := CheckEvents(log, []*gamehostv1.MatchEvent{other}); err == nil {
		t.Fatal("a move rewritten in the log was not noticed")
	}
	log.Events = log.Events[1:]
	if err := CheckEvents(log, nil); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("got %v, want a gap reported", err)
	}
}
