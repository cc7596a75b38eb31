package gamehost

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// seedCommitmentDomain starts every seed commitment, so that it can be
// taken for no other SHA-256 the host computes (docs/security.md).
const seedCommitmentDomain = "gamehost/seed-commitment/v1\x00"

// SeedSaltSize is the length of the salt hashed with a match's seed.
const SeedSaltSize = 32

// ErrNoCommitment says that a match has no seed commitment: it was created
// before the host committed to seeds. Nothing is wrong with it, but nothing
// shows that its seed was fixed before the first move.
var ErrNoCommitment = errors.New("no commitment recorded: the match was created before the host committed to " +
	"seeds, so nothing shows that its seed was fixed before the first move")

// CommitmentError rejects a log whose revealed seed is not the one the match
// committed to when it was created.
type CommitmentError struct {
	Reason string
}

func (e *CommitmentError) Error() string {
	return "rejected: " + e.Reason
}

// SeedCommitment is the host's commitment to seed under salt: SHA-256 over
// "gamehost/seed-commitment/v1", a zero byte, the seed as 8 bytes big-endian
// and the salt.
func SeedCommitment(seed uint64, salt []byte) []byte {
	digest := sha256.New()
	digest.Write([]byte(seedCommitmentDomain))
	digest.Write(binary.BigEndian.AppendUint64(nil, seed))
	digest.Write(salt)
	return digest.Sum(nil)
}

// CheckCommitment checks the seed and salt a complete log reveals against
// the commitment it carries, and against seen when it is not nil: the
// commitment the match showed when it was created (Match.SeedCommitment),
// as the caller kept it. nil: the seed is the one committed to;
// ErrNoCommitment: the match has none; a *CommitmentError: rejected.
func CheckCommitment(log *gamehostv1.MatchLog, seen []byte) error {
	published := log.GetSeedCommitment()
	if seen != nil && !bytes.Equal(seen, published) {
		return &CommitmentError{Reason: fmt.Sprintf("the log's seed commitment %s is not the one the match "+
			"showed at its creation, %s", hexOrDash(published), hex.EncodeToString(seen))}
	}
	if !log.GetComplete() || log.Seed == nil {
		return &CommitmentError{Reason: "the log reveals no seed: the match is not over"}
	}
	if len(published) == 0 {
		return ErrNoCommitment
	}
	salt := log.GetSeedSalt()
	if len(salt) != SeedSaltSize || !bytes.Equal(SeedCommitment(log.GetSeed(), salt), published) {
		return &CommitmentError{Reason: fmt.Sprintf("the revealed seed %d and salt %s do not hash to the "+
			"commitment %s published when the match was created: the seed is not the one the match was played "+
			"with", log.GetSeed(), hexOrDash(salt), hex.EncodeToString(published))}
	}
	return nil
}

// CheckEvents checks that a complete log holds every event once, in order
// (versions 1 to its last), and that each event in seen, as the caller
// received it while following the match, is in the log unchanged (kind,
// seat, and move when it had one): the log published with the seed tells
// the match that was played. While a match runs the host may show another
// seat's move reduced (a hidden move): pass only the events whose moves
// were seen whole, or without their move.
func CheckEvents(log *gamehostv1.MatchLog, seen []*gamehostv1.MatchEvent) error {
	events := log.GetEvents()
	for i, event := range events {
		if event.GetVersion() != int64(i+1) {
			return &CommitmentError{Reason: fmt.Sprintf("the log's event %d has version %d: events are missing "+
				"or out of order", i+1, event.GetVersion())}
		}
	}
	for _, followed := range seen {
		v := followed.GetVersion()
		if v < 1 || v > int64(len(events)) {
			return &CommitmentError{Reason: fmt.Sprintf("the log has no event %d, which was played", v)}
		}
		logged := events[v-1]
		if logged.GetKind() != followed.GetKind() || logged.GetSeat() != followed.GetSeat() ||
			(followed.GetMove() != nil && !proto.Equal(logged.GetMove(), followed.GetMove())) {
			return &CommitmentError{Reason: fmt.Sprintf("the log's event %d (%s by seat %d) is not the one "+
				"played (%s by seat %d)", v, logged.GetKind(), logged.GetSeat(), followed.GetKind(),
				followed.GetSeat())}
		}
	}
	return nil
}

func hexOrDash(value []byte) string {
	if len(value) == 0 {
		return "-"
	}
	return hex.EncodeToString(value)
}
