// One click to play against a bot: a button per bot level the catalog
// lists for the game (Game.bots, weakest first), each creating a match at
// the game's smallest player count with every other seat a bot of that
// level, taking the first seat and opening the match.
import type { Game } from "@gamehost/client";
import { gamehost } from "./api";
import { h } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { tr } from "./i18n";
import { matchId } from "./match-text";
import { newRequestId } from "./request-ids";
import { joinSeat } from "./seat-tokens";
import { playerCounts } from "./player-counts";

export function botButtons(game: Game, currentName: () => string): HTMLElement {
  const problemArea = h("div", { class: "problem-area" });
  const seats = playerCounts(game)[0];
  const buttons = game.bots.map((bot) => h("button", { type: "button", class: "play-bot", "data-bot": bot.name,
    onclick: async (event: Event) => {
      const button = event.currentTarget as HTMLButtonElement;
      button.disabled = true;
      problemArea.replaceChildren();
      try {
        const match = await gamehost.createMatch({ game: game.name, seats, bot: bot.name,
          botSeats: Array.from({ length: seats - 1 }, (_, index) => index + 1), requestId: newRequestId() });
        await joinSeat(match.name, 0, currentName());
        window.location.hash = `#/matches/${matchId(match.name)}`;
      } catch (error) {
        problemArea.append(problemPanel(problemOf(error), tr("Creating the match")));
      } finally {
        button.disabled = false;
      }
    } }, tr("Play against {bot}", { bot: bot.title || bot.name })));
  return h("div", { class: "play-bots" }, buttons, problemArea);
}
