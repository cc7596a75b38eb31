package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// playFlags are the flags of the play command.
type playFlags struct {
	match, name, variant, bot, strategy string
	seat, seats                         int
	session                             bool
	seed, matchSeed                     seedFlag
	options                             optionsFlag
}

// seatHeld is the seat this client plays, and the token that acts for it.
type seatHeld struct {
	match      string
	seat       int32
	token      string
	seedChosen bool   // the match's creator chose its seed
	commitment []byte // the commitment to its seed the match showed when this client joined
}

// runPlay opens a match against bots (or joins one with --match) and plays
// its seat to the end, following the match on a WatchMatch stream; then it
// checks the revealed seed against the commitment shown when it joined.
func runPlay(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("play", "<game> | --match <match>")
	flags := playFlags{options: optionsFlag{}}
	fs.StringVar(&flags.match, "match", "", "join this existing match instead of creating one")
	fs.IntVar(&flags.seat, "seat", -1, "with --match: the seat to take; -1 takes the lowest open one")
	fs.IntVar(&flags.seats, "seats", 0, "seats of a new match (default: the game's minimum); the others are bots")
	fs.StringVar(&flags.name, "name", "gamehost-go", "the player name shown to the others")
	fs.StringVar(&flags.variant, "variant", "", "a variant id of the game")
	fs.StringVar(&flags.bot, "bot", "", "the bot strategy for the bot seats (host default: random)")
	fs.Var(flags.options, "option", "a match option NAME=VALUE (VALUE read as JSON if it parses); repeatable")
	fs.Var(&flags.matchSeed, "match-seed", "the seed of the new match's chance events (default: the host draws one)")
	fs.StringVar(&flags.strategy, "strategy", "random", "how this client chooses its moves: random or first")
	fs.Var(&flags.seed, "seed", "the seed of this client's random choices (default: the clock)")
	fs.BoolVar(&flags.session, "session", false,
		"play over one Session stream (moves in, events out) instead of SubmitMove calls and a WatchMatch stream")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	game := ""
	switch {
	case len(positional) == 1 && flags.match == "":
		game = positional[0]
	case len(positional) == 0 && flags.match != "":
	default:
		return usagef("name one game to start a match, or --match to join one")
	}
	if !flags.seed.set {
		flags.seed.value = uint64(time.Now().UnixNano())
	}
	choose, err := newStrategy(flags.strategy, flags.seed.value)
	if err != nil {
		return err
	}

	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	var held seatHeld
	if game != "" {
		held, err = createAgainstBots(ctx, host, game, flags)
	} else {
		held, err = joinMatch(ctx, host, flags)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s: playing %s (strategy %s, seed %d)\n", held.match, playerName(held.seat), flags.strategy,
		flags.seed.value)
	if held.seedChosen {
		fmt.Fprintln(out, "(the match's seed was chosen by its creator: whoever knows it can foresee its chance)")
	}
	play := playToEnd
	if flags.session {
		play = playOverSession
	}
	final, err := play(ctx, host, held, choose, out)
	if err != nil {
		return err
	}
	// Why a match ended without a result is on the match, not the view.
	var match *gamehostv1.Match
	if final.GetResult() == nil {
		match, err = unary(ctx, func(ctx context.Context) (*gamehostv1.Match, error) {
			return host.GetMatch(ctx, &gamehostv1.GetMatchRequest{Name: held.match})
		})
		if err != nil {
			return err
		}
	}
	checked := checkPlayed(ctx, host, held, out) // before the outcome, which stays the last lines
	printOutcome(out, final, match)
	return checked
}

// createAgainstBots creates a match of the game with bots on every seat but
// seat 0, and takes seat 0.
func createAgainstBots(ctx context.Context, host *gamehost.Client, game string, flags playFlags) (seatHeld, error) {
	seats := int32(flags.seats)
	if seats == 0 {
		found, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Game, error) {
			return host.GetGame(ctx, &gamehostv1.GetGameRequest{Name: gamehost.GameName(game)})
		})
		if err != nil {
			return seatHeld{}, err
		}
		seats = found.GetMinPlayers()
	}
	options, err := flags.options.Struct()
	if err != nil {
		return seatHeld{}, usagef("--option: %v", err)
	}
	request := &gamehostv1.CreateMatchRequest{
		Game: gamehost.GameName(game), Seats: seats, Options: options, Variant: flags.variant, Bot: flags.bot,
		RequestId: gamehost.NewRequestID(),
	}
	for seat := int32(1); seat < seats; seat++ {
		request.BotSeats = append(request.BotSeats, seat)
	}
	if flags.matchSeed.set {
		request.Seed = &flags.matchSeed.value
	}
	match, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Match, error) {
		return host.CreateMatch(ctx, request)
	})
	if err != nil {
		return seatHeld{}, err
	}
	flags.match, flags.seat = match.GetName(), 0
	return joinMatch(ctx, host, flags)
}

// joinMatch takes a seat of an existing match: --seat, or the lowest open one.
func joinMatch(ctx context.Context, host *gamehost.Client, flags playFlags) (seatHeld, error) {
	request := &gamehostv1.JoinMatchRequest{Name: gamehost.MatchName(flags.match), PlayerName: flags.name}
	if flags.seat >= 0 {
		seat := int32(flags.seat)
		request.Seat = &seat
	}
	joined, err := unary(ctx, func(ctx context.Context) (*gamehostv1.JoinMatchResponse, error) {
		return host.JoinMatch(ctx, request)
	})
	if err != nil {
		return seatHeld{}, err
	}
	return seatHeld{match: joined.GetMatch().GetName(), seat: joined.GetSeat(), token: joined.GetPlayerToken(),
		seedChosen: joined.GetMatch().GetSeedChosen(), commitment: joined.GetMatch().GetSeedCommitment()}, nil
}
