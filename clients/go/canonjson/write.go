package canonjson

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// writeValue writes a value decoded by encoding/json canonically.
func writeValue(out *bytes.Buffer, value any) error {
	switch v := value.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case float64:
		return writeNumber(out, v)
	case string:
		writeString(out, v)
	case []any:
		out.WriteByte('[')
		for i, item := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := writeValue(out, item); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case map[string]any:
		out.WriteByte('{')
		// Sorted by code point; for the ASCII keys of the mapping that is
		// also RFC 8785's UTF-16 order.
		for i, key := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				out.WriteByte(',')
			}
			writeString(out, key)
			out.WriteByte(':')
			if err := writeValue(out, v[key]); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	default:
		return fmt.Errorf("canonical json: unexpected %T", value)
	}
	return nil
}

// writeNumber writes n as JavaScript's Number.prototype.toString does.
func writeNumber(out *bytes.Buffer, n float64) error {
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return fmt.Errorf("canonical json: %v is not a JSON number", n)
	}
	if n == 0 {
		out.WriteByte('0') // also for -0
		return nil
	}
	abs := math.Abs(n)
	if abs >= 1e-6 && abs < 1e21 {
		out.WriteString(strconv.FormatFloat(n, 'f', -1, 64))
		return nil
	}
	// Exponent form: Go writes "1e-07", JavaScript "1e-7".
	text := strconv.FormatFloat(n, 'e', -1, 64)
	mantissa, exponent, _ := bytes.Cut([]byte(text), []byte("e"))
	sign, digits := exponent[0], bytes.TrimLeft(exponent[1:], "0")
	out.Write(mantissa)
	out.WriteByte('e')
	out.WriteByte(sign)
	out.Write(digits)
	return nil
}

// writeString escapes only what JSON requires: the quote, the backslash and
// control characters (the short forms where they exist, else \u00xx).
func writeString(out *bytes.Buffer, s string) {
	out.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"':
			out.WriteString(`\"`)
		case r == '\\':
			out.WriteString(`\\`)
		case r == '\b':
			out.WriteString(`\b`)
		case r == '\f':
			out.WriteString(`\f`)
		case r == '\n':
			out.WriteString(`\n`)
		case r == '\r':
			out.WriteString(`\r`)
		case r == '\t':
			out.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(out, `\u%04x`, r)
		default:
			out.WriteString(s[i : i+size])
		}
		i += size
	}
	out.WriteByte('"')
}
