// Command random-agent is a remote agent that plays uniformly random legal
// moves at a gamehost: the example to start from (package agent).
//
//	random-agent -host 127.0.0.1:50051 -bearer-token "$AGENT_KEY" -name dice -game tictactoe -game campanile
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"gamehost.dev/clients/go/agent"
	"gamehost.dev/clients/go/gamehost"
	gamehostv1 "gamehost.dev/clients/go/gen/gamehost/v1"
)

type gameList []string

func (g *gameList) String() string     { return strings.Join(*g, ",") }
func (g *gameList) Set(v string) error { *g = append(*g, v); return nil }

func main() {
	host := flag.String("host", envOr("GAMEHOST_TARGET", "127.0.0.1:50051"), "the host's gRPC address")
	token := flag.String("bearer-token", os.Getenv("GAMEHOST_TOKEN"), "an API key with the agent role (env GAMEHOST_TOKEN)")
	name := flag.String("name", "", "the agent's name: seats call it agent:NAME")
	seed := flag.Uint64("seed", 0, "the random choices' seed (0: a fresh one)")
	var games gameList
	flag.Var(&games, "game", "a game it plays (repeat for more)")
	flag.Parse()
	if *name == "" || len(games) == 0 {
		fmt.Fprintln(os.Stderr, "random-agent: -name and at least one -game are needed")
		os.Exit(2)
	}
	client, err := gamehost.Dial(*host, gamehost.WithBearerToken(*token))
	if err != nil {
		log.Fatal(err)
	}
	source := rand.New(rand.NewPCG(*seed, *seed^0x9e3779b97f4a7c15))
	if *seed == 0 {
		source = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	played := 0
	a := &agent.Agent{
		Name: *name, Games: games,
		Choose: agent.Moves(func(_ *gamehostv1.View, legal []*gamehostv1.LegalMove) string {
			played++
			return legal[source.IntN(len(legal))].GetId()
		}),
		Registered: func(r *gamehostv1.AgentRegistered) {
			log.Printf("registered as %s for %s", r.GetBot(), strings.Join(r.GetGames(), ", "))
		},
		Verdict: func(v *gamehostv1.AgentVerdict) {
			if v.GetOutcome() != gamehostv1.AgentVerdict_OUTCOME_PLAYED {
				log.Printf("turn %s: %s, %d strikes", v.GetTurnId(), v.GetOutcome(), v.GetStrikes())
			}
		},
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := a.Serve(ctx, client); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
	log.Printf("stopped after %d moves", played)
}

func envOr(key, fallback string) string {
	if value := os.Getenv(key); value != "" {
		return value
	}
	return fallback
}
