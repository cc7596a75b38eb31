package gamehost

import gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"

// The endings on a Session stream: each answers as its unary call does
// (Resign, ClaimVictory: the match after it; OfferDraw, AnswerDraw,
// WithdrawDraw: the offer after it); a refusal is an error with the host's
// status and details.

// Resign resigns the caller's seat, as Resign does.
func (s *Session) Resign(request *gamehostv1.ResignRequest) (*gamehostv1.Match, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_Resign{Resign: request}})
	return answer.GetEnded(), err
}

// ClaimVictory ends the match over opponents absent past its grace, as ClaimVictory does.
func (s *Session) ClaimVictory(request *gamehostv1.ClaimVictoryRequest) (*gamehostv1.Match, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_ClaimVictory{ClaimVictory: request}})
	return answer.GetEnded(), err
}

// OfferDraw offers a draw, as OfferDraw does.
func (s *Session) OfferDraw(request *gamehostv1.OfferDrawRequest) (*gamehostv1.DrawResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{Request: &gamehostv1.SessionRequest_OfferDraw{OfferDraw: request}})
	return answer.GetDraw(), err
}

// AnswerDraw accepts or declines the open offer, as AnswerDraw does.
func (s *Session) AnswerDraw(request *gamehostv1.AnswerDrawRequest) (*gamehostv1.DrawResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_AnswerDraw{AnswerDraw: request}})
	return answer.GetDraw(), err
}

// WithdrawDraw takes the caller's open offer back, as WithdrawDraw does.
func (s *Session) WithdrawDraw(request *gamehostv1.WithdrawDrawRequest) (*gamehostv1.DrawResponse, error) {
	answer, err := s.ask(&gamehostv1.SessionRequest{
		Request: &gamehostv1.SessionRequest_WithdrawDraw{WithdrawDraw: request}})
	return answer.GetDraw(), err
}
