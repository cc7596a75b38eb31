"""The transport: the gRPC servicers, the Session stream, what every call
passes before the engine (identity, quotas, input limits) and the protobuf
messages built from the engine's answers. It translates; the engine decides."""
