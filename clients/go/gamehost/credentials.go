package gamehost

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// MaxBearerTokenLength bounds a bearer token: a JWT with a few claims is
// about 1 KB, and gRPC refuses a header block over 16 KB.
const MaxBearerTokenLength = 8192

// bearerToken is a per-RPC credential: every call carries
// "authorization: Bearer <token>", the host's way of knowing the caller (a
// JWT from the frontend's login, or an API key).
type bearerToken struct {
	header string
	secure bool
}

func (b bearerToken) GetRequestMetadata(context.Context, ...string) (map[string]string, error) {
	return map[string]string{"authorization": b.header}, nil
}

// RequireTransportSecurity is false only when the caller asked for
// plaintext explicitly (Dial's default): hosts on loopback or behind a
// TLS-terminating proxy speak plaintext gRPC.
func (b bearerToken) RequireTransportSecurity() bool { return b.secure }

// CheckBearerToken refuses what cannot be a token before anything is sent
// (Dial checks it too): HTTP/2 would reject control characters and spaces
// with an obscure error.
func CheckBearerToken(token string) error {
	switch {
	case token == "":
		return errors.New("the bearer token is empty")
	case len(token) > MaxBearerTokenLength:
		return fmt.Errorf("the bearer token is %d bytes long; at most %d are accepted", len(token),
			MaxBearerTokenLength)
	case strings.HasPrefix(strings.ToLower(token), "bearer "):
		return errors.New(`give the token alone, without the "Bearer " prefix`)
	}
	for i := 0; i < len(token); i++ {
		if token[i] <= ' ' || token[i] > '~' {
			return fmt.Errorf("the bearer token has a character that is not printable ASCII at byte %d", i)
		}
	}
	return nil
}
