// The console's players: look a user up by subject, see their matches and ratings, delete their finished
// matches. Moderation (a ban) gets its own buttons in `.admin-player-moderation`, beside the lookup's answer.
import { MatchStatus, type Match } from "@gamehost/client";
import { gamehost } from "./api";
import { admin } from "./admin-api";
import { confirmedButton } from "./admin-confirm";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, tr } from "./i18n";
import { gameId, matchId, seatText, statusLabel, statusText } from "./match-text";

const PAGE = 100;
const OVER = new Set([MatchStatus.FINISHED, MatchStatus.ABANDONED, MatchStatus.ABORTED]);

export function playersPanel(): HTMLElement {
  const subject = h("input", { id: "admin-player-subject", type: "search", required: true, maxlength: 256,
    "aria-label": tr("Subject") });
  const body = h("div", { class: "admin-body" });
  const problems = h("div", { class: "admin-problems" });
  const lookUp = async () => {
    const wanted = subject.value.trim();
    if (!wanted) return;
    body.dataset.state = "loading";
    replaceChildren(body, h("p", { class: "muted" }, tr("Loading…")));
    try {
      const [matches, profile] = await Promise.all([
        gamehost.listMatches({ player: wanted, pageSize: PAGE }),
        gamehost.getPlayerProfile({ name: `players/${wanted}` })]);
      body.dataset.state = "loaded";
      body.dataset.subject = wanted;
      replaceChildren(body,
        h("div", { class: "admin-player-moderation", "data-subject": wanted }),
        h("p", { class: "player-record" }, tr("Rated matches: {games} · won {wins} · lost {losses} · drawn {draws}",
          { games: profile.games, wins: profile.wins, losses: profile.losses, draws: profile.draws })),
        profile.ratings.length ? h("ul", { class: "admin-player-ratings" }, profile.ratings.map((rating) =>
          h("li", { "data-game": gameId(rating.game) }, `${gameId(rating.game)}: ${formatNumber(rating.rating)}`)))
          : h("p", { class: "muted" }, tr("No rated match yet.")),
        matches.matches.length ? playerMatches(matches.matches, problems, () => void lookUp())
          : h("p", { class: "muted" }, tr("No match for {subject}.", { subject: wanted })));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Looking the player up")));
    }
  };
  const form = h("form", { class: "admin-player-lookup" }, subject, " ",
    h("button", { type: "submit", id: "admin-player-look-up" }, tr("Look up")));
  form.addEventListener("submit", (event) => { event.preventDefault(); void lookUp(); });
  return h("section", { id: "admin-players", class: "admin-panel" }, h("h3", {}, tr("Players")), form, problems, body);
}

function playerMatches(matches: Match[], problems: HTMLElement, reload: () => void): HTMLElement {
  return h("ul", { class: "admin-player-matches" }, matches.map((match) => {
    const id = matchId(match.name);
    return h("li", { "data-match": id, "data-status": statusText(match.status) },
      h("a", { href: `#/matches/${id}` }, gameId(match.game)), " · ", statusLabel(match.status), " · ",
      match.seats.map((seat) => seatText(seat)).join(", "), " ",
      OVER.has(match.status) ? confirmedButton(tr("Delete"), tr("Delete match {id} and its log? This cannot be undone.",
        { id }), () => admin.deleteMatch({ name: match.name }), problems, reload, { class: "admin-delete" })
        : null);
  }));
}
