// How matches, seats and events read on screen, the same in the lobby and on the game page.
import {
  EventKind, MatchStatus, SeatKind, type MatchEvent, type Seat, type StatusDetail,
} from "@gamehost/client";

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
    case MatchStatus.ABORTED: return "aborted";
    case MatchStatus.SUSPENDED: return "suspended";
    default: return "unknown";
  }
}

/** Why a match is aborted or suspended, for people: "an admin aborted it: cheating (ADMIN_ABORT)". */
export function statusDetailText(detail: StatusDetail | undefined): string {
  if (!detail || !(detail.reason || detail.message)) return "";
  const plugin = detail.plugin ? ` (game plugin ${detail.plugin})` : "";
  return `${detail.message || detail.reason}${plugin}${detail.message && detail.reason ? ` [${detail.reason}]` : ""}`;
}

/** A seat in the lists: "Player 2: bot (random)", "Ann (signed in)", "Player 3: open". */
export function seatText(seat: Seat): string {
  const number = `Player ${seat.index + 1}`;
  switch (seat.kind) {
    case SeatKind.OPEN: return `${number}: open`;
    case SeatKind.BOT: return `${number}: bot (${seat.bot || "random"})`;
    default: {
      const name = chosenName(seat);
      return `${name ? `${name} (${number.toLowerCase()})` : number}${seat.verified ? " · signed in" : ""}`;
    }
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
    case EventKind.ABORTED: return `the host aborted the match${event.reason ? ` (${event.reason})` : ""}`;
    case EventKind.SUSPENDED: return `the match is suspended${event.reason ? ` (${event.reason})` : ""}`;
    case EventKind.RESUMED: return "the match resumed";
    case EventKind.BOT_ASSIGNED: return `a bot took over ${seatName(event.seat, seats)}`;
    case EventKind.UNDO_ASKED: return `${who} asked to take back their move`;
    case EventKind.UNDO_ACCEPTED: return `${who} agreed to take the move back`;
    case EventKind.UNDO_REFUSED: return `${who} refused to take the move back`;
    case EventKind.UNDO_WITHDRAWN: return `${who} withdrew their ask to take back`;
    case EventKind.UNDONE: return `${who}'s move was taken back`;
    case EventKind.UNDO_LAPSED: return `${who}'s ask to take back lapsed unanswered`;
    case EventKind.RESIGNED: {
      const resigner = personName(event.seat, seats);
      return event.left ? `${resigner} left the rated match: it counts as resigning` : `${resigner} resigned`;
    }
    case EventKind.DRAW_OFFERED: return `${who} offered a draw`;
    case EventKind.DRAW_ACCEPTED: return `${who} accepted the draw`;
    case EventKind.DRAW_DECLINED: return `${who} declined the draw`;
    case EventKind.DRAW_WITHDRAWN: return `${who} withdrew their draw offer`;
    case EventKind.DRAW_LAPSED: return `${who}'s draw offer lapsed unanswered`;
    case EventKind.DRAW_AGREED: return "the players agreed to a draw";
    case EventKind.VICTORY_CLAIMED: return `${who} claimed victory over absent players`;
    default: return "event";
  }
}

/** Why the host cannot show or play a match: it lacks the rules version the match was created with. */
export function rulesUnavailableText(title: string, rulesVersion: string): string {
  return `created with ${title} rules version ${rulesVersion}, which this host does not have`;
}

/** A seat as people call it: the player's name, else "Player N" counted from 1 (a bot's says so). */
export function seatName(index: number, seats: Seat[]): string {
  const seat = seats[index];
  const number = `Player ${index + 1}`;
  // A resigned seat the host's bot plays on is still the player who resigned.
  if (seat?.resigned) return `${personName(index, seats)} (resigned)`;
  if (seat?.kind === SeatKind.BOT) return `${number} (bot)`;
  return (seat && chosenName(seat)) || number;
}

/** The player's name, else "Player N": for lines that say themselves what became of the seat. */
export function personName(index: number, seats: Seat[]): string {
  const seat = seats[index];
  return (seat && seat.kind !== SeatKind.BOT && chosenName(seat)) || (seat?.resigned && chosenName(seat))
    || `Player ${index + 1}`;
}

/** The name a player gave, not the host's stand-in ("player 0") for a player who gave none. */
function chosenName(seat: Seat): string {
  return /^player \d+$/i.test(seat.playerName) ? "" : seat.playerName;
}
