"""The gamehost server: plugin manager, match engine, stores and gRPC service."""
