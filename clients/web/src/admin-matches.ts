// The console's matches: suspended ones first, then live ones whose rules have failed (strikes: stuck, not yet
// suspended), then the other live ones; each with why it stopped, the failing plugin, and the admin actions.
import { MatchStatus, SeatKind, type Match } from "@gamehost/client";
import { gamehost } from "./api";
import { admin } from "./admin-api";
import { confirmedButton } from "./admin-confirm";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, tr } from "./i18n";
import { gameId, matchId, seatText, statusDetailText, statusLabel, statusText } from "./match-text";

const PAGE = 100;
const STRIKES_AT_ONCE = 8;  // a few hundred matches are read a few calls at a time, not in one burst on the host

/** `read` for each item, at most `limit` under way at once; the answers in the items' order. */
async function eachBounded<T, R>(items: T[], limit: number, read: (item: T) => Promise<R>): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      answers[index] = await read(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return answers;
}

interface Row { match: Match; strikes: number; maxStrikes: number }

function stuckFirst(a: Row, b: Row): number {
  const rank = (row: Row) => (row.match.status === MatchStatus.SUSPENDED ? 0 : row.strikes > 0 ? 1 : 2);
  return rank(a) - rank(b);
}

export function matchesPanel(): HTMLElement {
  const body = h("div", { class: "admin-body" }, h("p", { class: "muted" }, tr("Loading…")));
  const problems = h("div", { class: "admin-problems" });
  const panel = h("section", { id: "admin-matches", class: "admin-panel" }, h("h3", {}, tr("Matches")), problems, body);
  const load = async () => {
    try {
      const lists = await Promise.all([MatchStatus.SUSPENDED, MatchStatus.ACTIVE, MatchStatus.OPEN]
        .map((status) => gamehost.listMatches({ status, pageSize: PAGE })));
      const rows: Row[] = await eachBounded(lists.flatMap((list) => list.matches), STRIKES_AT_ONCE, async (match) => {
        const strikes = await admin.getMatchStrikes({ name: match.name });
        return { match, strikes: strikes.strikes, maxStrikes: strikes.maxStrikes };
      });
      rows.sort(stuckFirst);
      body.dataset.state = "loaded";
      replaceChildren(body, rows.length ? matchTable(rows, problems, () => void load())
        : h("p", { class: "muted" }, tr("No live or suspended match.")));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the matches")));
    }
  };
  void load();
  return panel;
}

function matchTable(rows: Row[], problems: HTMLElement, reload: () => void): HTMLElement {
  return h("table", { class: "matches admin-matches" },
    h("thead", {}, h("tr", {}, [tr("match"), tr("game"), tr("status"), tr("strikes"), tr("why"), tr("seats"), ""]
      .map((text) => h("th", {}, text)))),
    h("tbody", {}, rows.map((row) => {
      const id = matchId(row.match.name);
      return h("tr", { "data-match": id, "data-status": statusText(row.match.status) },
        h("td", {}, h("a", { href: `#/matches/${id}` }, id)),
        h("td", {}, gameId(row.match.game)),
        h("td", {}, statusLabel(row.match.status)),
        h("td", { class: "admin-strikes" }, tr("{strikes} of {max}",
          { strikes: formatNumber(row.strikes), max: formatNumber(row.maxStrikes) })),
        h("td", { class: "admin-why" }, statusDetailText(row.match.statusDetail)),
        h("td", {}, row.match.seats.map((seat) => seatText(seat)).join(", ")),
        h("td", { class: "admin-actions" }, matchActions(row.match, problems, reload)));
    })));
}

function matchActions(match: Match, problems: HTMLElement, reload: () => void): HTMLElement[] {
  const id = matchId(match.name);
  const actions: HTMLElement[] = [];
  if (match.status === MatchStatus.SUSPENDED) {
    actions.push(confirmedButton(tr("Resume"), tr("Resume match {id}? Its rules are loaded afresh and play goes on.",
      { id }), () => admin.resumeMatch({ name: match.name }), problems, reload, { class: "admin-resume" }));
  }
  actions.push(confirmedButton(tr("Abort"), tr("Abort match {id}? It ends without a result, for every player.",
    { id }), () => admin.abortMatch({ name: match.name, reason: tr("aborted from the admin console") }),
  problems, reload, { class: "admin-abort" }));
  const humanSeats = match.seats.filter((seat) => seat.kind !== SeatKind.BOT);
  if (match.status === MatchStatus.ACTIVE && humanSeats.length) {
    const seat = h("select", { class: "admin-bot-seat", "aria-label": tr("seat") },
      humanSeats.map((each) => h("option", { value: each.index }, seatText(each))));
    actions.push(seat, confirmedButton(tr("Hand to a bot"), tr("Hand the chosen seat of match {id} to a bot? The host plays it from now on.",
      { id }), () => admin.assignBot({ name: match.name, seat: Number(seat.value) }), problems, reload,
    { class: "admin-assign-bot" }));
  }
  return actions;
}
