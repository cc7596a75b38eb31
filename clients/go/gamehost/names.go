package gamehost

import "strings"

// GameName accepts "tictactoe" or "games/tictactoe" and returns the resource name.
func GameName(game string) string { return withPrefix("games/", game) }

// MatchName accepts "abc123" or "matches/abc123" and returns the resource name.
func MatchName(match string) string { return withPrefix("matches/", match) }

// TicketName accepts "abc123" or "tickets/abc123" and returns the resource name.
func TicketName(ticket string) string { return withPrefix("tickets/", ticket) }

// PartyName accepts "abc123" or "parties/abc123" and returns the party's name.
func PartyName(party string) string { return withPrefix("parties/", party) }

// GameID returns the id of a game resource name: "games/tictactoe" -> "tictactoe".
func GameID(name string) string { return strings.TrimPrefix(name, "games/") }

func withPrefix(prefix, name string) string {
	if strings.HasPrefix(name, prefix) {
		return name
	}
	return prefix + name
}
