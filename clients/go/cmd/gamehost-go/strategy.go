package main

import (
	"math/rand/v2"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// strategy picks one of the legal moves a view offers; moves is never empty.
type strategy func(moves []*gamehostv1.LegalMove) *gamehostv1.LegalMove

// newStrategy returns the named strategy: "first" takes the first listed
// move, "random" a uniformly random one drawn from seed.
func newStrategy(name string, seed uint64) (strategy, error) {
	switch name {
	case "first":
		return func(moves []*gamehostv1.LegalMove) *gamehostv1.LegalMove { return moves[0] }, nil
	case "random":
		draw := rand.New(rand.NewPCG(seed, 0))
		return func(moves []*gamehostv1.LegalMove) *gamehostv1.LegalMove {
			return moves[draw.IntN(len(moves))]
		}, nil
	default:
		return nil, usagef("unknown strategy %q: want random or first", name)
	}
}
