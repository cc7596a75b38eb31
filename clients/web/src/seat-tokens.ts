// The player token of each match this browser joined, kept in localStorage
// so that a reload continues as the same seat. Nothing else stores tokens:
// they never go into URLs or the page's visible text. A signed-in user's
// seat is also bound to their identity: reclaimSeat gets it back, with a
// new token, in a browser that has none.
import { isOver, type Match } from "@gamehost/client";
import { gamehost } from "./api";
import { signedInOrNull } from "./identity";
import { matchId } from "./match-text";

export interface HeldSeat {
  seat: number;
  token: string;
  playerName: string;
  /** The signed-in user the seat is bound to; its token is forgotten when they sign out. */
  subject?: string;
}

const seatKey = (matchId: string) => `gamehost.seat.${matchId}`;
const NAME_KEY = "gamehost.player-name";

export function heldSeat(matchId: string): HeldSeat | null {
  const stored = window.localStorage.getItem(seatKey(matchId));
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as HeldSeat;
    return typeof parsed.token === "string" && typeof parsed.seat === "number" ? parsed : null;
  } catch {
    return null;
  }
}

export function holdSeat(matchId: string, seat: HeldSeat): void {
  window.localStorage.setItem(seatKey(matchId), JSON.stringify(seat));
}

export function releaseSeat(matchId: string): void {
  window.localStorage.removeItem(seatKey(matchId));
}

/** Forgets the tokens of seats taken while signed in: after a sign-out (a shared computer) they must not
 * go on acting for that user. Signed in again, the user gets the seats back (reclaimSeat). */
export function releaseSignedInSeats(): void {
  const keys = Array.from({ length: window.localStorage.length }, (_, index) => window.localStorage.key(index) ?? "");
  for (const key of keys.filter((candidate) => candidate.startsWith(seatKey("")))) {
    const held = heldSeat(key.slice(seatKey("").length));
    if (held?.subject) window.localStorage.removeItem(key);
  }
}

export function playerName(): string {
  return window.localStorage.getItem(NAME_KEY) ?? "";
}

export function rememberPlayerName(name: string): void {
  window.localStorage.setItem(NAME_KEY, name);
}

/** Takes a seat (the lowest open one when `seat` is undefined) and keeps its token; `invitationCode`: a
 * private match's invitation. */
export async function joinSeat(matchName: string, seat: number | undefined, name: string,
  invitationCode = ""): Promise<number> {
  const identity = await signedInOrNull();
  const joined = await gamehost.joinMatch({ name: matchName, seat, playerName: name, invitationCode });
  holdSeat(matchId(matchName), { seat: joined.seat, token: joined.playerToken, playerName: name,
    subject: identity?.subject || undefined });
  return joined.seat;
}

// Enough for anyone's open and active matches of one game, newest first.
const MINE_PAGE_SIZE = 100;
const MINE_PAGES = 10;

/**
 * Gets back the seat the signed-in user holds in `match`, from any device:
 * JoinMatch gives a signed-in caller their own seat again with a fresh token.
 * Asked only when "my matches" list this one (else JoinMatch would take a
 * new seat). Resolves to null when there is nothing to take back.
 */
export async function reclaimSeat(match: Match): Promise<HeldSeat | null> {
  if (isOver(match.status)) return null;
  const identity = await signedInOrNull();
  if (!identity?.subject || !(await holdsSeatIn(match))) return null;
  const joined = await gamehost.joinMatch({ name: match.name, playerName: identity.displayName });
  const held = { seat: joined.seat, token: joined.playerToken, playerName: identity.displayName,
    subject: identity.subject };
  holdSeat(matchId(match.name), held);
  return held;
}

async function holdsSeatIn(match: Match): Promise<boolean> {
  let pageToken = "";
  for (let page = 0; page < MINE_PAGES; page += 1) {
    const listed = await gamehost.listMatches({ mine: true, game: match.game, pageSize: MINE_PAGE_SIZE, pageToken });
    if (listed.matches.some((mine) => mine.name === match.name)) return true;
    if (!(pageToken = listed.nextPageToken)) return false;
  }
  return false;
}
