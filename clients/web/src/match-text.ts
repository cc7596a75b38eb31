// How matches, seats and events read on screen, the same in the lobby and on the game page.
import { EventKind, MatchStatus, SeatKind, type MatchEvent, type Seat } from "./gen/gamehost/v1/gamehost_pb";

export function matchId(name: string): string {
  return name.replace(/^matches\//, "");
}

export function gameId(name: string): string {
  return name.replace(/^games\//, "");
}

export function statusText(status: MatchStatus): string {
  switch (status) {
    case MatchStatus.OPEN: return "open";
    case MatchStatus.ACTIVE: return "active";
    case MatchStatus.FINISHED: return "finished";
    case MatchStatus.ABANDONED: return "abandoned";
    default: return "unknown";
  }
}

export function isOver(status: MatchStatus): boolean {
  return status === MatchStatus.FINISHED || status === MatchStatus.ABANDONED;
}

export function seatText(seat: Seat): string {
  switch (seat.kind) {
    case SeatKind.OPEN: return `seat ${seat.index}: open`;
    case SeatKind.BOT: return `seat ${seat.index}: bot (${seat.bot || "random"})`;
    default: return `seat ${seat.index}: ${seat.playerName || "player"}`;
  }
}

/** One line of the move log. */
export function eventText(event: MatchEvent, seats: Seat[]): string {
  const who = event.seat >= 0 ? seatName(event.seat, seats) : "";
  switch (event.kind) {
    case EventKind.JOINED: return `${who} joined`;
    case EventKind.LEFT: return `${who} left`;
    case EventKind.STARTED: return "the match started";
    case EventKind.MOVED:
      return `${who}: ${event.label || "moved (hidden)"}${event.timedOut ? " (timed out: the host moved for them)" : ""}`;
    case EventKind.FINISHED: return "the match is over";
    case EventKind.ABANDONED: return `${who} abandoned the match`;
    default: return "event";
  }
}

export function seatName(index: number, seats: Seat[]): string {
  const seat = seats[index];
  if (!seat) return `seat ${index}`;
  if (seat.kind === SeatKind.BOT) return `seat ${index} (bot)`;
  return seat.playerName ? `seat ${index} (${seat.playerName})` : `seat ${index}`;
}
