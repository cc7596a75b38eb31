package gamehost

import (
	"fmt"
	"sort"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Visibilities are the names people use for who may see and join a match.
var Visibilities = map[string]gamehostv1.Visibility{
	"public": gamehostv1.Visibility_VISIBILITY_PUBLIC, "unlisted": gamehostv1.Visibility_VISIBILITY_UNLISTED,
	"private": gamehostv1.Visibility_VISIBILITY_PRIVATE,
}

// SpectatorPolicies are the names people use for who may watch without a seat.
var SpectatorPolicies = map[string]gamehostv1.Spectators{
	"anyone": gamehostv1.Spectators_SPECTATORS_ANYONE, "players": gamehostv1.Spectators_SPECTATORS_PLAYERS,
	"none": gamehostv1.Spectators_SPECTATORS_NONE,
}

// ParseVisibility is the Visibility named "public", "unlisted" or "private"
// ("": unspecified, which the host takes for public).
func ParseVisibility(name string) (gamehostv1.Visibility, error) {
	if name == "" {
		return gamehostv1.Visibility_VISIBILITY_UNSPECIFIED, nil
	}
	if value, ok := Visibilities[name]; ok {
		return value, nil
	}
	return 0, fmt.Errorf("visibility is public, unlisted or private, not %q", name)
}

// ParseSpectators is the Spectators policy named "anyone", "players" or
// "none" ("": unspecified, anyone).
func ParseSpectators(name string) (gamehostv1.Spectators, error) {
	if name == "" {
		return gamehostv1.Spectators_SPECTATORS_UNSPECIFIED, nil
	}
	if value, ok := SpectatorPolicies[name]; ok {
		return value, nil
	}
	return 0, fmt.Errorf("spectators is anyone, players or none, not %q", name)
}

// Reservations turns seat -> subject into CreateMatchRequest.ReservedSeats,
// by seat.
func Reservations(seats map[int32]string) []*gamehostv1.SeatReservation {
	held := make([]*gamehostv1.SeatReservation, 0, len(seats))
	for seat, subject := range seats {
		held = append(held, &gamehostv1.SeatReservation{Seat: seat, Subject: subject})
	}
	sort.Slice(held, func(i, j int) bool { return held[i].Seat < held[j].Seat })
	return held
}
