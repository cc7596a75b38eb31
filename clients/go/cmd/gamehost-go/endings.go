package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// runResign resigns your seat (Resign), over a unary call or a Session stream.
func runResign(ctx context.Context, args []string, out io.Writer) error {
	return runEnding(ctx, "resign", "resigned", args, out,
		func(ctx context.Context, host *gamehost.Client, match, token string) (*gamehostv1.Match, error) {
			return host.Resign(ctx, &gamehostv1.ResignRequest{Name: match, PlayerToken: token})
		},
		func(session *gamehost.Session, match, token string) (*gamehostv1.Match, error) {
			return session.Resign(&gamehostv1.ResignRequest{Name: match, PlayerToken: token})
		})
}

// runClaim claims victory over opponents absent past the match's grace (ClaimVictory).
func runClaim(ctx context.Context, args []string, out io.Writer) error {
	return runEnding(ctx, "claim", "claimed", args, out,
		func(ctx context.Context, host *gamehost.Client, match, token string) (*gamehostv1.Match, error) {
			return host.ClaimVictory(ctx, &gamehostv1.ClaimVictoryRequest{Name: match, PlayerToken: token})
		},
		func(session *gamehost.Session, match, token string) (*gamehostv1.Match, error) {
			return session.ClaimVictory(&gamehostv1.ClaimVictoryRequest{Name: match, PlayerToken: token})
		})
}

func runEnding(ctx context.Context, name, done string, args []string, out io.Writer,
	call func(context.Context, *gamehost.Client, string, string) (*gamehostv1.Match, error),
	overSession func(*gamehost.Session, string, string) (*gamehostv1.Match, error)) error {
	fs := newFlagSet(name, "MATCH")
	token := fs.String("token", "", "your player token (signed in: may be left out)")
	session := fs.Bool("session", false, "send it over a Session stream instead of a unary call")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usagef("%s takes one match, got %q", name, positional)
	}
	match := gamehost.MatchName(positional[0])
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	var ended *gamehostv1.Match
	if *session {
		var stream *gamehost.Session
		if stream, err = host.OpenSession(ctx); err != nil {
			return err
		}
		defer stream.Close()
		ended, err = overSession(stream, match, *token)
	} else {
		ended, err = unary(ctx, func(ctx context.Context) (*gamehostv1.Match, error) {
			return call(ctx, host, match, *token)
		})
	}
	if err != nil {
		return err
	}
	status := strings.ToLower(strings.TrimPrefix(ended.GetStatus().String(), "MATCH_STATUS_"))
	fmt.Fprintf(out, "%s: %s %s v%d", done, ended.GetName(), status, ended.GetVersion())
	if summary := ended.GetResult().GetSummary(); summary != "" {
		fmt.Fprintf(out, ": %s", summary)
	}
	fmt.Fprintln(out)
	return nil
}

// drawActions are what `draw` does: offer a draw, answer the open offer, or withdraw yours.
var drawActions = map[string]string{"offer": "offered", "accept": "accepted", "decline": "declined",
	"withdraw": "withdrew the offer"}

// runDraw draws by agreement (OfferDraw, AnswerDraw, WithdrawDraw), over
// unary calls or, with --session, over a Session stream.
func runDraw(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("draw", "offer|accept|decline|withdraw MATCH")
	token := fs.String("token", "", "your player token (signed in: may be left out)")
	offerVersion := fs.Int64("offer-version", 0, "accept or decline only if the open offer is still this one")
	session := fs.Bool("session", false, "send it over a Session stream instead of a unary call")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 2 || drawActions[positional[0]] == "" {
		return usagef("draw takes an action (offer, accept, decline or withdraw) and a match, got %q", positional)
	}
	action, match := positional[0], gamehost.MatchName(positional[1])
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	answerRequest := &gamehostv1.AnswerDrawRequest{Name: match, PlayerToken: *token, Accept: action == "accept"}
	if *offerVersion > 0 {
		answerRequest.OfferVersion = offerVersion
	}
	var answer *gamehostv1.DrawResponse
	if *session {
		var stream *gamehost.Session
		if stream, err = host.OpenSession(ctx); err != nil {
			return err
		}
		defer stream.Close()
		switch action {
		case "offer":
			answer, err = stream.OfferDraw(&gamehostv1.OfferDrawRequest{Name: match, PlayerToken: *token})
		case "withdraw":
			answer, err = stream.WithdrawDraw(&gamehostv1.WithdrawDrawRequest{Name: match, PlayerToken: *token})
		default:
			answer, err = stream.AnswerDraw(answerRequest)
		}
	} else {
		answer, err = unary(ctx, func(ctx context.Context) (*gamehostv1.DrawResponse, error) {
			switch action {
			case "offer":
				return host.OfferDraw(ctx, &gamehostv1.OfferDrawRequest{Name: match, PlayerToken: *token})
			case "withdraw":
				return host.WithdrawDraw(ctx, &gamehostv1.WithdrawDrawRequest{Name: match, PlayerToken: *token})
			}
			return host.AnswerDraw(ctx, answerRequest)
		})
	}
	if err != nil {
		return err
	}
	printDraw(out, drawActions[action], answer)
	return nil
}

func printDraw(out io.Writer, done string, answer *gamehostv1.DrawResponse) {
	switch {
	case answer.GetAgreed():
		fmt.Fprintf(out, "%s: the match is drawn (v%d)\n", done, answer.GetVersion())
	case answer.GetOffer() != nil:
		offer := answer.GetOffer()
		waiting := make([]string, 0, len(offer.GetWaiting()))
		for _, seat := range offer.GetWaiting() {
			waiting = append(waiting, playerName(seat))
		}
		fmt.Fprintf(out, "%s: %s offers a draw; waiting for %s (offer v%d)\n", done, playerName(offer.GetSeat()),
			strings.Join(waiting, ", "), offer.GetOfferVersion())
	default:
		fmt.Fprintf(out, "%s: the match goes on (v%d)\n", done, answer.GetVersion())
	}
}
