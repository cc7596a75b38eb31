package main

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"gamehost.dev/clients/go/gamehost"
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
	switch err := gamehost.CheckCommitment(log, seen); {
	case errors.Is(err, gamehost.ErrNoCommitment):
		fmt.Fprintf(out, "%s: note: %v\n", log.GetMatch(), err)
	case err != nil:
		return fmt.Errorf("%s: %w", log.GetMatch(), err)
	default:
		fmt.Fprintf(out, "%s: commitment verified: seed %d was fixed when the match was created (%s)\n",
			log.GetMatch(), log.GetSeed(), hex.EncodeToString(log.GetSeedCommitment()))
	}
	if err := gamehost.CheckEvents(log, nil); err != nil {
		return fmt.Errorf("%s: %w", log.GetMatch(), err)
	}
	fmt.Fprintf(out, "%s: %d events, every version once and in order\n", log.GetMatch(), len(log.GetEvents()))
	return nil
}
