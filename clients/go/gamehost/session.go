package gamehost

import (
	"context"
	"fmt"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Session is one GameHost.Session stream: a player's moves go in, the events
// of the matches it follows come out, one message each (cheaper for the host
// than a SubmitMove call per move). The host answers each request, in order,
// with a SessionEvent carrying its tag; a refused request gets an error
// answer and the stream goes on. Move, Watch, Unwatch and the undo calls
// wait for their answer and keep the events read meanwhile for Next. Not for several
// goroutines at once.
type Session struct {
	stream grpc.BidiStreamingClient[gamehostv1.SessionRequest, gamehostv1.SessionEvent]
	cancel context.CancelFunc
	tag    uint64
	kept   []*gamehostv1.SessionEvent
}

// OpenSession opens a Session stream; it lasts until Close or ctx ends.
func (c *Client) OpenSession(ctx context.Context) (*Session, error) {
	streamCtx, cancel := context.WithCancel(ctx)
	stream, err := c.GameHostClient.Session(streamCtx)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Session{stream: stream, cancel: cancel}, nil
}

// Send sends one request with the next tag (1, 2, ...) and returns the tag.
func (s *Session) Send(request *gamehostv1.SessionRequest) (uint64, error) {
	s.tag++
	request.Tag = s.tag
	return s.tag, s.stream.Send(request)
}

// Move plays a move and returns its answer; a refusal is an error with the
// host's status and details (Describe prints them), as SubmitMove's would be.
func (s *Session) Move(request *gamehostv1.SubmitMoveRequest) (*gamehostv1.SubmitMoveResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_Move{Move: request}})
	return answer.GetMoved(), err
}

// Watch follows a match; its events follow the answer, the match as it is now.
func (s *Session) Watch(request *gamehostv1.WatchMatchRequest) (*gamehostv1.Match, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_Watch{Watch: request}})
	return answer.GetWatching(), err
}

// Unwatch stops following a match and returns the last version sent for it.
func (s *Session) Unwatch(match string) (int64, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_Unwatch{Unwatch: MatchName(match)}})
	return answer.GetWatchEnded().GetVersion(), err
}

// AskUndo asks to take back the caller's seat's move, the last one played,
// as AskUndo does; a refusal is an error with the host's status and details.
func (s *Session) AskUndo(request *gamehostv1.AskUndoRequest) (*gamehostv1.UndoResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_AskUndo{AskUndo: request}})
	return answer.GetUndo(), err
}

// AnswerUndo accepts or refuses the open ask, as AnswerUndo does.
func (s *Session) AnswerUndo(request *gamehostv1.AnswerUndoRequest) (*gamehostv1.UndoResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_AnswerUndo{AnswerUndo: request}})
	return answer.GetUndo(), err
}

// WithdrawUndo takes the caller's open ask back, as WithdrawUndo does.
func (s *Session) WithdrawUndo(request *gamehostv1.WithdrawUndoRequest) (*gamehostv1.UndoResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_WithdrawUndo{WithdrawUndo: request}})
	return answer.GetUndo(), err
}

func (s *Session) ask(request *gamehostv1.SessionRequest) (*gamehostv1.SessionEvent, error) {
	tag, err := s.Send(request)
	if err != nil {
		return nil, err
	}
	return s.Answer(tag)
}

// Answer reads up to the answer to request tag, keeping the other messages
// for Next; an error answer is returned as the error.
func (s *Session) Answer(tag uint64) (*gamehostv1.SessionEvent, error) {
	for {
		message, err := s.stream.Recv()
		if err != nil {
			return nil, err
		}
		if message.GetTag() != tag {
			s.kept = append(s.kept, message)
			continue
		}
		return message, SessionError(message)
	}
}

// Next returns the next message of the stream: events, answers and error
// answers, in order; io.EOF once the host has ended the stream.
func (s *Session) Next() (*gamehostv1.SessionEvent, error) {
	if len(s.kept) > 0 {
		message := s.kept[0]
		s.kept = s.kept[1:]
		return message, nil
	}
	return s.stream.Recv()
}

// CloseSend sends no more requests: the host ends the stream once the
// matches it follows have ended.
func (s *Session) CloseSend() error { return s.stream.CloseSend() }

// Close drops the stream.
func (s *Session) Close() { s.cancel() }

// SessionError is the error an answer carries (a gRPC status error with the
// host's details), or nil.
func SessionError(message *gamehostv1.SessionEvent) error {
	refusal := message.GetError()
	if refusal == nil {
		return nil
	}
	if refusal.GetCode() == int32(codes.OK) {
		return fmt.Errorf("the host answered request %d with an error without a code", message.GetTag())
	}
	return status.ErrorProto(&spb.Status{Code: refusal.GetCode(), Message: refusal.GetMessage(),
		Details: refusal.GetDetails()})
}
