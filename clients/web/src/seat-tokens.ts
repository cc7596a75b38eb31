// The player token of each match this browser joined, kept in localStorage
// so that a reload continues as the same seat. Nothing else stores tokens:
// they never go into URLs or the page's visible text.
import { gamehost } from "./api";
import { matchId } from "./match-text";

export interface HeldSeat {
  seat: number;
  token: string;
  playerName: string;
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

export function playerName(): string {
  return window.localStorage.getItem(NAME_KEY) ?? "";
}

export function rememberPlayerName(name: string): void {
  window.localStorage.setItem(NAME_KEY, name);
}

/** Takes a seat (the lowest open one when `seat` is undefined) and keeps its token. */
export async function joinSeat(matchName: string, seat: number | undefined, name: string): Promise<number> {
  const joined = await gamehost.joinMatch({ name: matchName, seat, playerName: name });
  holdSeat(matchId(matchName), { seat: joined.seat, token: joined.playerToken, playerName: name });
  return joined.seat;
}
