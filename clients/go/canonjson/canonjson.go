// Package canonjson writes protobuf messages as canonical JSON, so that
// clients in different languages print the same message as the same bytes:
// the proto3 JSON mapping (lowerCamelCase field names, 64-bit integers as
// strings, enums by name, fields at their default value left out), with
// object keys sorted, no whitespace, numbers in the shortest form that reads
// back exactly (as JavaScript prints them: 3, not 3.0) and strings escaped
// only where JSON requires it. This is RFC 8785 (JCS) for the values the
// mapping produces.
package canonjson

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// Marshal returns the canonical JSON of m.
func Marshal(m proto.Message) ([]byte, error) {
	mapped, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	// Decode protojson's output (whose spacing is deliberately unstable) into
	// plain values, then write those canonically.
	var value any
	if err := json.Unmarshal(mapped, &value); err != nil {
		return nil, fmt.Errorf("canonical json: %w", err)
	}
	var out bytes.Buffer
	if err := writeValue(&out, value); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
