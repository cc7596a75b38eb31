// Verifiable chance: a match publishes a commitment to its seed when it is
// created (Match.seedCommitment) and reveals the seed and its salt in the log
// once it is over. The byte layout (docs/security.md), the same in every
// client: SHA-256 over "gamehost/seed-commitment/v1", a zero byte, the seed as
// 8 bytes big-endian and the 32-byte salt.
import type { JsonValue } from "@bufbuild/protobuf";
import type { MatchEvent, MatchLog } from "./gen/gamehost/v1/gamehost_pb.js";

const DOMAIN = Uint8Array.from("gamehost/seed-commitment/v1\0", (char) => char.charCodeAt(0)); // ASCII
export const SEED_SALT_BYTES = 32;

/** The host's commitment to `seed` (0 to 2^64 - 1) under `salt`. */
export async function seedCommitment(seed: bigint, salt: Uint8Array): Promise<Uint8Array> {
  if (seed < 0n || seed >= 1n << 64n) throw new RangeError(`a seed is 0 to 2^64 - 1, not ${seed}`);
  const bytes = new Uint8Array(DOMAIN.length + 8 + salt.length);
  bytes.set(DOMAIN);
  new DataView(bytes.buffer).setBigUint64(DOMAIN.length, seed, false);
  bytes.set(salt, DOMAIN.length + 8);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** What checking a finished match's revealed seed found: "verified" (the seed is the one committed to when the
 * match was created), "none-recorded" (a match created before the host made commitments: nothing to check, nothing
 * shows the seed was fixed before play) or "rejected", with the reason in `message`. */
export interface CommitmentCheck {
  outcome: "verified" | "none-recorded" | "rejected";
  message: string;
}

/** Check the seed and salt a complete log reveals against the commitment it carries, and against `seen` when
 * given: the commitment the match showed at its creation, as the caller kept it. */
export async function checkCommitment(log: MatchLog, seen?: Uint8Array): Promise<CommitmentCheck> {
  const published = log.seedCommitment;
  if (seen !== undefined && !sameBytes(seen, published)) {
    return rejected(`the log's seed commitment ${hexOf(published)} is not the one the match showed at its `
      + `creation, ${hexOf(seen)}`);
  }
  if (!log.complete || log.seed === undefined) return rejected("the log reveals no seed: the match is not over");
  if (published.length === 0) {
    return { outcome: "none-recorded", message: "no commitment recorded: the match was created before the host "
      + "committed to seeds, so nothing shows that its seed was fixed before the first move" };
  }
  const salt = log.seedSalt;
  if (salt.length !== SEED_SALT_BYTES || !sameBytes(await seedCommitment(log.seed, salt), published)) {
    return rejected(`the revealed seed ${log.seed} and salt ${hexOf(salt)} do not hash to the commitment `
      + `${hexOf(published)} published when the match was created: the seed is not the one the match was played with`);
  }
  return { outcome: "verified", message: `seed ${log.seed} was fixed when the match was created (${hexOf(published)})` };
}

/** Check that a complete log holds every event once, in order (versions 1 to its last), and each event of `seen`,
 * as the caller received it while following the match, unchanged (kind, seat, and move when it had one): the log
 * published with the seed tells the match that was played. While a match runs the host may show another seat's
 * move reduced (a hidden move): pass only the events whose moves you saw whole, or without their move. The
 * problem found, or undefined. */
export function eventsProblem(log: MatchLog, seen: readonly MatchEvent[] = []): string | undefined {
  const wrong = log.events.findIndex((event, index) => event.version !== BigInt(index + 1));
  if (wrong >= 0) {
    return `the log's event ${wrong + 1} has version ${log.events[wrong]!.version}: events are missing or out of order`;
  }
  for (const followed of seen) {
    const logged = log.events[Number(followed.version) - 1];
    if (logged === undefined) return `the log has no event ${followed.version}, which was played`;
    const sameMove = followed.move === undefined || sameJson(logged.move, followed.move);
    if (logged.kind !== followed.kind || logged.seat !== followed.seat || !sameMove) {
      return `the log's event ${followed.version} is not the one played`;
    }
  }
  return undefined;
}

/** Equal JSON values, whatever the order of their objects' keys. */
function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameJson(a[key], b[key]));
}

function rejected(reason: string): CommitmentCheck {
  return { outcome: "rejected", message: `rejected: ${reason}` };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, index) => byte === b[index]);
}

/** Bytes as hex ("-" for none), as the other clients print them. */
export function hexOf(bytes: Uint8Array): string {
  return bytes.length === 0 ? "-" : Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
