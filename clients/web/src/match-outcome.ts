// How a finished match ends for the one who reads it: "You won", "You lost",
// "Draw", or for a spectator who won; with every seat's score.
import type { Result, Seat } from "@gamehost/client";
import { h } from "./elements";
import { seatName, seatNames } from "./match-text";
import { formatNumber, ordinal, tr } from "./i18n";

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
  if (ending === "draw") return tr("Draw.");
  if (ending === "won") return shared ? tr("You won, together with others!") : tr("You won!");
  const winners = seatNames(result.winners, seats);
  if (ending === "over") return tr("{winners} won.", { winners });
  const place = result.ranking[seat];
  const count = result.ranking.length;
  return count > 2 && place ? tr("You lost: {place} of {count}.", { place: ordinal(place), count })
    : tr("You lost: {winners} won.", { winners });
}

/** The banner over the board once the match is finished. */
export function endingBanner(result: Result, seat: number, seats: Seat[]): HTMLElement {
  const scores = result.scores.map((score, index) =>
    `${seatName(index, seats)}${index === seat ? tr(" (you)") : ""} ${formatNumber(score)}`);
  const headline = endingText(result, seat, seats);
  return h("div", { class: `ending ending-${endingOf(result, seat)}`, id: "ending", role: "status" },
    h("strong", { class: "ending-headline" }, headline),
    result.summary && result.summary !== headline ? h("span", { class: "ending-summary" }, ` ${result.summary}`) : null,
    scores.length ? h("span", { class: "ending-scores" }, tr(" Scores: {scores}.", { scores: scores.join(" · ") })) : null);
}
