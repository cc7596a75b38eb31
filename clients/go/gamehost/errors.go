package gamehost

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// codeNames are the canonical names of the gRPC codes, as the protocol docs
// and every other gRPC language spell them (Go's own String() says "NotFound").
var codeNames = map[codes.Code]string{
	codes.OK: "OK", codes.Canceled: "CANCELLED", codes.Unknown: "UNKNOWN",
	codes.InvalidArgument: "INVALID_ARGUMENT", codes.DeadlineExceeded: "DEADLINE_EXCEEDED",
	codes.NotFound: "NOT_FOUND", codes.AlreadyExists: "ALREADY_EXISTS",
	codes.PermissionDenied: "PERMISSION_DENIED", codes.ResourceExhausted: "RESOURCE_EXHAUSTED",
	codes.FailedPrecondition: "FAILED_PRECONDITION", codes.Aborted: "ABORTED",
	codes.OutOfRange: "OUT_OF_RANGE", codes.Unimplemented: "UNIMPLEMENTED",
	codes.Internal: "INTERNAL", codes.Unavailable: "UNAVAILABLE", codes.DataLoss: "DATA_LOSS",
	codes.Unauthenticated: "UNAUTHENTICATED",
}

// CodeName returns the canonical name of a gRPC code, e.g. "NOT_FOUND".
func CodeName(code codes.Code) string {
	if name, ok := codeNames[code]; ok {
		return name
	}
	return fmt.Sprintf("CODE_%d", uint32(code))
}

// Describe renders an error for a person: the gRPC code and message on the
// first line, then one line per google.rpc detail the host attached. Context
// added in front by wrapping (fmt.Errorf("move 3: %w", err)) stays in front.
// Errors that did not come from gRPC are returned as they are.
func Describe(err error) string {
	rpcErr, ok := rpcErrorOf(err)
	if !ok {
		return err.Error()
	}
	st := rpcErr.GRPCStatus()
	context := strings.TrimSuffix(err.Error(), rpcErr.Error())
	lines := []string{context + CodeName(st.Code()) + ": " + st.Message()}
	for _, detail := range st.Details() {
		lines = append(lines, "  "+describeDetail(detail))
	}
	return strings.Join(lines, "\n")
}

// Reason returns the reason of the ErrorInfo the host attached to err
// ("PARTY_NOT_FOUND", "TICKET_LIMIT"), also when err wraps it, or "".
func Reason(err error) string {
	if rpcErr, ok := rpcErrorOf(err); ok {
		for _, detail := range rpcErr.GRPCStatus().Details() {
			if info, isInfo := detail.(*errdetails.ErrorInfo); isInfo {
				return info.GetReason()
			}
		}
	}
	return ""
}

type rpcError interface {
	error
	GRPCStatus() *status.Status
}

// rpcErrorOf finds the gRPC status error in err's chain.
func rpcErrorOf(err error) (rpcError, bool) {
	var found rpcError
	return found, errors.As(err, &found)
}

func describeDetail(detail any) string {
	switch d := detail.(type) {
	case *errdetails.ErrorInfo:
		line := fmt.Sprintf("ErrorInfo: reason=%s domain=%s", d.GetReason(), d.GetDomain())
		if len(d.GetMetadata()) > 0 {
			line += " metadata: " + sortedPairs(d.GetMetadata())
		}
		return line
	case *errdetails.BadRequest:
		var violations []string
		for _, v := range d.GetFieldViolations() {
			violations = append(violations, fmt.Sprintf("%s: %s", v.GetField(), v.GetDescription()))
		}
		return "BadRequest: " + strings.Join(violations, "; ")
	case *errdetails.PreconditionFailure:
		var violations []string
		for _, v := range d.GetViolations() {
			violations = append(violations, fmt.Sprintf("type=%s subject=%s: %s", v.GetType(), v.GetSubject(),
				v.GetDescription()))
		}
		return "PreconditionFailure: " + strings.Join(violations, "; ")
	case *errdetails.ResourceInfo:
		return fmt.Sprintf("ResourceInfo: type=%s name=%s: %s", d.GetResourceType(), d.GetResourceName(),
			d.GetDescription())
	case *errdetails.QuotaFailure:
		var violations []string
		for _, v := range d.GetViolations() {
			violations = append(violations, fmt.Sprintf("%s: %s", v.GetSubject(), v.GetDescription()))
		}
		return "QuotaFailure: " + strings.Join(violations, "; ")
	case *errdetails.RetryInfo:
		return fmt.Sprintf("RetryInfo: retry after %s", d.GetRetryDelay().AsDuration())
	case proto.Message:
		// Any other detail type the host may add: its name and JSON form.
		text, _ := protojson.Marshal(d)
		return fmt.Sprintf("%s: %s", d.ProtoReflect().Descriptor().FullName(), text)
	case error:
		return "undecodable detail: " + d.Error()
	default:
		return fmt.Sprintf("detail: %v", d)
	}
}

func sortedPairs(m map[string]string) string {
	var pairs []string
	for _, key := range slices.Sorted(maps.Keys(m)) {
		pairs = append(pairs, key+"="+m[key])
	}
	return strings.Join(pairs, ", ")
}
