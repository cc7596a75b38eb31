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
import { gameId, matchId, rulesUnavailableText, seatText, statusDetailText, statusText } from "./match-text";
import { signedInOrNull } from "./identity";
import { keepInvitation } from "./invitations";
import { Visibility } from "@gamehost/client";
import { YourTurnList } from "./your-turn";
import { MatchQueue } from "./match-queue";

const MATCH_REFRESH_MS = 5000;

export function showLobby(root: HTMLElement): () => void {
  const nameInput = h("input", { id: "player-name", type: "text", placeholder: "anonymous", maxlength: 40,
    value: playerName(), onchange: () => rememberPlayerName(nameInput.value.trim()) });
  const gamesList = h("div", { id: "games", class: "games" }, h("p", { class: "muted" }, "Loading the catalog…"));
  const matchesArea = h("div", { id: "matches" });
  const myMatches = h("section", { id: "my-matches", hidden: true });
  let games: Game[] = [];
  const yourTurn = new YourTurnList((game) => games.find((known) => known.name === game)?.title ?? gameId(game));
  const queue = new MatchQueue();
  const joinProblems = h("div", { class: "problem-area" });
  const statusFilter = h("select", { id: "match-filter", "aria-label": "Show the matches that are",
    onchange: () => void refreshMatches() },
    h("option", { value: String(MatchStatus.UNSPECIFIED) }, "all"),
    h("option", { value: String(MatchStatus.OPEN) }, "open"),
    h("option", { value: String(MatchStatus.ACTIVE) }, "active"),
    h("option", { value: String(MatchStatus.FINISHED) }, "finished"),
    h("option", { value: String(MatchStatus.ABANDONED) }, "abandoned"),
    h("option", { value: String(MatchStatus.ABORTED) }, "aborted"),
    h("option", { value: String(MatchStatus.SUSPENDED) }, "suspended"));
  replaceChildren(root,
    h("section", { class: "lobby-player" }, h("label", { for: "player-name" }, "Your name "), nameInput),
    yourTurn.element,
    queue.element,
    myMatches,
    h("section", {}, h("h2", {}, "Games"), gamesList),
    h("section", {}, h("h2", {}, "Matches ", statusFilter, " ",
      h("button", { type: "button", id: "refresh-matches", onclick: () => void refreshMatches() }, "Refresh")),
    joinProblems, matchesArea));

  const loadGames = async () => {
    try {
      games = (await gamehost.listGames({ pageSize: 1000 })).games;
      replaceChildren(gamesList, games.map((game) => gameCard(game, () => nameInput.value.trim())));
    } catch (error) {
      replaceChildren(gamesList, problemPanel(problemOf(error), "Loading the games"));
    }
  };

  const table = (matches: Match[], mine: boolean) => {
    const titles = new Map(games.map((game) => [game.name, game.title]));
    return h("table", { class: "matches" },
      h("thead", {}, h("tr", {}, ["game", "match", "status", "players", "actions"].map((title) => h("th", {}, title)))),
      h("tbody", {}, matches.map((match) => matchRow(match, titles.get(match.game) ?? gameId(match.game), mine,
        () => nameInput.value.trim(), (problem) => replaceChildren(joinProblems, problemPanel(problem, "Joining"))))));
  };

  const refreshMatches = async () => {
    try {
      const { matches } = await gamehost.listMatches({ pageSize: 50, status: Number(statusFilter.value) });
      replaceChildren(matchesArea, matches.length ? table(matches, false) : h("p", { class: "muted" }, "No matches yet."));
    } catch (error) {
      replaceChildren(matchesArea, problemPanel(problemOf(error), "Listing the matches"));
    }
    if (signedIn) await refreshMyMatches();
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
      replaceChildren(myMatches, h("h2", {}, "My matches"), matches.length ? table(matches, true)
        : h("p", { class: "muted" }, "You hold no seat in any match yet."));
    } catch (error) {
      myMatchesEtag = "";
      replaceChildren(myMatches, h("h2", {}, "My matches"), problemPanel(problemOf(error), "Listing your matches"));
    }
  };
  const identityKnown = signedInOrNull().then((identity) => {
    if (!identity?.subject) return;
    signedIn = true;
    Object.assign(nameInput, { value: identity.displayName || identity.subject, disabled: true,
      title: "The host shows the name of your sign-in." });
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
  const players = game.minPlayers === game.maxPlayers ? `${game.minPlayers} players`
    : `${game.minPlayers}–${game.maxPlayers} players`;
  const traits = [game.hiddenInformation ? "hidden information" : "", game.chance ? "chance" : ""].filter(Boolean);
  return h("details", { class: "game", "data-game": game.id },
    h("summary", {}, h("strong", {}, game.title), ` · ${players}`, traits.length ? ` · ${traits.join(", ")}` : ""),
    h("p", { class: "game-summary" }, game.summary),
    h("p", { class: "muted" }, `${game.plugin}, rules version ${game.rulesVersion}`),
    createForm(game, currentName));
}

function createForm(game: Game, currentName: () => string): HTMLElement {
  const seatCount = h("select", { name: "seats", onchange: () => drawSeatChoices() },
    range(game.minPlayers, game.maxPlayers).map((count) => h("option", { value: String(count) }, String(count))));
  const seatChoices = h("div", { class: "seat-choices" });
  const drawSeatChoices = () => {
    // Seats keep their choice when the count changes; new seats start as bots, seat 0 as a person.
    const chosen = new Map(Array.from(seatChoices.querySelectorAll<HTMLInputElement>("input"),
      (box) => [Number(box.value), box.checked]));
    replaceChildren(seatChoices, range(0, Number(seatCount.value) - 1).map((seat) =>
      h("label", { class: "seat-choice" },
        h("input", { type: "checkbox", name: `bot-seat-${seat}`, value: String(seat), checked: chosen.get(seat) ?? seat > 0 }),
        ` player ${seat + 1} is a bot`)));
  };
  const botSeats = () => Array.from(seatChoices.querySelectorAll<HTMLInputElement>("input:checked"), (box) => Number(box.value));
  const botName = botChoice(game);
  const options = optionsForm(game.optionsSchema, game.defaultOptions);
  const variant = h("select", { name: "variant", onchange: () => {
    const chosen = game.variants.find((candidate) => candidate.id === variant.value);
    options.show({ ...(game.defaultOptions ?? {}), ...(chosen?.options ?? {}) });
  } }, h("option", { value: "" }, "(none: the options below)"),
  game.variants.map((candidate) => h("option", { value: candidate.id, title: candidate.description }, candidate.title)));
  const seed = h("input", { type: "text", name: "seed", inputmode: "numeric", placeholder: "random", size: 20 });
  const turnTimeout = h("input", { type: "number", name: "turn-timeout", min: 0, step: "any", placeholder: "none",
    style: "width: 6rem" });
  const takeSeat = h("input", { type: "checkbox", name: "take-seat", checked: true });
  const problemArea = h("div", { class: "problem-area" });
  const createButton = h("button", { type: "submit", class: "create-match" }, "Create match");
  // A private match, the creator in the first seat and the others open to whoever gets its link.
  let withFriend = false;
  const friendButton = h("button", { type: "submit", class: "play-with-friend",
    title: "A private match: you take the first seat, and a link you send invites your friend",
    onclick: () => { withFriend = true; } }, "Play with a friend");

  // novalidate: the host checks the options and names the field at fault.
  const form = h("form", { class: "create-form", "data-game": game.id, novalidate: true },
    h("div", { class: "form-line" }, h("label", {}, "Players ", seatCount), " ", h("label", {}, "Bots play as ", botName)),
    seatChoices,
    game.variants.length ? h("div", {}, h("label", {}, "Variant ", variant)) : null,
    options.element,
    h("div", {}, h("label", {}, "Seed ", seed), h("small", { class: "muted" }, " optional: the same seed and moves replay the same match")),
    h("div", {}, h("label", {}, "Turn timeout ", turnTimeout, " s"),
      h("small", { class: "muted" }, " optional: when a player's time runs out, the host plays a random move for them")),
    h("div", {}, h("label", {}, takeSeat, " take the first seat that is not a bot")),
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
      problemArea.append(inputProblem("The seed must be a whole number (0 to 2^64-1), or empty."));
      return;
    }
    const timeoutSeconds = turnTimeout.value.trim() ? turnTimeout.valueAsNumber : 0;
    if (!(timeoutSeconds >= 0)) {
      problemArea.append(inputProblem("The turn timeout must be a number of seconds, or empty for none."));
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
      problemArea.append(problemPanel(problem, "Creating the match"));
    } finally {
      createButton.disabled = friendButton.disabled = false;
    }
  });
  return form;
}

