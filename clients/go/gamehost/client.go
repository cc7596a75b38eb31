package gamehost

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Client is a connection to one host; its embedded stub makes the calls.
// Admin makes the operators' calls (they need the "admin" role).
type Client struct {
	gamehostv1.GameHostClient
	Admin gamehostv1.GameHostAdminClient
	conn  *grpc.ClientConn
}

// dialSettings collects the Options of one Dial.
type dialSettings struct {
	token string
	tls   *tls.Config // nil: plaintext
}

// Option changes how Dial connects.
type Option func(*dialSettings)

// WithBearerToken signs every call in: it carries "authorization: Bearer
// <token>", a JWT from the frontend's login or an API key. Without it the
// host takes the caller for anonymous; an empty token adds nothing. Over
// plaintext the token crosses the network readable: use WithTLS unless the
// host is on loopback or behind a proxy on the same machine.
func WithBearerToken(token string) Option {
	return func(s *dialSettings) { s.token = token }
}

// WithTLS connects over TLS; a nil config verifies the host against the
// system's root certificates.
func WithTLS(config *tls.Config) Option {
	return func(s *dialSettings) {
		if config == nil {
			config = &tls.Config{}
		}
		s.tls = config
	}
}

// Dial connects to a host at target ("host:port"), over plaintext gRPC
// unless WithTLS is given. The connection is made lazily, on the first call.
func Dial(target string, options ...Option) (*Client, error) {
	var settings dialSettings
	for _, option := range options {
		option(&settings)
	}
	transport := insecure.NewCredentials()
	if settings.tls != nil {
		transport = credentials.NewTLS(settings.tls)
	}
	dialOptions := []grpc.DialOption{grpc.WithTransportCredentials(transport)}
	if settings.token != "" {
		if err := CheckBearerToken(settings.token); err != nil {
			return nil, err
		}
		dialOptions = append(dialOptions, grpc.WithPerRPCCredentials(
			bearerToken{header: "Bearer " + settings.token, secure: settings.tls != nil}))
	}
	conn, err := grpc.NewClient(target, dialOptions...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", target, err)
	}
	return &Client{
		GameHostClient: gamehostv1.NewGameHostClient(conn), Admin: gamehostv1.NewGameHostAdminClient(conn),
		conn: conn,
	}, nil
}

// Close releases the connection.
func (c *Client) Close() error { return c.conn.Close() }

// Games lists the whole catalog, following page tokens.
func (c *Client) Games(ctx context.Context) ([]*gamehostv1.Game, error) {
	var games []*gamehostv1.Game
	token := ""
	for {
		page, err := c.ListGames(ctx, &gamehostv1.ListGamesRequest{PageToken: token})
		if err != nil {
			return nil, err
		}
		games = append(games, page.GetGames()...)
		if token = page.GetNextPageToken(); token == "" {
			return games, nil
		}
	}
}

// NewRequestID returns a fresh id for CreateMatch and SubmitMove: a retry
// that reuses it cannot create or play twice.
func NewRequestID() string {
	var id [16]byte
	_, _ = rand.Read(id[:]) // crypto/rand.Read never fails on supported platforms
	return hex.EncodeToString(id[:])
}
