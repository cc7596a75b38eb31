package gamehost

import (
	"testing"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestParseVisibilityAndSpectatorsByName(t *testing.T) {
	if value, err := ParseVisibility("private"); err != nil || value != gamehostv1.Visibility_VISIBILITY_PRIVATE {
		t.Fatalf("private: %v %v", value, err)
	}
	if value, err := ParseVisibility(""); err != nil || value != gamehostv1.Visibility_VISIBILITY_UNSPECIFIED {
		t.Fatalf("empty: %v %v", value, err)
	}
	if _, err := ParseVisibility("secret"); err == nil || err.Error() != `visibility is public, unlisted or private, not "secret"` {
		t.Fatalf("secret: %v", err)
	}
	if value, err := ParseSpectators("none"); err != nil || value != gamehostv1.Spectators_SPECTATORS_NONE {
		t.Fatalf("none: %v %v", value, err)
	}
	if _, err := ParseSpectators("friends"); err == nil {
		t.Fatal("friends: no error")
	}
}

func TestReservationsAreInSeatOrder(t *testing.T) {
	held := Reservations(map[int32]string{2: "carol", 0: "alice"})
	if len(held) != 2 || held[0].GetSeat() != 0 || held[0].GetSubject() != "alice" || held[1].GetSeat() != 2 {
		t.Fatalf("got %v", held)
	}
}
