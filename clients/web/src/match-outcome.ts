// How a finished match ends for the one who reads it: "You won", "You lost",
// "Draw", or for a spectator who won; with every seat's score.
import type { Result, Seat } from "@gamehost/client";
import { h } from "./elements";
import { seatName } from "./match-text";

export type Ending = "won" | "lost" | "draw" | "over";

export function endingOf(result: Result, seat: number): Ending {
  const everyone = result.scores.length || result.ranking.length;
  if (result.winners.length === 0 || (everyone > 1 && result.winners.length === everyone)) return "draw";
  if (seat < 0) return "over";
  return result.winners.includes(seat) ? "won" : "lost";
}

/** The headline: "You won!", "You lost: 2nd of 3.", "Draw.", "Ann won." */
export function endingText(result: Result, seat: number, seats: Seat[]): string {
  const ending = endingOf(result, seat);
  const shared = result.winners.length > 1;
  if (ending === "draw") return "Draw.";
  if (ending === "won") return shared ? "You won, together with others!" : "You won!";
  const winners = result.winners.map((index) => seatName(index, seats)).join(" and ");
  if (ending === "over") return `${winners} won.`;
  const place = result.ranking[seat];
  const count = result.ranking.length;
  return count > 2 && place ? `You lost: ${ordinal(place)} of ${count}.` : `You lost: ${winners} won.`;
}

/** The banner over the board once the match is finished. */
export function endingBanner(result: Result, seat: number, seats: Seat[]): HTMLElement {
  const scores = result.scores.map((score, index) =>
    `${seatName(index, seats)}${index === seat ? " (you)" : ""} ${score}`);
  const headline = endingText(result, seat, seats);
  return h("div", { class: `ending ending-${endingOf(result, seat)}`, id: "ending", role: "status" },
    h("strong", { class: "ending-headline" }, headline),
    result.summary && result.summary !== headline ? h("span", { class: "ending-summary" }, ` ${result.summary}`) : null,
    scores.length ? h("span", { class: "ending-scores" }, ` Scores: ${scores.join(" · ")}.`) : null);
}

function ordinal(place: number): string {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ["th", "st", "nd", "rd"][place % 10] ?? "th";
  return `${place}${suffix}`;
}
