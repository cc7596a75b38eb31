// Command gamehost-go is a thin gamehost client: it lists a host's games,
// plays any of them by choosing among the legal moves the host offers, and
// replays a fixed list of moves to print the match log. It has no
// game-specific code.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"gamehost.dev/clients/go/gamehost"
)

// command is one subcommand; run writes its results to out.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, out io.Writer) error
}

var commands = []command{
	{"games", "list the host's games", runGames},
	{"matches", "list matches (--mine: yours), with their status and seats", runMatches},
	{"whoami", "print who the host takes you to be (--bearer-token, or anonymous)", runWhoami},
	{"play", "play a match to its end, choosing among the legal moves", runPlay},
	{"script", "play a fixed list of moves on every seat, then print the match log as canonical JSON", runScript},
	{"queue", "queue for a match (signed in; --party-size N: with friends), then print the match and your seat", runQueue},
	{"undo", "take a move back by agreement: ask, accept, refuse or withdraw (--session: over a stream)", runUndo},
	{"resign", "resign your seat: with one opponent left, it wins (--session: over a stream)", runResign},
	{"draw", "draw by agreement: offer, accept, decline or withdraw (--session: over a stream)", runDraw},
	{"claim", "claim victory over opponents absent past the match's grace (--session: over a stream)", runClaim},
	{"verify", "check a finished match's revealed seed against the commitment it published at creation", runVerify},
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status: 0 on success,
// 1 when the host or the match failed, 2 for a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return 0
	}
	for _, cmd := range commands {
		if cmd.name != args[0] {
			continue
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		err := cmd.run(ctx, args[1:], stdout)
		var usageErr usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &usageErr):
			fmt.Fprintf(stderr, "gamehost-go %s: %v\n", cmd.name, err)
			return 2
		default:
			fmt.Fprintf(stderr, "gamehost-go %s: %s\n", cmd.name, gamehost.Describe(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "gamehost-go: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gamehost-go <command> [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintln(w, "\n'gamehost-go <command> -h' describes a command's flags.")
}
