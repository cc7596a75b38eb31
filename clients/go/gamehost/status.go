package gamehost

import gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"

// IsFinal reports whether an event of this kind ends the match.
func IsFinal(kind gamehostv1.EventKind) bool {
	return kind == gamehostv1.EventKind_EVENT_KIND_FINISHED || kind == gamehostv1.EventKind_EVENT_KIND_ABANDONED
}

// IsOver reports whether a match in this status will see no more moves.
func IsOver(status gamehostv1.MatchStatus) bool {
	return status == gamehostv1.MatchStatus_MATCH_STATUS_FINISHED ||
		status == gamehostv1.MatchStatus_MATCH_STATUS_ABANDONED
}
