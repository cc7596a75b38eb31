"""The match engine and its domain rules: matches, seats, moves, clocks,
undo, bots' turns, ratings, matchmaking. It knows games only through the
rules runner and storage only through the store interface."""