function matchRow(match: Match, title: string, mine: boolean, currentName: () => string,
  report: (problem: Problem) => void): HTMLElement {
  if (match.rulesUnavailable) return unavailableRow(match, title);
  const id = matchId(match.name);
  const held = heldSeat(id);
  // In "My matches" you hold a seat already: opening the match gives it back.
  const openSeats = match.status === MatchStatus.OPEN && !held && !mine
    ? match.seats.filter((seat) => seat.kind === SeatKind.OPEN) : [];
  const why = statusDetailText(match.statusDetail);
  return h("tr", { "data-match": id },
    h("td", {}, title),
    h("td", {}, h("a", { href: `#/matches/${id}` }, h("code", {}, id))),
    h("td", {}, h("span", { class: `status status-${statusText(match.status)}`, title: why || null },
      statusText(match.status)), why ? h("div", { class: "status-detail muted" }, why) : null,
      mine && match.userTurnSince ? h("div", { class: "your-turn-badge" }, "your turn") : null),
    h("td", {}, match.seats.map((seat) => h("div", {}, seatText(seat)))),
    h("td", { class: "actions" },
      openSeats.map((seat) => h("button", { type: "button", class: "join-seat", "data-seat": seat.index,
        onclick: async (event: Event) => {
          (event.currentTarget as HTMLButtonElement).disabled = true;
          try {
            await joinSeat(match.name, seat.index, currentName());
            window.location.hash = `#/matches/${id}`;
          } catch (error) {
            report(problemOf(error));
          }
        } }, `Join as player ${seat.index + 1}`)),
      h("a", { class: "button open-match", href: `#/matches/${id}` },
        held ? `Play as player ${held.seat + 1}` : mine && !isOver(match.status) ? "Play" : "Watch")));
}

