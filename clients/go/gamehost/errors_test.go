package gamehost

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
)

func TestDescribePrintsTheCodeAndEveryDetail(t *testing.T) {
	st, err := status.New(codes.FailedPrecondition, "No legal move has id 'zz' now.").WithDetails(
		&errdetails.ErrorInfo{Reason: "UNKNOWN_MOVE", Domain: "gamehost.dev",
			Metadata: map[string]string{"rule": "unknown-move", "move_id": "zz"}},
		&errdetails.PreconditionFailure{Violations: []*errdetails.PreconditionFailure_Violation{
			{Type: "UNKNOWN_MOVE", Subject: "unknown-move", Description: "not listed"}}},
		&errdetails.BadRequest{FieldViolations: []*errdetails.BadRequest_FieldViolation{
			{Field: "seats", Description: "2 to 4"}, {Field: "options.x", Description: "unknown"}}},
		&errdetails.ResourceInfo{ResourceType: "gamehost.dev/Match", ResourceName: "matches/m", Description: "gone"},
		&errdetails.QuotaFailure{Violations: []*errdetails.QuotaFailure_Violation{
			{Subject: "calls", Description: "20 calls per second"}}},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(1500 * time.Millisecond)},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := Describe(fmt.Errorf("move 2 of 3 (%q): %w", "zz", st.Err()))
	want := `move 2 of 3 ("zz"): FAILED_PRECONDITION: No legal move has id 'zz' now.
  ErrorInfo: reason=UNKNOWN_MOVE domain=gamehost.dev metadata: move_id=zz, rule=unknown-move
  PreconditionFailure: type=UNKNOWN_MOVE subject=unknown-move: not listed
  BadRequest: seats: 2 to 4; options.x: unknown
  ResourceInfo: type=gamehost.dev/Match name=matches/m: gone
  QuotaFailure: calls: 20 calls per second
  RetryInfo: retry after 1.5s`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestDescribeLeavesOtherErrorsAlone(t *testing.T) {
	if got := Describe(errors.New("no route")); got != "no route" {
		t.Errorf("got %q", got)
	}
	if got := Describe(status.Error(codes.Canceled, "bye")); got != "CANCELLED: bye" {
		t.Errorf("got %q", got)
	}
}
