// The lobby: the game catalog with a "new match" form per game, "Find a
// match" (matchmaking, alone or with friends), the signed-in user's matches
// where it is their turn and all their matches, and the matches on this host
// with their joinable seats.
import { MatchStatus, SeatKind, isOver, type Game, type Match } from "@gamehost/client";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel, type Problem } from "./errors";
import { optionsForm } from "./options-form";
import { newRequestId } from "./request-ids";
import { heldSeat, joinSeat, playerName, rememberPlayerName } from "./seat-tokens";
import { gameId, matchId, rulesUnavailableText, seatText, statusDetailText, statusLabel, statusText } from "./match-text";
import { formatList, formatNumber, plural, tr } from "./i18n";
import { signedInOrNull } from "./identity";
import { keepInvitation } from "./invitations";
import { Visibility } from "@gamehost/client";
import { YourTurnList } from "./your-turn";
import { MatchQueue } from "./match-queue";
import { botButtons, botRatingText } from "./bot-buttons";
import { playerCounts } from "./player-counts";
import { leaderboardLink, playerLink } from "./player-pages";
import { HowToPlay } from "./how-to-play";

const MATCH_REFRESH_MS = 5000;

export function showLobby(root: HTMLElement): () => void {
  const nameInput = h("input", { id: "player-name", type: "text", placeholder: tr("anonymous"), maxlength: 40,
    value: playerName(), onchange: () => rememberPlayerName(nameInput.value.trim()) });
  const gamesList = h("div", { id: "games", class: "games" }, h("p", { class: "muted" }, tr("Loading the catalog…")));
  const matchesArea = h("div", { id: "matches" });
  const myMatches = h("section", { id: "my-matches", hidden: true });
  const openMatches = h("section", { id: "open-matches" });
  const profileLink = h("p", { id: "my-profile", hidden: true });
  let games: Game[] = [];
  const yourTurn = new YourTurnList((game) => games.find((known) => known.name === game)?.title ?? gameId(game));
  const queue = new MatchQueue();
  const joinProblems = h("div", { class: "problem-area" });
  const statusFilter = h("select", { id: "match-filter", "aria-label": tr("Show the matches that are"),
    onchange: () => void refreshMatches() },
    h("option", { value: String(MatchStatus.UNSPECIFIED) }, tr("all")),
    h("option", { value: String(MatchStatus.OPEN) }, statusLabel(MatchStatus.OPEN)),
    h("option", { value: String(MatchStatus.ACTIVE) }, statusLabel(MatchStatus.ACTIVE)),
    h("option", { value: String(MatchStatus.FINISHED) }, statusLabel(MatchStatus.FINISHED)),
    h("option", { value: String(MatchStatus.ABANDONED) }, statusLabel(MatchStatus.ABANDONED)),
    h("option", { value: String(MatchStatus.ABORTED) }, statusLabel(MatchStatus.ABORTED)),
    h("option", { value: String(MatchStatus.SUSPENDED) }, statusLabel(MatchStatus.SUSPENDED)));
  replaceChildren(root,
    h("section", { class: "lobby-player" }, h("label", { for: "player-name" }, tr("Your name ")), nameInput),
    profileLink,
    yourTurn.element,
    queue.element,
    myMatches,
    openMatches,
    h("section", {}, h("h2", {}, tr("Games")), gamesList),
    h("section", {}, h("h2", {}, tr("All matches "), statusFilter, " ",
      h("button", { type: "button", id: "refresh-matches", onclick: () => void refreshMatches() }, tr("Refresh"))),
    joinProblems, matchesArea));

  const loadGames = async () => {
    try {
      games = (await gamehost.listGames({ pageSize: 1000 })).games;
      replaceChildren(gamesList, games.map((game) => gameCard(game, () => nameInput.value.trim())));
    } catch (error) {
      replaceChildren(gamesList, problemPanel(problemOf(error), tr("Loading the games")));
    }
  };

  // The open matches' rows are marked apart (data-open-match, join-open-seat): the same match is also a row of
  // the list of all matches, and each row's controls must be found as that list's.
  const table = (matches: Match[], mine: boolean, open = false) => {
    const titles = new Map(games.map((game) => [game.name, game.title]));
    return h("table", { class: "matches" },
      h("thead", {}, h("tr", {}, [tr("game"), tr("match"), tr("status"), tr("players"), tr("actions")].map((title) => h("th", {}, title)))),
      h("tbody", {}, matches.map((match) => matchRow(match, titles.get(match.game) ?? gameId(match.game), mine, open,
        () => nameInput.value.trim(), (problem) => replaceChildren(joinProblems, problemPanel(problem, tr("Joining")))))));
  };

  const refreshMatches = async () => {
    try {
      const { matches } = await gamehost.listMatches({ pageSize: 50, status: Number(statusFilter.value) });
      replaceChildren(matchesArea, matches.length ? table(matches, false) : h("p", { class: "muted" }, tr("No matches yet.")));
    } catch (error) {
      replaceChildren(matchesArea, problemPanel(problemOf(error), tr("Listing the matches")));
    }
    await refreshOpenMatches();
    if (signedIn) await refreshMyMatches();
    else await refreshHeldMatches();
  };

  // Open matches with a seat anyone may take, other than those this browser sits in already.
  const refreshOpenMatches = async () => {
    try {
      const { matches } = await gamehost.listMatches({ pageSize: 50, status: MatchStatus.OPEN });
      const joinable = matches.filter((match) => !match.rulesUnavailable && !heldSeat(matchId(match.name))
        && match.seats.some((seat) => seat.kind === SeatKind.OPEN && !seat.verified && !seat.reservedFor));
      replaceChildren(openMatches, h("h2", {}, tr("Open matches to join")), joinable.length ? table(joinable, false, true)
        : h("p", { class: "muted" }, tr("No open match waits for players: create one below.")));
    } catch (error) {
      replaceChildren(openMatches, h("h2", {}, tr("Open matches to join")),
        problemPanel(problemOf(error), tr("Listing the matches")));
    }
  };

  // Signed out, "My matches" are those whose seat tokens this browser keeps, among the host's latest.
  const refreshHeldMatches = async () => {
    try {
      const { matches } = await gamehost.listMatches({ pageSize: 100 });
      const held = matches.filter((match) => heldSeat(matchId(match.name)));
      myMatches.hidden = !held.length;
      replaceChildren(myMatches, h("h2", {}, tr("My matches")), table(held, true));
    } catch {
      myMatches.hidden = true; // the listing of all matches below shows the problem
    }
  };

  // Signed in: the name comes from the identity, and "My matches" lists the matches where you hold a seat.
  let signedIn = false;
  let myMatchesEtag = ""; // the host's name for the page shown: unchanged, it is not drawn again
  const refreshMyMatches = async () => {
    myMatches.hidden = false;
    try {
      const { matches, etag, notModified } = await gamehost.listMatches({ pageSize: 50, mine: true,
        ifNoneMatch: myMatchesEtag });
      if (notModified && myMatchesEtag) return;
      myMatchesEtag = etag;
      replaceChildren(myMatches, h("h2", {}, tr("My matches")), matches.length ? table(matches, true)
        : h("p", { class: "muted" }, tr("You hold no seat in any match yet.")));
    } catch (error) {
      myMatchesEtag = "";
      replaceChildren(myMatches, h("h2", {}, tr("My matches")), problemPanel(problemOf(error), tr("Listing your matches")));
    }
  };
  const identityKnown = signedInOrNull().then((identity) => {
    if (!identity?.subject) return;
    signedIn = true;
    profileLink.hidden = false;
    replaceChildren(profileLink, tr("Your ratings and match history: "),
      playerLink(`players/${identity.subject}`, identity.displayName || identity.subject));
    Object.assign(nameInput, { value: identity.displayName || identity.subject, disabled: true,
      title: tr("The host shows the name of your sign-in.") });
  });

  // "Your turn" starts once the catalog is known: it names each match's game by its title.
  void Promise.all([loadGames(), identityKnown]).then(() => {
    if (signedIn) yourTurn.start();
    queue.start(games, signedIn);
    return refreshMatches();
  });
  const timer = window.setInterval(() => { if (!document.hidden) void refreshMatches(); }, MATCH_REFRESH_MS);
  document.title = "gamehost";
  return () => {
    window.clearInterval(timer);
    yourTurn.stop();
    queue.stop();
  };
}

