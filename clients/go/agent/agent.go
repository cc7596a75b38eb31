// Package agent plays a gamehost's bot seats from outside the host: a
// remote agent registers under a name on the ServeAgent stream (an API key
// with the "agent" role), is offered each turn of the seats that name it
// ("agent:{name}") with the seat's view and legal moves, and answers with a
// move id before the turn's deadline. A late or illegal answer has the
// host's fallback bot play that move and counts a strike (Verdict).
//
//	client, _ := gamehost.Dial("127.0.0.1:50051", gamehost.WithBearerToken(key))
//	a := &agent.Agent{Name: "first", Games: []string{"tictactoe"},
//		Choose: agent.Moves(func(view *gamehostv1.View, legal []*gamehostv1.LegalMove) string { return legal[0].Id })}
//	err := a.Serve(ctx, client)
package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Turn is a seat of the agent to move.
type Turn struct {
	ID       string // answer with it (AgentMove.turn_id)
	Match    string // "matches/{match}"
	Game     string // "games/{game}"
	Seat     int32
	Version  int64
	View     *gamehostv1.View // the seat's view, with its legal moves
	Deadline time.Time        // after it the fallback bot plays
}

// Chooser answers a turn with a move id; ok false sends no answer (the
// fallback bot plays at the deadline).
type Chooser func(ctx context.Context, turn *Turn) (moveID string, ok bool)

// Moves makes a Chooser of a function of the view and its legal moves.
func Moves(choose func(view *gamehostv1.View, legal []*gamehostv1.LegalMove) string) Chooser {
	return func(_ context.Context, turn *Turn) (string, bool) {
		return choose(turn.View, turn.View.GetLegalMoves()), true
	}
}

// Agent is one remote agent: its name, the games it plays and its choice.
type Agent struct {
	Name   string   // seats call it "agent:{Name}"
	Games  []string // "tictactoe" or "games/tictactoe"
	Choose Chooser
	// Verdict hears what became of each turn (optional).
	Verdict func(*gamehostv1.AgentVerdict)
	// Refused hears a request the host refused on the stream, which goes on (optional).
	Refused func(*gamehostv1.SessionError)
	// Registered hears each accepted registration, once per stream (optional).
	Registered func(*gamehostv1.AgentRegistered)
	// NoReconnect makes Serve return when the stream ends instead of
	// opening it again after a backoff.
	NoReconnect bool
}

const (
	reconnectFirst = 200 * time.Millisecond
	reconnectMost  = 5 * time.Second
)

// Serve plays the agent's seats until ctx ends (it returns ctx's error) or
// the host refuses the agent (a bad name, an unknown game, a key without
// the "agent" role: the error says which). A stream lost for a passing
// reason is opened again after a backoff; a turn still open is offered again.
func (a *Agent) Serve(ctx context.Context, client *gamehost.Client) error {
	delay := reconnectFirst
	for {
		registered, err := a.serveOnce(ctx, client)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !passing(err) {
			return fmt.Errorf("agent %s: %s", a.Name, gamehost.Describe(err))
		}
		if a.NoReconnect {
			return err
		}
		if registered {
			delay = reconnectFirst
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
		delay = min(reconnectMost, 2*delay)
	}
}

// passing reports whether the same stream may work later.
func passing(err error) bool {
	if errors.Is(err, errStreamEnded) {
		return true
	}
	found, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch found.Code() {
	case codes.Unavailable, codes.Canceled, codes.DeadlineExceeded, codes.Aborted, codes.Internal, codes.Unknown:
		return gamehost.Reason(err) == ""
	}
	return false
}

var errStreamEnded = errors.New("the host ended the agent stream")

func (a *Agent) serveOnce(ctx context.Context, client *gamehost.Client) (bool, error) {
	streamCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := client.ServeAgent(streamCtx)
	if err != nil {
		return false, err
	}
	games := make([]string, len(a.Games))
	for i, game := range a.Games {
		games[i] = gameName(game)
	}
	register := &gamehostv1.AgentRequest{Kind: &gamehostv1.AgentRequest_Register{
		Register: &gamehostv1.AgentRegistration{Name: a.Name, Games: games}}}
	if err := stream.Send(register); err != nil {
		return false, err
	}
	registered := false
	for {
		event, err := stream.Recv()
		if err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
				return registered, errStreamEnded
			}
			return registered, err
		}
		switch kind := event.GetKind().(type) {
		case *gamehostv1.AgentEvent_Registered:
			registered = true
			if a.Registered != nil {
				a.Registered(kind.Registered)
			}
		case *gamehostv1.AgentEvent_Turn:
			turn := turnOf(kind.Turn)
			moveID, ok := a.Choose(streamCtx, turn)
			if !ok {
				continue
			}
			move := &gamehostv1.AgentRequest{Kind: &gamehostv1.AgentRequest_Move{
				Move: &gamehostv1.AgentMove{TurnId: turn.ID, MoveId: moveID}}}
			if err := stream.Send(move); err != nil {
				return registered, err
			}
		case *gamehostv1.AgentEvent_Verdict:
			if a.Verdict != nil {
				a.Verdict(kind.Verdict)
			}
		case *gamehostv1.AgentEvent_Error:
			if a.Refused != nil {
				a.Refused(kind.Error)
			}
		}
	}
}

func turnOf(message *gamehostv1.AgentTurn) *Turn {
	return &Turn{ID: message.GetTurnId(), Match: message.GetMatch(), Game: message.GetGame(), Seat: message.GetSeat(),
		Version: message.GetVersion(), View: message.GetView(), Deadline: message.GetDeadline().AsTime()}
}

func gameName(game string) string {
	if strings.HasPrefix(game, "games/") {
		return game
	}
	return "games/" + game
}