/** A match whose rules version this host lacks: listed and labelled, with nothing to open or join (the host
 * would refuse it). */
function unavailableRow(match: Match, title: string): HTMLElement {
  const id = matchId(match.name);
  return h("tr", { "data-match": id, "data-rules-unavailable": match.rulesVersion, class: "rules-unavailable-row" },
    h("td", {}, title),
    h("td", {}, h("code", {}, id)),
    h("td", {}, h("span", { class: `status status-${statusText(match.status)}` }, statusText(match.status)),
      h("div", { class: "rules-unavailable-label" }, `Not playable here: ${rulesUnavailableText(title, match.rulesVersion)}`)),
    h("td", {}, match.seats.map((seat) => h("div", {}, seatText(seat)))),
    h("td", { class: "actions muted" }, "cannot be opened on this host"));
}

/** The bots the catalog lists for the game, weakest first, by title and level; the host's random bot when
 * the catalog names none (an older host). */
function botChoice(game: Game): HTMLSelectElement {
  const bots = game.bots.length ? game.bots : [{ name: "random", title: "Random moves", level: 0 }];
  return h("select", { name: "bot", title: "The bot that plays the seats ticked below" },
    bots.map((bot) => h("option", { value: bot.name, "data-level": bot.level },
      bot.level > 0 ? `${bot.title || bot.name} (level ${bot.level})` : bot.title || bot.name)));
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
