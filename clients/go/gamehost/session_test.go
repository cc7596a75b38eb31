package gamehost

import (
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/anypb"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

func TestAnErrorAnswerIsTheStatusACallWouldReturn(t *testing.T) {
	info, err := anypb.New(&errdetails.ErrorInfo{Reason: "STALE_VERSION", Domain: "gamehost.dev",
		Metadata: map[string]string{"current_version": "4"}})
	if err != nil {
		t.Fatal(err)
	}
	answer := &gamehostv1.SessionEvent{Tag: 7, Match: "matches/m", Event: &gamehostv1.SessionEvent_Error{
		Error: &gamehostv1.SessionError{Code: int32(codes.Aborted), Message: "stale", Details: []*anypb.Any{info}}}}
	refusal := SessionError(answer)
	if status.Code(refusal) != codes.Aborted || status.Convert(refusal).Message() != "stale" {
		t.Fatalf("got %v", refusal)
	}
	if described := Describe(refusal); !strings.Contains(described, "STALE_VERSION") ||
		!strings.Contains(described, "current_version") {
		t.Fatalf("details lost: %s", described)
	}
	moved := &gamehostv1.SessionEvent{Tag: 8, Event: &gamehostv1.SessionEvent_Moved{
		Moved: &gamehostv1.SubmitMoveResponse{Version: 5}}}
	if SessionError(moved) != nil {
		t.Fatal("an answer without an error is not an error")
	}
}
