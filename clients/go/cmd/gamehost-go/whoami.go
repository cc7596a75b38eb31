package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

// runWhoami prints who the host takes this client to be (GetIdentity): the
// identity of --bearer-token, or anonymous.
func runWhoami(ctx context.Context, args []string, out io.Writer) error {
	fs := newFlagSet("whoami", "")
	positional, err := fs.parse(args)
	if err != nil {
		return err
	}
	if len(positional) > 0 {
		return usagef("whoami takes no arguments, got %q", positional)
	}
	host, err := fs.dial()
	if err != nil {
		return err
	}
	defer host.Close()
	identity, err := unary(ctx, func(ctx context.Context) (*gamehostv1.Identity, error) {
		return host.GetIdentity(ctx, &gamehostv1.GetIdentityRequest{})
	})
	if err != nil {
		return err
	}
	if identity.GetSubject() == "" {
		fmt.Fprintln(out, "anonymous")
		return nil
	}
	fmt.Fprintf(out, "subject: %s\nname: %s\nroles: %s\nmethod: %s\n", identity.GetSubject(),
		identity.GetDisplayName(), strings.Join(identity.GetRoles(), ", "), identity.GetMethod())
	return nil
}
