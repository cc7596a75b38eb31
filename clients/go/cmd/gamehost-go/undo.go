package main

import (
	"context"
	"fmt"
	"io"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// undoActions are what `undo` does: ask to take back your last move, answer
// the open ask, or withdraw yours.
var undoActions = map[string]string{"ask": "asked", "accept": "accepted", "refuse": "refused",
	"withdraw": "withdrew the ask"}

// runUndo takes a move back by agreement (AskUndo, AnswerUndo, WithdrawUndo),
// over unary calls or, with --session, over a Session stream.
func runUndo(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("undo", "ask|accept|refuse|withdraw MATCH")
	token := fs.String("token", "", "your player token (signed in: may be left out)")
	askVersion := fs.Int64("ask-version", 0, "accept or refuse only if the open ask is still this one")
	session := fs.Bool("session", false, "send it over a Session stream instead of a unary call")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 2 || undoActions[positional[0]] == "" {
		return usagef("undo takes an action (ask, accept, refuse or withdraw) and a match, got %q", positional)
	}
	action, match := positional[0], gamehost.MatchName(positional[1])
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	var answer *gamehostv1.UndoResponse
	if *session {
		answer, err = undoOverSession(ctx, host, action, match, *token, *askVersion)
	} else {
		answer, err = unary(ctx, func(ctx context.Context) (*gamehostv1.UndoResponse, error) {
			switch action {
			case "ask":
				return host.AskUndo(ctx, &gamehostv1.AskUndoRequest{Name: match, PlayerToken: *token})
			case "withdraw":
				return host.WithdrawUndo(ctx, &gamehostv1.WithdrawUndoRequest{Name: match, PlayerToken: *token})
			}
			return host.AnswerUndo(ctx, answerRequest(match, *token, action, *askVersion))
		})
	}
	if err != nil {
		return err
	}
	printUndo(out, undoActions[action], answer)
	return nil
}

func undoOverSession(ctx context.Context, host *gamehost.Client, action, match, token string,
	askVersion int64) (*gamehostv1.UndoResponse, error) {
	session, err := host.OpenSession(ctx)
	if err != nil {
		return nil, err
	}
	defer session.Close()
	switch action {
	case "ask":
		return session.AskUndo(&gamehostv1.AskUndoRequest{Name: match, PlayerToken: token})
	case "withdraw":
		return session.WithdrawUndo(&gamehostv1.WithdrawUndoRequest{Name: match, PlayerToken: token})
	}
	return session.AnswerUndo(answerRequest(match, token, action, askVersion))
}

func answerRequest(match, token, action string, askVersion int64) *gamehostv1.AnswerUndoRequest {
	request := &gamehostv1.AnswerUndoRequest{Name: match, PlayerToken: token, Accept: action == "accept"}
	if askVersion > 0 {
		request.AskVersion = &askVersion
	}
	return request
}

func printUndo(out io.Writer, done string, answer *gamehostv1.UndoResponse) {
	switch {
	case answer.GetUndone():
		fmt.Fprintf(out, "%s: the move is taken back (match now at v%d)\n", done, answer.GetVersion())
	case answer.GetAsk() != nil:
		ask := answer.GetAsk()
		waiting := ""
		for i, seat := range ask.GetWaiting() {
			if i > 0 {
				waiting += ", "
			}
			waiting += playerName(seat)
		}
		fmt.Fprintf(out, "%s: %s asks to take back the move of v%d; waiting for %s (ask v%d)\n", done,
			playerName(ask.GetSeat()), ask.GetUndoes(), waiting, ask.GetAskVersion())
	default:
		fmt.Fprintf(out, "%s: the move stands (match now at v%d)\n", done, answer.GetVersion())
	}
}
