package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gamehost.dev/clients/go/canonjson"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// runGames lists the catalog: one paragraph per game.
func runGames(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("games", "")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) > 0 {
		return usagef("games takes no arguments, got %q", positional)
	}
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	games, err := unary(ctx, host.Games)
	if err != nil {
		return err
	}
	for _, game := range games {
		if err := printGame(out, game); err != nil {
			return err
		}
	}
	return nil
}

func printGame(out io.Writer, game *gamehostv1.Game) error {
	traits := []string{fmt.Sprintf("%d-%d players", game.GetMinPlayers(), game.GetMaxPlayers())}
	if game.GetHiddenInformation() {
		traits = append(traits, "hidden information")
	}
	if game.GetChance() {
		traits = append(traits, "chance")
	}
	fmt.Fprintf(out, "%-16s %s (%s)\n", game.GetId(), game.GetTitle(), strings.Join(traits, ", "))
	fmt.Fprintf(out, "%-16s %s\n", "", game.GetSummary())
	if len(game.GetDefaultOptions().GetFields()) > 0 {
		options, err := canonjson.Marshal(game.GetDefaultOptions())
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-16s options: %s\n", "", options)
	}
	for _, variant := range game.GetVariants() {
		fmt.Fprintf(out, "%-16s variant %s: %s\n", "", variant.GetId(), variant.GetTitle())
	}
	return nil
}
