package main

import (
	"context"
	"fmt"
	"io"
	"slices"

	"gamehost.dev/clients/go/canonjson"
	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// runScript creates a match with every seat held by this client, submits the
// given move ids in order (each by the seat whose move it is) and prints the
// match log as canonical JSON. The same game, seed, options and moves give
// the same log from any client, whatever its language.
func runScript(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("script", "<game> <move-id>...")
	var seed seedFlag
	options := optionsFlag{}
	fs.Var(&seed, "seed", "the match seed (required)")
	seats := fs.Int("seats", 0, "number of seats (default: the game's minimum)")
	variant := fs.String("variant", "", "a variant id of the game")
	fs.Var(options, "option", "a match option NAME=VALUE (VALUE read as JSON if it parses); repeatable")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) == 0 {
		return usagef("name the game, then the move ids")
	}
	if !seed.set {
		return usagef("--seed is required: the same seed and moves make the same match")
	}
	optionsStruct, err := options.Struct()
	if err != nil {
		return usagef("--option: %v", err)
	}
	game, moves := positional[0], positional[1:]

	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	request := &gamehostv1.CreateMatchRequest{
		Game: gamehost.GameName(game), Seats: int32(*seats), Options: optionsStruct, Seed: &seed.value,
		Variant: *variant, RequestId: gamehost.NewRequestID(),
	}
	if request.Seats == 0 {
		found, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Game, error) {
			return host.GetGame(ctx, &gamehostv1.GetGameRequest{Name: request.Game})
		})
		if err != nil {
			return err
		}
		request.Seats = found.GetMinPlayers()
	}
	match, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Match, error) {
		return host.CreateMatch(ctx, request)
	})
	if err != nil {
		return err
	}
	tokens, err := joinEverySeat(ctx, host, match)
	if err != nil {
		return err
	}
	for i, id := range moves {
		if err := playScripted(ctx, host, match.GetName(), tokens, id); err != nil {
			return fmt.Errorf("move %d of %d (%q): %w", i+1, len(moves), id, err)
		}
	}
	log, err := unary(ctx, func(ctx context.Context) (*gamehostv1.MatchLog, error) {
		return host.Log(ctx, match.GetName(), "")
	})
	if err != nil {
		return err
	}
	text, err := canonjson.Marshal(log)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(out, "%s\n", text)
	return err
}

// joinEverySeat takes each seat of the match in order and returns the tokens by seat.
func joinEverySeat(ctx context.Context, host *gamehost.Client, match *gamehostv1.Match) ([]string, error) {
	tokens := make([]string, len(match.GetSeats()))
	for seat := range int32(len(tokens)) {
		joined, err := unary(ctx, func(ctx context.Context) (*gamehostv1.JoinMatchResponse, error) {
			return host.JoinMatch(ctx, &gamehostv1.JoinMatchRequest{
				Name: match.GetName(), Seat: &seat, PlayerName: fmt.Sprintf("seat %d", seat),
			})
		})
		if err != nil {
			return nil, err
		}
		tokens[seat] = joined.GetPlayerToken()
	}
	return tokens, nil
}

// playScripted submits one move id for the seat whose move it is, and lets
// the host judge it: an id that is not legal fails with the host's error.
func playScripted(ctx context.Context, host *gamehost.Client, match string, tokens []string, id string) error {
	current, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Match, error) {
		return host.GetMatch(ctx, &gamehostv1.GetMatchRequest{Name: match})
	})
	if err != nil {
		return err
	}
	seat, err := moverOf(ctx, host, current, tokens, id)
	if err != nil {
		return err
	}
	version := current.GetVersion()
	_, err = unary(ctx, func(ctx context.Context) (*gamehostv1.SubmitMoveResponse, error) {
		return host.SubmitMove(ctx, &gamehostv1.SubmitMoveRequest{
			Name: match, PlayerToken: tokens[seat], Move: &gamehostv1.SubmitMoveRequest_MoveId{MoveId: id},
			ExpectedVersion: &version, RequestId: gamehost.NewRequestID(),
		})
	})
	return err
}

// moverOf picks the seat to submit id: the only seat to move, or, when
// several may move, the one whose legal moves list id. Failing that, the
// first seat to move (or seat 0), so that the host says what is wrong.
func moverOf(ctx context.Context, host *gamehost.Client, match *gamehostv1.Match, tokens []string,
	id string) (int32, error) {
	toMove := match.GetToMove()
	if len(toMove) == 0 {
		return 0, nil
	}
	if len(toMove) > 1 {
		for _, seat := range toMove {
			view, err := unary(ctx, func(ctx context.Context) (*gamehostv1.View, error) {
				return host.GetView(ctx, &gamehostv1.GetViewRequest{Name: match.GetName(), PlayerToken: tokens[seat]})
			})
			if err != nil {
				return 0, err
			}
			if slices.ContainsFunc(view.GetLegalMoves(), func(m *gamehostv1.LegalMove) bool { return m.GetId() == id }) {
				return seat, nil
			}
		}
	}
	return toMove[0], nil
}