function gameCard(game: Game, currentName: () => string): HTMLElement {
  const counts = playerCounts(game);
  const contiguous = counts[counts.length - 1] - counts[0] === counts.length - 1;
  const players = counts.length === 1 ? plural(counts[0], "{count} player", "{count} players")
    : contiguous ? tr("{min}–{max} players", { min: counts[0], max: counts[counts.length - 1] })
      : tr("{counts} players", { counts: formatList(counts.map((count) => formatNumber(count)), "disjunction") });
  const traits = [game.hiddenInformation ? tr("hidden information") : "", game.chance ? tr("chance") : ""]
    .filter(Boolean);
  return h("details", { class: "game", "data-game": game.id },
    h("summary", {}, h("strong", {}, game.title), ` · ${players}`, traits.length ? ` · ${traits.join(", ")}` : ""),
    h("p", { class: "game-summary" }, game.summary),
    new HowToPlay(game).elements,
    h("p", { class: "muted" }, tr("{plugin}, rules version {version}", { plugin: game.plugin, version: game.rulesVersion }),
      " · ", leaderboardLink(game.name)),
    botButtons(game, currentName),
    createForm(game, currentName));
}

function createForm(game: Game, currentName: () => string): HTMLElement {
  const seatCount = h("select", { name: "seats", onchange: () => drawSeatChoices() },
    playerCounts(game).map((count) => h("option", { value: String(count) }, formatNumber(count))));
  const seatChoices = h("div", { class: "seat-choices" });
  const drawSeatChoices = () => {
    // Seats keep their choice when the count changes; new seats start as bots, seat 0 as a person.
    const chosen = new Map(Array.from(seatChoices.querySelectorAll<HTMLInputElement>("input"),
      (box) => [Number(box.value), box.checked]));
    replaceChildren(seatChoices, range(0, Number(seatCount.value) - 1).map((seat) =>
      h("label", { class: "seat-choice" },
        h("input", { type: "checkbox", name: `bot-seat-${seat}`, value: String(seat), checked: chosen.get(seat) ?? seat > 0 }),
        tr(" player {number} is a bot", { number: seat + 1 }))));
  };
  const botSeats = () => Array.from(seatChoices.querySelectorAll<HTMLInputElement>("input:checked"), (box) => Number(box.value));
  const botName = botChoice(game);
  const options = optionsForm(game.optionsSchema, game.defaultOptions);
  const variant = h("select", { name: "variant", onchange: () => {
    const chosen = game.variants.find((candidate) => candidate.id === variant.value);
    options.show({ ...(game.defaultOptions ?? {}), ...(chosen?.options ?? {}) });
  } }, h("option", { value: "" }, tr("(none: the options below)")),
  game.variants.map((candidate) => h("option", { value: candidate.id, title: candidate.description }, candidate.title)));
  const seed = h("input", { type: "text", name: "seed", inputmode: "numeric", placeholder: tr("random"), size: 20 });
  const turnTimeout = h("input", { type: "number", name: "turn-timeout", min: 0, step: "any", placeholder: tr("none"),
    style: "width: 6rem" });
  const takeSeat = h("input", { type: "checkbox", name: "take-seat", checked: true });
  const problemArea = h("div", { class: "problem-area" });
  const createButton = h("button", { type: "submit", class: "create-match" }, tr("Create match"));
  // A private match, the creator in the first seat and the others open to whoever gets its link.
  let withFriend = false;
  const friendButton = h("button", { type: "submit", class: "play-with-friend",
    title: tr("A private match: you take the first seat, and a link you send invites your friend"),
    onclick: () => { withFriend = true; } }, tr("Play with a friend"));

  // novalidate: the host checks the options and names the field at fault.
  const form = h("form", { class: "create-form", "data-game": game.id, novalidate: true },
    h("div", { class: "form-line" }, h("label", {}, tr("Players "), seatCount), " ", h("label", {}, tr("Bots play as "), botName)),
    seatChoices,
    game.variants.length ? h("div", {}, h("label", {}, tr("Variant "), variant)) : null,
    options.element,
    h("div", {}, h("label", {}, tr("Seed "), seed),
      h("small", { class: "muted" }, tr(" optional: the same seed and moves replay the same match"))),
    h("div", {}, h("label", {}, tr("Turn timeout "), turnTimeout, " s"),
      h("small", { class: "muted" }, tr(" optional: when a player's time runs out, the host plays a random move for them"))),
    h("div", {}, h("label", {}, takeSeat, tr(" take the first seat that is not a bot"))),
    createButton, " ", friendButton, problemArea);
  drawSeatChoices();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const privately = withFriend;
    withFriend = false;
    problemArea.replaceChildren();
    options.markViolations([]);
    const seedText = seed.value.trim();
    if (seedText && (!/^\d{1,20}$/.test(seedText) || BigInt(seedText) >= 2n ** 64n)) {
      problemArea.append(inputProblem(tr("The seed must be a whole number (0 to 2^64-1), or empty.")));
      return;
    }
    const timeoutSeconds = turnTimeout.value.trim() ? turnTimeout.valueAsNumber : 0;
    if (!(timeoutSeconds >= 0)) {
      problemArea.append(inputProblem(tr("The turn timeout must be a number of seconds, or empty for none.")));
      return;
    }
    let chosenOptions;
    try {
      chosenOptions = options.values();
    } catch (error) {
      problemArea.append(inputProblem((error as Error).message));
      return;
    }
    createButton.disabled = friendButton.disabled = true;
    try {
      const seats = Number(seatCount.value);
      // With a friend every seat is a person's: the bot boxes are for matches against the host's bots.
      const bots = privately ? [] : botSeats();
      const match = await gamehost.createMatch({
        game: game.name, seats, options: chosenOptions, variant: variant.value, botSeats: bots,
        bot: botName.value, seed: seedText ? BigInt(seedText) : undefined, requestId: newRequestId(),
        turnTimeout: timeoutSeconds > 0 ? durationOf(timeoutSeconds) : undefined,
        visibility: privately ? Visibility.PRIVATE : undefined,
      });
      keepInvitation(match.name, match.invitationCode);
      const humanSeat = range(0, seats - 1).find((seat) => !bots.includes(seat));
      if ((takeSeat.checked || privately) && humanSeat !== undefined) {
        await joinSeat(match.name, humanSeat, currentName(), match.invitationCode);
      }
      window.location.hash = `#/matches/${matchId(match.name)}`;
    } catch (error) {
      const problem = problemOf(error);
      options.markViolations(problem.fieldViolations);
      problemArea.append(problemPanel(problem, tr("Creating the match")));
    } finally {
      createButton.disabled = friendButton.disabled = false;
    }
  });
  return form;
}

