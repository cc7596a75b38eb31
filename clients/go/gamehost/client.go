package gamehost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Client is a connection to one host; its embedded stub makes the calls.
type Client struct {
	gamehostv1.GameHostClient
	conn *grpc.ClientConn
}

// Dial connects to a host at target ("host:port") over plaintext gRPC. The
// connection is made lazily, on the first call.
func Dial(target string) (*Client, error) {
	conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", target, err)
	}
	return &Client{GameHostClient: gamehostv1.NewGameHostClient(conn), conn: conn}, nil
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
