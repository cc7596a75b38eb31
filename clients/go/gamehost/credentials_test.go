package gamehost

import (
	"context"
	"strings"
	"testing"
)

func TestBearerTokensThatCannotBeSentAreRefusedAtDial(t *testing.T) {
	for _, token := range []string{"a b", "tab\there", "new\nline", "é", "Bearer abc", "bearer abc",
		strings.Repeat("x", MaxBearerTokenLength+1)} {
		if _, err := Dial("127.0.0.1:1", WithBearerToken(token)); err == nil {
			t.Errorf("Dial accepted the token %.20q", token)
		}
	}
	for _, token := range []string{"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln", "key_0123-abc~",
		strings.Repeat("x", MaxBearerTokenLength)} {
		if err := CheckBearerToken(token); err != nil {
			t.Errorf("refused %.20q: %v", token, err)
		}
	}
}

func TestEveryCallCarriesTheBearerHeader(t *testing.T) {
	metadata, err := bearerToken{header: "Bearer abc"}.GetRequestMetadata(context.Background())
	if err != nil || len(metadata) != 1 || metadata["authorization"] != "Bearer abc" {
		t.Errorf("metadata %v, error %v", metadata, err)
	}
}
