package gamehost

import "strings"

// GameName accepts "tictactoe" or "games/tictactoe" and returns the resource name.
func GameName(game string) string {
	if strings.HasPrefix(game, "games/") {
		return game
	}
	return "games/" + game
}

// MatchName accepts "abc123" or "matches/abc123" and returns the resource name.
func MatchName(match string) string {
	if strings.HasPrefix(match, "matches/") {
		return match
	}
	return "matches/" + match
}

// GameID returns the id of a game resource name: "games/tictactoe" -> "tictactoe".
func GameID(name string) string { return strings.TrimPrefix(name, "games/") }