function matchRow(match: Match, title: string, mine: boolean, open: boolean, currentName: () => string,
  report: (problem: Problem) => void): HTMLElement {
  if (match.rulesUnavailable) return unavailableRow(match, title);
  const id = matchId(match.name);
  const held = heldSeat(id);
  // In "My matches" you hold a seat already: opening the match gives it back.
  const openSeats = match.status === MatchStatus.OPEN && !held && !mine
    ? match.seats.filter((seat) => seat.kind === SeatKind.OPEN) : [];
  const why = statusDetailText(match.statusDetail);
  return h("tr", { [open ? "data-open-match" : "data-match"]: id },
    h("td", {}, title),
    h("td", {}, h("a", { href: `#/matches/${id}` }, h("code", {}, id))),
    h("td", {}, h("span", { class: `status status-${statusText(match.status)}`, title: why || null },
      statusLabel(match.status)), why ? h("div", { class: "status-detail muted" }, why) : null,
      mine && match.userTurnSince ? h("div", { class: "your-turn-badge" }, tr("your turn")) : null),
    h("td", {}, match.seats.map((seat) => h("div", {}, seatText(seat)))),
    h("td", { class: "actions" },
      openSeats.map((seat) => h("button", { type: "button", class: open ? "join-open-seat" : "join-seat", "data-seat": seat.index,
        onclick: async (event: Event) => {
          (event.currentTarget as HTMLButtonElement).disabled = true;
          try {
            await joinSeat(match.name, seat.index, currentName());
            window.location.hash = `#/matches/${id}`;
          } catch (error) {
            report(problemOf(error));
          }
        } }, tr("Join as player {number}", { number: seat.index + 1 }))),
      h("a", { class: "button open-match", href: `#/matches/${id}` },
        held ? tr("Play as player {number}", { number: held.seat + 1 })
          : mine && !isOver(match.status) ? tr("Play") : tr("Watch"))));
}

