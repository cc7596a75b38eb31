package main

import (
	"fmt"
	"io"
	"strings"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// printEvent writes one line per match event, e.g. "v7 seat 1: X on b2".
func printEvent(out io.Writer, event *gamehostv1.MatchEvent) {
	kind := strings.ToLower(strings.TrimPrefix(event.GetKind().String(), "EVENT_KIND_"))
	switch {
	case event.GetKind() == gamehostv1.EventKind_EVENT_KIND_MOVED:
		fmt.Fprintf(out, "v%d seat %d: %s\n", event.GetVersion(), event.GetSeat(), event.GetLabel())
	case event.GetSeat() >= 0:
		fmt.Fprintf(out, "v%d %s: seat %d\n", event.GetVersion(), kind, event.GetSeat())
	default:
		fmt.Fprintf(out, "v%d %s\n", event.GetVersion(), kind)
	}
}

// printOutcome writes how the match ended.
func printOutcome(out io.Writer, view *gamehostv1.View) {
	status := strings.ToLower(strings.TrimPrefix(view.GetStatus().String(), "MATCH_STATUS_"))
	result := view.GetResult()
	if result == nil {
		fmt.Fprintf(out, "%s at version %d\n", status, view.GetVersion())
		return
	}
	fmt.Fprintf(out, "%s at version %d: %s\n", status, view.GetVersion(), result.GetSummary())
	fmt.Fprintf(out, "scores %v, ranking %v, winners %v\n", result.GetScores(), result.GetRanking(),
		result.GetWinners())
}
