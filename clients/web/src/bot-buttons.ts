// One click to play against a bot: a button per bot level the catalog
// lists for the game (Game.bots, weakest first), each creating a match at
// the game's smallest player count with every other seat a bot of that
// level, taking the first seat and opening the match. Beside each level, its
// rating in the game once it has played rated matches (GameBot.rating): mu
// with its 95% interval, mu ± 2 sigma.
import type { Game, GameBot } from "@gamehost/client";
import { gamehost } from "./api";
import { h } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, tr } from "./i18n";
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
    } }, tr("Play against {bot}", { bot: bot.title || bot.name }), botRating(bot)));
  return h("div", { class: "play-bots" }, buttons, problemArea);
}

/** " · rated 27.4 ± 3.1" for a rated bot level, with its record as the tooltip; "" for one not rated yet. */
export function botRatingText(bot: { rating?: GameBot["rating"] }): string {
  const rating = bot.rating;
  if (!rating || !rating.games) return "";
  return ` · ${tr("rated {mu} ± {interval}", { mu: formatNumber(Math.round(rating.mu * 10) / 10),
    interval: formatNumber(Math.round(rating.sigma * 20) / 10) })}`;
}

function botRating(bot: GameBot): HTMLElement | string {
  const text = botRatingText(bot);
  const rating = bot.rating;
  if (!text || !rating) return "";
  return h("span", { class: "bot-rating", "data-mu": String(rating.mu), "data-sigma": String(rating.sigma),
    title: tr("{games} rated matches: {wins} won, {losses} lost, {draws} drawn; leaderboard rating {rating}", {
      games: formatNumber(rating.games), wins: formatNumber(rating.wins), losses: formatNumber(rating.losses),
      draws: formatNumber(rating.draws), rating: formatNumber(Math.round(rating.rating * 10) / 10) }) }, text);
}