/** A match whose rules version this host lacks: listed and labelled, with nothing to open or join (the host
 * would refuse it). */
function unavailableRow(match: Match, title: string): HTMLElement {
  const id = matchId(match.name);
  return h("tr", { "data-match": id, "data-rules-unavailable": match.rulesVersion, class: "rules-unavailable-row" },
    h("td", {}, title),
    h("td", {}, h("code", {}, id)),
    h("td", {}, h("span", { class: `status status-${statusText(match.status)}` }, statusLabel(match.status)),
      h("div", { class: "rules-unavailable-label" },
        tr("Not playable here: {why}", { why: rulesUnavailableText(title, match.rulesVersion) }))),
    h("td", {}, match.seats.map((seat) => h("div", {}, seatText(seat)))),
    h("td", { class: "actions muted" }, tr("cannot be opened on this host")));
}

/** The bots the catalog lists for the game, weakest first, by title and level, then the remote agents
 * connected for it; the host's random bot when the catalog names none (an older host). */
function botChoice(game: Game): HTMLSelectElement {
  const bots = game.bots.length ? game.bots : [{ name: "random", title: tr("Random moves"), level: 0, agent: false, rating: undefined }];
  return h("select", { name: "bot", title: tr("The bot that plays the seats ticked below") },
    bots.map((bot) => h("option", { value: bot.name, "data-level": bot.level },
      bot.agent ? tr("{bot} (remote agent)", { bot: bot.title || bot.name })
        : bot.level > 0 ? tr("{bot} (level {level})", { bot: bot.title || bot.name, level: bot.level }) + botRatingText(bot)
          : bot.title || bot.name)));
}

function durationOf(seconds: number) {
  const whole = Math.floor(seconds);
  return { seconds: BigInt(whole), nanos: Math.round((seconds - whole) * 1e9) };
}

function inputProblem(message: string): HTMLElement {
  return h("p", { class: "problem input-problem", role: "alert" }, message);
}

function range(first: number, last: number): number[] {
  return Array.from({ length: Math.max(0, last - first + 1) }, (_, index) => first + index);
}
