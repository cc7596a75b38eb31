package gamehost

import gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"

// Moves in parts (docs/protocol.md, "Moves in parts"): a legal move may
// carry a path of parts (a piece, then how it lies, then its cell). A
// client composes a move part by part: after the parts chosen, the
// candidates are the moves whose paths start with them, the next choices
// are their following parts, and the move whose whole path was chosen is
// the one to submit.

// Candidates returns the moves offered in parts whose paths start with chosen.
func Candidates(moves []*gamehostv1.LegalMove, chosen []string) []*gamehostv1.LegalMove {
	var found []*gamehostv1.LegalMove
	for _, move := range moves {
		parts := move.GetParts()
		if len(parts) == 0 || len(parts) < len(chosen) {
			continue
		}
		matches := true
		for depth, id := range chosen {
			if parts[depth].GetId() != id {
				matches = false
				break
			}
		}
		if matches {
			found = append(found, move)
		}
	}
	return found
}

// Choices returns the distinct next parts after chosen, in the order the moves list them.
func Choices(moves []*gamehostv1.LegalMove, chosen []string) []*gamehostv1.MovePart {
	var next []*gamehostv1.MovePart
	seen := map[string]bool{}
	for _, move := range Candidates(moves, chosen) {
		if parts := move.GetParts(); len(parts) > len(chosen) && !seen[parts[len(chosen)].GetId()] {
			seen[parts[len(chosen)].GetId()] = true
			next = append(next, parts[len(chosen)])
		}
	}
	return next
}

// Composed returns the move whose whole path is chosen, or nil.
func Composed(moves []*gamehostv1.LegalMove, chosen []string) *gamehostv1.LegalMove {
	for _, move := range Candidates(moves, chosen) {
		if len(move.GetParts()) == len(chosen) {
			return move
		}
	}
	return nil
}
