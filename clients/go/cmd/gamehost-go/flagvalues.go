package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// optionsFlag collects repeated --option NAME=VALUE flags into match
// options. VALUE is read as JSON when it parses (3, true, "x", [1,2]), else
// taken as a string.
type optionsFlag map[string]any

func (o optionsFlag) String() string { return "" }

func (o optionsFlag) Set(pair string) error {
	name, value, found := strings.Cut(pair, "=")
	if !found || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", pair)
	}
	var parsed any
	if err := json.Unmarshal([]byte(value), &parsed); err != nil {
		parsed = value
	}
	o[name] = parsed
	return nil
}

// Struct returns the options as the protocol carries them, or nil when none were given.
func (o optionsFlag) Struct() (*structpb.Struct, error) {
	if len(o) == 0 {
		return nil, nil
	}
	return structpb.NewStruct(o)
}

// seedFlag is an optional unsigned seed; set says whether it was given.
type seedFlag struct {
	value uint64
	set   bool
}

func (s *seedFlag) String() string {
	if s == nil || !s.set {
		return ""
	}
	return strconv.FormatUint(s.value, 10)
}

func (s *seedFlag) Set(text string) error {
	value, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		return fmt.Errorf("want an unsigned integer, got %q", text)
	}
	s.value, s.set = value, true
	return nil
}

// optionalFloat is a number flag that may be left out; set says whether it was given.
type optionalFloat struct {
	value float64
	set   bool
}

func (f *optionalFloat) String() string {
	if f == nil || !f.set {
		return ""
	}
	return strconv.FormatFloat(f.value, 'g', -1, 64)
}

func (f *optionalFloat) Set(text string) error {
	value, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(value, 0) || math.IsNaN(value) {
		return fmt.Errorf("want a number, got %q", text)
	}
	f.value, f.set = value, true
	return nil
}

// pointer is the value, or nil when it was left out.
func (f *optionalFloat) pointer() *float64 {
	if !f.set {
		return nil
	}
	return &f.value
}

// seconds is the value as a duration (0 when left out); name is the flag's, for the error.
func (f *optionalFloat) seconds(name string) (time.Duration, error) {
	if f.value < 0 || f.value > math.MaxInt64/float64(time.Second) {
		return 0, usagef("%s: want seconds from 0, got %v", name, f.value)
	}
	return time.Duration(f.value * float64(time.Second)), nil
}

// stateFlags collects repeated --state flags: "queued", "matched", "cancelled", "expired".
type stateFlags []gamehostv1.TicketState

func (s *stateFlags) String() string { return "" }

func (s *stateFlags) Set(name string) error {
	value, known := gamehostv1.TicketState_value["TICKET_STATE_"+strings.ToUpper(name)]
	if !known || value == 0 {
		return fmt.Errorf("want queued, matched, cancelled or expired, got %q", name)
	}
	*s = append(*s, gamehostv1.TicketState(value))
	return nil
}
