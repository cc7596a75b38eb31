package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// usageError is a mistake in the command line, not a failure of the host.
type usageError struct{ message string }

func (e usageError) Error() string { return e.message }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// flagSet is a subcommand's flags, with the --host flag every subcommand has.
type flagSet struct {
	*flag.FlagSet
	synopsis string // what follows the flags in the usage line
	host     *string
}

func newFlagSet(name, synopsis string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// Parse errors come back as usage errors, which main prints; only -h prints the flags.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	target := os.Getenv("GAMEHOST_TARGET")
	if target == "" {
		target = "127.0.0.1:50051"
	}
	host := fs.String("host", target, "host address (env GAMEHOST_TARGET)")
	return &flagSet{FlagSet: fs, synopsis: synopsis, host: host}
}

// parse parses flags wherever they stand among the positional arguments
// (the flag package alone stops at the first positional one) and returns the
// positional ones. Everything after "--" is positional.
func (fs *flagSet) parse(args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			fs.printUsage(os.Stderr)
			return nil, err
		} else if err != nil {
			return nil, usagef("%v (see 'gamehost-go %s -h')", err, fs.Name())
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), nil
		}
		if len(rest) == 0 {
			return positional, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

func (fs *flagSet) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: gamehost-go %s [flags] %s\n\nflags:\n", fs.Name(), fs.synopsis)
	fs.SetOutput(w)
	fs.PrintDefaults()
}
