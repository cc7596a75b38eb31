package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"
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
