package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// runVerify reads a finished match's log and checks it without the game's
// rules: the seed it reveals against the commitment the match published at
// creation (and against --commitment, that commitment as the caller kept
// it), and every event once, in order. Replaying the moves needs the rules:
// `gamehost replay`, with the plugin installed, does that too.
func runVerify(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("verify", "<match>")
	commitment := fs.String("commitment", "", "the seed commitment the match showed when it was created "+
		"(Match.seed_commitment, in hex): the log must carry that same one")
	token := fs.String("token", "", "a seat's player token: its own hidden moves shown in the log")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 1 {
		return usagef("name one match, e.g. matches/<id>")
	}
	var seen []byte
	if *commitment != "" {
		if seen, err = hex.DecodeString(*commitment); err != nil {
			return usagef("--commitment: not hex: %v", err)
		}
	}
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	log, err := host.Log(ctx, positional[0], *token)
	if err != nil {
		return err
	}
	if !log.GetComplete() {
		return fmt.Errorf("%s is not over: its seed and salt are revealed when it ends", log.GetMatch())
	}
	if err := reportCommitment(out, log, seen); err != nil {
		return err
	}
	if err := gamehost.CheckEvents(log, nil); err != nil {
		return fmt.Errorf("%s: %w", log.GetMatch(), err)
	}
	fmt.Fprintf(out, "%s: %d events, every version once and in order\n", log.GetMatch(), len(log.GetEvents()))
	return nil
}

// reportCommitment checks a complete log's revealed seed against its
// commitment (and seen, when not nil) and prints what it found; a seed that
// was not committed to is the error.
func reportCommitment(out io.Writer, log *gamehostv1.MatchLog, seen []byte) error {
	switch err := gamehost.CheckCommitment(log, seen); {
	case errors.Is(err, gamehost.ErrNoCommitment):
		fmt.Fprintf(out, "%s: note: %v\n", log.GetMatch(), err)
	case err != nil:
		return fmt.Errorf("%s: %w", log.GetMatch(), err)
	default:
		fmt.Fprintf(out, "%s: commitment verified: seed %d was fixed when the match was created (%s)\n",
			log.GetMatch(), log.GetSeed(), hex.EncodeToString(log.GetSeedCommitment()))
	}
	return nil
}

// checkPlayed checks, once a match this client played is over, that the
// seed it reveals is the one the match committed to when the client joined.
func checkPlayed(ctx context.Context, host *gamehost.Client, held seatHeld, out io.Writer) error {
	log, err := host.Log(ctx, held.match, held.token)
	if err != nil {
		return err
	}
	return reportCommitment(out, log, held.commitment)
}
