package gamehost

import gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"

// IsFinal reports whether an event of this kind ends the match.
func IsFinal(kind gamehostv1.EventKind) bool {
	switch kind {
	case gamehostv1.EventKind_EVENT_KIND_FINISHED, gamehostv1.EventKind_EVENT_KIND_ABANDONED,
		gamehostv1.EventKind_EVENT_KIND_ABORTED:
		return true
	}
	return false
}

// IsOver reports whether a match in this status will see no more moves. A
// suspended match is not over: an admin may resume it.
func IsOver(status gamehostv1.MatchStatus) bool {
	switch status {
	case gamehostv1.MatchStatus_MATCH_STATUS_FINISHED, gamehostv1.MatchStatus_MATCH_STATUS_ABANDONED,
		gamehostv1.MatchStatus_MATCH_STATUS_ABORTED:
		return true
	}
	return false
}
