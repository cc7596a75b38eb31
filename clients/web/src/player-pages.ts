// The leaderboard of a game (#/games/<id>/leaderboard, ListLeaderboard) and a
// player's page (#/players/<subject>, GetPlayerProfile): ratings are public,
// so anyone, signed in or not, reads both. A match history is the player's
// own (ListMatches with `mine`): their page shows it to them alone.
import { MatchStatus, type Match, type PlayerRating } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, tr } from "./i18n";
import { signedInOrNull } from "./identity";
import { gameId, matchId, seatText, statusLabel } from "./match-text";

const LEADERBOARD_PAGE = 50;
const HISTORY_PAGE = 50;

export function playerLink(player: string, name: string): HTMLAnchorElement {
  const subject = player.replace(/^players\//, "");
  return h("a", { href: `#/players/${encodeURIComponent(subject)}`, class: "player-link" }, name || subject);
}

export function leaderboardLink(game: string): HTMLAnchorElement {
  return h("a", { href: `#/games/${encodeURIComponent(gameId(game))}/leaderboard`, class: "leaderboard-link" },
    tr("Leaderboard"));
}

export function showLeaderboard(root: HTMLElement, id: string): () => void {
  const title = h("h2", {}, tr("Leaderboard"));
  const body = h("div", { id: "leaderboard", class: "leaderboard" }, h("p", { class: "muted" }, tr("Loading…")));
  replaceChildren(root, h("p", {}, h("a", { href: "#/" }, tr("lobby"))), title, body);
  void (async () => {
    try {
      const [game, board] = await Promise.all([gamehost.getGame({ name: `games/${id}` }),
        gamehost.listLeaderboard({ game: `games/${id}`, pageSize: LEADERBOARD_PAGE })]);
      title.textContent = tr("Leaderboard: {game}", { game: game.title });
      document.title = `${game.title} · gamehost`;
      body.dataset.state = "loaded";
      replaceChildren(body, board.ratings.length ? ratingsTable(board.ratings, "player")
        : h("p", { class: "muted" }, tr("Nobody has played a rated match of this game yet: a match is rated when every seat is a signed-in player.")));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the leaderboard")));
    }
  })();
  return () => {};
}

export function showPlayer(root: HTMLElement, subject: string): () => void {
  const title = h("h2", {}, tr("Player {name}", { name: subject }));
  const body = h("div", { id: "player-profile", class: "player-profile" }, h("p", { class: "muted" }, tr("Loading…")));
  replaceChildren(root, h("p", {}, h("a", { href: "#/" }, tr("lobby"))), title, body);
  void (async () => {
    try {
      const [profile, games, identity] = await Promise.all([
        gamehost.getPlayerProfile({ name: `players/${subject}` }), gamehost.listGames({ pageSize: 1000 }),
        signedInOrNull()]);
      const titles = new Map(games.games.map((game) => [game.name, game.title]));
      const name = profile.ratings.find((rating) => rating.playerName)?.playerName
        || (identity?.subject === subject ? identity.displayName : "") || subject;
      title.textContent = tr("Player {name}", { name });
      document.title = `${name} · gamehost`;
      const own = identity?.subject === subject;
      const history = own ? await gamehost.listMatches({ mine: true, status: MatchStatus.FINISHED,
        pageSize: HISTORY_PAGE }) : null;
      body.dataset.state = "loaded";
      replaceChildren(body,
        h("p", { class: "player-record" }, tr("Rated matches: {games} · won {wins} · lost {losses} · drawn {draws}",
          { games: profile.games, wins: profile.wins, losses: profile.losses, draws: profile.draws })),
        h("h3", {}, tr("Ratings")),
        profile.ratings.length ? ratingsTable(profile.ratings, "game", titles)
          : h("p", { class: "muted" }, tr("No rated match yet.")),
        h("h3", {}, tr("Match history")),
        history ? historyList(history.matches, titles)
          : h("p", { class: "muted" }, tr("Only the player sees their match history.")));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the player")));
    }
  })();
  return () => {};
}

/** Rows of ratings, named by player (a leaderboard) or by game (a profile). */
function ratingsTable(ratings: PlayerRating[], by: "player" | "game", titles = new Map<string, string>())
  : HTMLElement {
  return h("table", { class: "matches ratings" },
    h("thead", {}, h("tr", {}, [by === "player" ? tr("place") : "", by === "player" ? tr("player") : tr("game"),
      tr("rating"), tr("matches"), tr("won"), tr("lost"), tr("drawn")].filter(Boolean).map((text) => h("th", {}, text)))),
    h("tbody", {}, ratings.map((rating, index) => h("tr", { "data-player": rating.player, "data-game": rating.game },
      by === "player" ? h("td", {}, formatNumber(index + 1)) : null,
      h("td", {}, by === "player" ? playerLink(rating.player, rating.playerName)
        : h("span", {}, titles.get(rating.game) ?? gameId(rating.game), " ", leaderboardLink(rating.game))),
      h("td", { class: "rating" }, formatNumber(rating.rating)),
      h("td", {}, formatNumber(rating.games)), h("td", {}, formatNumber(rating.wins)),
      h("td", {}, formatNumber(rating.losses)), h("td", {}, formatNumber(rating.draws))))));
}

function historyList(matches: Match[], titles: Map<string, string>): HTMLElement {
  if (!matches.length) return h("p", { class: "muted" }, tr("No finished match yet."));
  return h("ul", { class: "match-history" }, matches.map((match) => h("li", { "data-match": matchId(match.name) },
    h("a", { href: `#/matches/${matchId(match.name)}/replay` }, titles.get(match.game) ?? gameId(match.game)), " · ",
    statusLabel(match.status), " · ", match.result?.summary ?? "", " · ",
    match.seats.map((seat) => seatText(seat)).join(", "))));
}
