package gamehost

import (
	"context"

	"google.golang.org/protobuf/proto"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// Log reads a match's whole log (GetMatchLog), following page tokens: the
// events of every page in one MatchLog, its other fields as the last page
// has them. token is a seat's player token ("" for the public log).
func (c *Client) Log(ctx context.Context, match, token string) (*gamehostv1.MatchLog, error) {
	var events []*gamehostv1.MatchEvent
	pageToken := ""
	for {
		page, err := c.GetMatchLog(ctx, &gamehostv1.GetMatchLogRequest{
			Name: MatchName(match), PlayerToken: token, PageToken: pageToken,
		})
		if err != nil {
			return nil, err
		}
		events = append(events, page.GetEvents()...)
		if pageToken = page.GetNextPageToken(); pageToken == "" {
			whole := proto.Clone(page).(*gamehostv1.MatchLog)
			whole.Events = events
			return whole, nil
		}
	}
}
