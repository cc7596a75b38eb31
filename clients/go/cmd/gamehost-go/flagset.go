package main

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"gamehost.dev/clients/go/gamehost"
)

// usageError is a mistake in the command line, not a failure of the host.
type usageError struct{ message string }

func (e usageError) Error() string { return e.message }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// The environment variables behind the connection flags.
const (
	targetEnv      = "GAMEHOST_TARGET"
	bearerTokenEnv = "GAMEHOST_TOKEN"
)

// flagSet is a subcommand's flags, with the connection flags every
// subcommand has: --host, --bearer-token, --tls and --tls-ca.
type flagSet struct {
	*flag.FlagSet
	synopsis    string // what follows the flags in the usage line
	host        *string
	bearerToken *string
	tls         *bool
	tlsCA       *string
}

func newFlagSet(name, synopsis string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// Parse errors come back as usage errors, which main prints; only -h prints the flags.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	target := os.Getenv(targetEnv)
	if target == "" {
		target = "127.0.0.1:50051"
	}
	return &flagSet{
		FlagSet: fs, synopsis: synopsis,
		host: fs.String("host", target, "host address (env "+targetEnv+")"),
		// The default is not printed: it is a secret.
		bearerToken: fs.String("bearer-token", "", "sign in with this bearer token, a JWT from your identity "+
			"provider or an API key (default: env "+bearerTokenEnv+"; none: anonymous)"),
		tls:   fs.Bool("tls", false, "connect over TLS, checking the host's certificate against the system's roots"),
		tlsCA: fs.String("tls-ca", "", "with TLS: check the host's certificate against this PEM file instead"),
	}
}

// dial connects as the connection flags say.
func (fs *flagSet) dial() (*gamehost.Client, error) {
	token := *fs.bearerToken
	if token == "" {
		token = os.Getenv(bearerTokenEnv)
	}
	if token != "" {
		if err := gamehost.CheckBearerToken(token); err != nil {
			return nil, usagef("--bearer-token (or %s): %v", bearerTokenEnv, err)
		}
	}
	options := []gamehost.Option{gamehost.WithBearerToken(token)}
	if *fs.tls || *fs.tlsCA != "" {
		config, err := tlsConfig(*fs.tlsCA)
		if err != nil {
			return nil, err
		}
		options = append(options, gamehost.WithTLS(config))
	}
	return gamehost.Dial(*fs.host, options...)
}

// tlsConfig trusts the system's roots, or only the certificates of caFile.
func tlsConfig(caFile string) (*tls.Config, error) {
	if caFile == "" {
		return &tls.Config{MinVersion: tls.VersionTLS12}, nil
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, usagef("--tls-ca: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, usagef("--tls-ca: %s holds no PEM certificate", caFile)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: roots}, nil
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
