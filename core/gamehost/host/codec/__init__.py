"""Encodings shared by the transport and the rules workers: protobuf fields
written by hand where that is cheaper than building messages, a game state
as a Struct, legal moves encoded once."""
