"""Remote agents: a program that plays a gamehost's bot seats from outside
the host, over the ServeAgent stream (an API key with the "agent" role).

    from gamehost.agent import Agent, serve

    class First(Agent):
        def choose(self, view, legal_moves):
            return legal_moves[0]

    serve(First("first", ["tictactoe"]), "127.0.0.1:50051", bearer_token=KEY)

Seats name the agent "agent:first" (CreateMatch's bot, a ticket's bot, the
lobby's list of bots). ``choose`` answers each turn with one of the legal
moves (or its id) before the turn's deadline; a late or illegal answer has
the host's fallback bot play that move and counts a strike.
"""

from gamehost.agent.agent import Agent, AgentStopped, CallbackAgent, Turn, serve

__all__ = ["Agent", "AgentStopped", "CallbackAgent", "Turn", "serve"]
