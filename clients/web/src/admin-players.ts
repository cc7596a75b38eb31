// The console's players: look a user up by subject, see their matches and ratings, delete their finished
// matches. Beside the lookup's answer, `.admin-player-moderation`: ban and unban them, export their data (a JSON
// file the browser saves) and delete it; each change asks first.
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
        moderation(wanted, problems),
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

const DELETE_QUESTION = "Delete the data of {subject}? Their name becomes a pseudonym in their matches, chat and ratings, everything else of theirs is deleted. This cannot be undone.";

function moderation(subject: string, problems: HTMLElement): HTMLElement {
  const player = `players/${subject}`;
  const reason = h("input", { class: "admin-ban-reason", type: "text", maxlength: 200,
    "aria-label": tr("Why (shown to the banned user)") });
  const note = h("p", { class: "admin-player-note", role: "status" });
  const said = (text: string) => () => { note.textContent = text; };
  const exportButton = h("button", { type: "button", class: "admin-export-data" }, tr("Export data"));
  exportButton.addEventListener("click", async () => {
    exportButton.disabled = true;
    problems.replaceChildren();
    try {
      const exported = await gamehost.exportUserData({ player });
      saveFile(`gamehost-${subject}.json`, exported.json);
      note.textContent = tr("The data of {subject} is saved as gamehost-{subject}.json.", { subject });
    } catch (error) {
      problems.replaceChildren(problemPanel(problemOf(error), tr("Export data")));
    } finally {
      exportButton.disabled = false;
    }
  });
  const deleted = (answer: { pseudonym: string }) => {
    note.dataset.pseudonym = answer.pseudonym;
    note.textContent = tr("The data of {subject} is deleted: {pseudonym} stands for them from now on.",
      { subject, pseudonym: answer.pseudonym });
  };
  return h("div", { class: "admin-player-moderation", "data-subject": subject }, reason, " ",
    confirmedButton(tr("Ban"), tr("Ban {subject}? Every call of theirs is refused until they are unbanned.",
      { subject }), () => admin.banUser({ player, reason: reason.value.trim() }), problems,
    said(tr("{subject} is banned.", { subject })), { class: "admin-ban" }), " ",
    confirmedButton(tr("Unban"), tr("Lift the ban of {subject}?", { subject }), () => admin.unbanUser({ player }),
      problems, said(tr("{subject} is no longer banned.", { subject })), { class: "admin-unban" }), " ",
    exportButton, " ",
    confirmedButton(tr("Delete data"), tr(DELETE_QUESTION, { subject }),
      async () => deleted(await gamehost.deleteUserData({ player, confirm: true })), problems, () => undefined,
      { class: "admin-delete-data" }),
    note);
}

/** Hands `text` to the browser as a file to save. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
