// @gamehost/client: the gamehost.v1 stubs, a client factory and the match follower.
// The google.rpc error details are in "@gamehost/client/google/rpc".
export * from "./gen/gamehost/v1/gamehost_pb.js";
export { createGamehostClient, type GamehostClient, type GamehostClientOptions, type TransportSettings } from "./client.js";
export { MatchFollower, type Connection, type FollowerHandlers, type FollowerOptions } from "./match-follower.js";
export { isFinalEvent, isOver } from "./match-status.js";
export { errorReason, isTransient } from "./transient.js";
export { checkCommitment, eventsProblem, hexOf, seedCommitment, SEED_SALT_BYTES, type CommitmentCheck } from "./seed-commitment.js";
