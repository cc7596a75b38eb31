// How matches, seats and events read on screen, the same in the lobby and on the game page.
import {
  EventKind, MatchStatus, SeatKind, type MatchEvent, type Reveal, type Seat, type StatusDetail, type TurnSummary,
} from "@gamehost/client";
import { formatList, tr } from "./i18n";

export function matchId(name: string): string {
  return name.replace(/^matches\//, "");
}

export function gameId(name: string): string {
  return name.replace(/^games\//, "");
}

/** A status as the page shows it, in the reader's language (statusText is the stable name in classes and data). */
export function statusLabel(status: MatchStatus): string {
  switch (status) {
    case MatchStatus.OPEN: return tr("open");
    case MatchStatus.ACTIVE: return tr("active");
    case MatchStatus.FINISHED: return tr("finished");
    case MatchStatus.ABANDONED: return tr("abandoned");
    case MatchStatus.ABORTED: return tr("aborted");
    case MatchStatus.SUSPENDED: return tr("suspended");
    default: return tr("unknown");
  }
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
  const plugin = detail.plugin ? tr(" (game plugin {plugin})", { plugin: detail.plugin }) : "";
  return `${detail.message || detail.reason}${plugin}${detail.message && detail.reason ? ` [${detail.reason}]` : ""}`;
}

/** A seat in the lists: "Player 2: bot (random)", "Ann (signed in)", "Player 3: open". */
export function seatText(seat: Seat): string {
  const number = tr("Player {number}", { number: seat.index + 1 });
  switch (seat.kind) {
    case SeatKind.OPEN: return tr("{player}: open", { player: number });
    // The host's own bot is named by its id, "random": said in the reader's language (other bots keep their id).
    case SeatKind.BOT: return tr("{player}: bot ({bot})",
      { player: number, bot: !seat.bot || seat.bot === "random" ? tr("random") : seat.bot });
    default: {
      const name = chosenName(seat);
      const who = name ? tr("{name} (player {number})", { name, number: seat.index + 1 }) : number;
      return seat.verified ? tr("{player} · signed in", { player: who }) : who;
    }
  }
}

/** One line of the move log. */
/** A step of a turn as it reads: the move's label, then what it revealed in brackets ("(The card at C4 shows 17)"). */
export function stepText(label: string, revealed: readonly Reveal[]): string {
  return revealed.length ? `${label} (${revealed.map((reveal) => reveal.label).join("; ")})` : label;
}

/** A whole turn as it reads after its player's name: every step in order, separated by " · ". */
export function turnText(turn: TurnSummary): string {
  return turn.steps.map((step) => stepText(step.label || tr("moved (hidden)"), step.revealed)).join(" · ");
}

export function eventText(event: MatchEvent, seats: Seat[]): string {
  const who = event.seat >= 0 ? seatName(event.seat, seats) : "";
  const reason = event.reason;
  switch (event.kind) {
    case EventKind.JOINED: return tr("{who} joined", { who });
    case EventKind.LEFT: return tr("{who} left", { who });
    case EventKind.STARTED: return tr("the match started");
    case EventKind.MOVED: {
      const line = tr("{who}: {move}", { who, move: stepText(event.label || tr("moved (hidden)"), event.revealed) });
      return event.timedOut ? tr("{line} (timed out: the host moved for them)", { line }) : line;
    }
    case EventKind.FINISHED: return tr("the match is over");
    case EventKind.ABANDONED: return tr("{who} abandoned the match", { who });
    case EventKind.ABORTED:
      return reason ? tr("the host aborted the match ({reason})", { reason }) : tr("the host aborted the match");
    case EventKind.SUSPENDED:
      return reason ? tr("the match is suspended ({reason})", { reason }) : tr("the match is suspended");
    case EventKind.RESUMED: return tr("the match resumed");
    case EventKind.BOT_ASSIGNED: return tr("a bot took over {who}", { who: seatName(event.seat, seats) });
    case EventKind.UNDO_ASKED: return tr("{who} asked to take back their move", { who });
    case EventKind.UNDO_ACCEPTED: return tr("{who} agreed to take the move back", { who });
    case EventKind.UNDO_REFUSED: return tr("{who} refused to take the move back", { who });
    case EventKind.UNDO_WITHDRAWN: return tr("{who} withdrew their ask to take back", { who });
    case EventKind.UNDONE: return tr("{who}'s move was taken back", { who });
    case EventKind.UNDO_LAPSED: return tr("{who}'s ask to take back lapsed unanswered", { who });
    case EventKind.RESIGNED: {
      const resigner = personName(event.seat, seats);
      return event.left ? tr("{who} left the rated match: it counts as resigning", { who: resigner })
        : tr("{who} resigned", { who: resigner });
    }
    case EventKind.DRAW_OFFERED: return tr("{who} offered a draw", { who });
    case EventKind.DRAW_ACCEPTED: return tr("{who} accepted the draw", { who });
    case EventKind.DRAW_DECLINED: return tr("{who} declined the draw", { who });
    case EventKind.DRAW_WITHDRAWN: return tr("{who} withdrew their draw offer", { who });
    case EventKind.DRAW_LAPSED: return tr("{who}'s draw offer lapsed unanswered", { who });
    case EventKind.DRAW_AGREED: return tr("the players agreed to a draw");
    case EventKind.VICTORY_CLAIMED: return tr("{who} claimed victory over absent players", { who });
    default: return tr("event");
  }
}

/** Seat names joined as the reader's language joins a list: "Ann and Player 3". */
export function seatNames(indexes: number[], seats: Seat[]): string {
  return formatList(indexes.map((index) => seatName(index, seats)));
}

/** Why the host cannot show or play a match: it lacks the rules version the match was created with. */
export function rulesUnavailableText(title: string, rulesVersion: string): string {
  return tr("created with {title} rules version {version}, which this host does not have",
    { title, version: rulesVersion });
}

/** A seat as people call it: the player's name, else "Player N" counted from 1 (a bot's says so). */
export function seatName(index: number, seats: Seat[]): string {
  const seat = seats[index];
  const number = tr("Player {number}", { number: index + 1 });
  // A resigned seat the host's bot plays on is still the player who resigned.
  if (seat?.resigned) return tr("{who} (resigned)", { who: personName(index, seats) });
  if (seat?.kind === SeatKind.BOT) return tr("{player} (bot)", { player: number });
  return (seat && chosenName(seat)) || number;
}

/** The player's name, else "Player N": for lines that say themselves what became of the seat. */
export function personName(index: number, seats: Seat[]): string {
  const seat = seats[index];
  return (seat && seat.kind !== SeatKind.BOT && chosenName(seat)) || (seat?.resigned && chosenName(seat))
    || tr("Player {number}", { number: index + 1 });
}

/** The name a player gave, not the host's stand-in ("player 0") for a player who gave none. */
function chosenName(seat: Seat): string {
  return /^player \d+$/i.test(seat.playerName) ? "" : seat.playerName;
}
