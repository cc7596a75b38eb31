package canonjson

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestMarshalMatchLog(t *testing.T) {
	move, err := structpb.NewStruct(map[string]any{"cell": 4, "to": []any{0.5, "b2"}, "a<b": true})
	if err != nil {
		t.Fatal(err)
	}
	seed := uint64(18446744073709551615)
	log := &gamehostv1.MatchLog{
		Match: "matches/m1", Game: "games/tictactoe", Seats: 2, Seed: &seed, Complete: true,
		Events: []*gamehostv1.MatchEvent{{
			Version: 4, Kind: gamehostv1.EventKind_EVENT_KIND_MOVED, Seat: 0, Label: "X \"on\" b2\n",
			Move: move, Time: &timestamppb.Timestamp{Seconds: 1, Nanos: 5000},
		}},
		Result: &gamehostv1.Result{Scores: []float64{1, 0.25}, Ranking: []int32{1, 2}, Winners: []int32{0}},
	}
	got, err := Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	// Sorted keys, camelCase names, 64-bit integers as strings, enums by
	// name, default values (seat 0, rulesVersion "") left out, integral doubles as integers.
	want := `{"complete":true,"events":[{"kind":"EVENT_KIND_MOVED","label":"X \"on\" b2\n",` +
		`"move":{"a<b":true,"cell":4,"to":[0.5,"b2"]},"time":"1970-01-01T00:00:01.000005Z","version":"4"}],` +
		`"game":"games/tictactoe","match":"matches/m1","result":{"ranking":[1,2],"scores":[1,0.25],"winners":[0]},` +
		`"seats":2,"seed":"18446744073709551615"}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestNumbersAreWrittenAsJavaScriptWritesThem(t *testing.T) {
	for value, want := range map[float64]string{
		0: "0", 3: "3", -7: "-7", 0.1: "0.1", 1e20: "100000000000000000000", 1e21: "1e+21",
		0.000001: "0.000001", 1e-7: "1e-7", -2.5e-8: "-2.5e-8", 123456789.125: "123456789.125",
	} {
		var out bytes.Buffer
		if err := writeNumber(&out, value); err != nil || out.String() != want {
			t.Errorf("writeNumber(%v) = %q, %v; want %q", value, out.String(), err, want)
		}
	}
}

func TestStringsEscapeOnlyWhatJSONRequires(t *testing.T) {
	var out bytes.Buffer
	writeString(&out, "é<>&\u2028\"\\\b\f\t\r\n\x01\x1f")
	want := `"é<>&` + "\u2028" + `\"\\\b\f\t\r\n\u0001\u001f"`
	if out.String() != want {
		t.Errorf("got %s, want %s", out.String(), want)
	}
}
