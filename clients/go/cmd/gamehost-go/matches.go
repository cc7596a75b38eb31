package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// maxListed bounds what matches prints, whatever --limit asks.
const maxListed = 1000

// runMatches lists matches, newest first: a line per match (status, and why
// for an aborted or suspended one), then a line per seat.
func runMatches(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("matches", "")
	mine := fs.Bool("mine", false, "only the matches where you (the signed-in user) hold a seat")
	player := fs.String("player", "", "only the matches where this user (an identity's subject) holds a seat; admins only")
	myTurn := fs.Bool("my-turn", false, "only the active matches where it is your turn (signed in; with --player: that user's)")
	game := fs.String("game", "", "only matches of this game")
	statusText := fs.String("status", "", "only matches in this status: "+strings.Join(statusNames(), ", "))
	limit := fs.Int("limit", 20, fmt.Sprintf("at most this many matches (1 to %d)", maxListed))
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) > 0 {
		return usagef("matches takes no arguments, got %q", positional)
	}
	if *limit < 1 || *limit > maxListed {
		return usagef("--limit must be 1 to %d, got %d", maxListed, *limit)
	}
	request := &gamehostv1.ListMatchesRequest{Mine: *mine, Player: *player, MyTurn: *myTurn}
	if *game != "" {
		request.Game = gamehost.GameName(*game)
	}
	if *statusText != "" {
		value, known := gamehostv1.MatchStatus_value["MATCH_STATUS_"+strings.ToUpper(*statusText)]
		if !known || value == 0 {
			return usagef("--status: want one of %s, got %q", strings.Join(statusNames(), ", "), *statusText)
		}
		request.Status = gamehostv1.MatchStatus(value)
	}

	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	listed := 0
	for listed < *limit {
		request.PageSize = int32(*limit - listed)
		page, err := unary(ctx, func(ctx context.Context) (*gamehostv1.ListMatchesResponse, error) {
			return host.ListMatches(ctx, request)
		})
		if err != nil {
			return err
		}
		for _, match := range page.GetMatches()[:min(len(page.GetMatches()), *limit-listed)] {
			printMatch(out, match)
			listed++
		}
		if request.PageToken = page.GetNextPageToken(); request.PageToken == "" {
			break
		}
	}
	if listed == 0 {
		fmt.Fprintln(out, "no matches")
	}
	return nil
}

func printMatch(out io.Writer, match *gamehostv1.Match) {
	line := fmt.Sprintf("%s %s %s v%d", match.GetName(), gamehost.GameID(match.GetGame()),
		statusLine(match.GetStatus(), match.GetStatusDetail()), match.GetVersion())
	if match.GetSeedChosen() {
		line += " (seed chosen by an admin)"
	}
	if match.GetUserTurnSince() != nil {
		line += " (your turn)"
	}
	fmt.Fprintln(out, line)
	for _, seat := range match.GetSeats() {
		fmt.Fprintf(out, "  %s\n", seatLine(seat))
	}
}

// statusNames are the statuses --status takes: "open", "active"...
func statusNames() []string {
	var names []string
	for value := int32(1); gamehostv1.MatchStatus_name[value] != ""; value++ {
		names = append(names, statusName(gamehostv1.MatchStatus(value)))
	}
	return names
}
