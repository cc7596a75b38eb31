package gamehost

import (
	"testing"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func legalMove(id string, parts ...string) *gamehostv1.LegalMove {
	move := &gamehostv1.LegalMove{Id: id, Label: id}
	for _, part := range parts {
		move.Parts = append(move.Parts, &gamehostv1.MovePart{Id: part, Label: part})
	}
	return move
}

func TestAMoveIsComposedPartByPart(t *testing.T) {
	moves := []*gamehostv1.LegalMove{
		legalMove("X5:r0:x08y02", "piece:X5", "turn:X5:r0", "cell:x09y02"),
		legalMove("I2:r0:x06y09", "piece:I2", "turn:I2:r0", "cell:x06y09"),
		legalMove("I2:r1:x06y09", "piece:I2", "turn:I2:r1", "cell:x06y09"),
		legalMove("col:x03y03", "piece:column", "cell:x03y03"),
		legalMove("done"),
	}
	first := Choices(moves, nil)
	if len(first) != 3 || first[0].GetId() != "piece:X5" || first[1].GetId() != "piece:I2" {
		t.Fatalf("first choices: %v", first)
	}
	if turns := Choices(moves, []string{"piece:I2"}); len(turns) != 2 {
		t.Fatalf("the domino lies two ways, got %v", turns)
	}
	if move := Composed(moves, []string{"piece:I2", "turn:I2:r1"}); move != nil {
		t.Fatalf("a path short of its cell names no move, got %v", move.GetId())
	}
	if move := Composed(moves, []string{"piece:I2", "turn:I2:r1", "cell:x06y09"}); move.GetId() != "I2:r1:x06y09" {
		t.Fatalf("composed %v", move.GetId())
	}
	if found := Candidates(moves, []string{"piece:column"}); len(found) != 1 || found[0].GetId() != "col:x03y03" {
		t.Fatalf("candidates %v", found)
	}
	for _, move := range Candidates(moves, nil) {
		if move.GetId() == "done" {
			t.Fatal("a move offered whole is not a candidate of any path")
		}
	}
}
