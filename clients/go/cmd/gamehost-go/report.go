package main

import (
	"fmt"
	"io"
	"strings"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// playerName is how people name an API seat (counted from 0): "Player 1" for
// seat 0, as the plugins, the Python CLI and the web page do (docs/protocol.md).
func playerName(seat int32) string {
	return fmt.Sprintf("Player %d", seat+1)
}

// printEvent writes one line per match event, e.g. "v7 Player 2: X on b2".
func printEvent(out io.Writer, event *gamehostv1.MatchEvent) {
	kind := strings.ToLower(strings.TrimPrefix(event.GetKind().String(), "EVENT_KIND_"))
	switch {
	case event.GetKind() == gamehostv1.EventKind_EVENT_KIND_MOVED:
		fmt.Fprintf(out, "v%d %s: %s\n", event.GetVersion(), playerName(event.GetSeat()), event.GetLabel())
	case event.GetReason() != "":
		// Aborted or suspended: the reason says by whom or what.
		fmt.Fprintf(out, "v%d %s: %s\n", event.GetVersion(), kind, event.GetReason())
	case event.GetSeat() >= 0:
		fmt.Fprintf(out, "v%d %s: %s\n", event.GetVersion(), kind, playerName(event.GetSeat()))
	default:
		fmt.Fprintf(out, "v%d %s\n", event.GetVersion(), kind)
	}
}

// printOutcome writes how the match ended; match, when given, says why a
// match without a result ended (its StatusDetail).
func printOutcome(out io.Writer, view *gamehostv1.View, match *gamehostv1.Match) {
	result := view.GetResult()
	if result == nil {
		fmt.Fprintf(out, "%s at version %d\n", statusLine(view.GetStatus(), match.GetStatusDetail()),
			view.GetVersion())
		return
	}
	fmt.Fprintf(out, "%s at version %d: %s\n", statusName(view.GetStatus()), view.GetVersion(), result.GetSummary())
	fmt.Fprintf(out, "scores %v, ranking %v, winners %v\n", result.GetScores(), result.GetRanking(),
		result.GetWinners())
}

// statusName is a match status as people say it: "active", "aborted".
func statusName(status gamehostv1.MatchStatus) string {
	return strings.ToLower(strings.TrimPrefix(status.String(), "MATCH_STATUS_"))
}

// statusLine is the status with, for an aborted or suspended match, why:
// "suspended (RULES_TIMEOUT: the rules took too long; plugin campanile)".
func statusLine(status gamehostv1.MatchStatus, detail *gamehostv1.StatusDetail) string {
	if detail.GetReason() == "" && detail.GetMessage() == "" {
		return statusName(status)
	}
	var why []string
	for _, part := range []string{detail.GetReason(), detail.GetMessage()} {
		if part != "" {
			why = append(why, part)
		}
	}
	line := strings.Join(why, ": ")
	if detail.GetPlugin() != "" {
		line += "; plugin " + detail.GetPlugin()
	}
	return fmt.Sprintf("%s (%s)", statusName(status), line)
}

// seatLine is one seat as the match lists it: "Player 1: ann (verified)".
func seatLine(seat *gamehostv1.Seat) string {
	switch seat.GetKind() {
	case gamehostv1.SeatKind_SEAT_KIND_OPEN:
		return fmt.Sprintf("%s: open", playerName(seat.GetIndex()))
	case gamehostv1.SeatKind_SEAT_KIND_BOT:
		bot := seat.GetBot()
		if bot == "" {
			bot = "random"
		}
		return fmt.Sprintf("%s: bot (%s)", playerName(seat.GetIndex()), bot)
	}
	line := fmt.Sprintf("%s: %s", playerName(seat.GetIndex()), seat.GetPlayerName())
	if seat.GetVerified() {
		line += " (verified)"
	}
	return line
}
