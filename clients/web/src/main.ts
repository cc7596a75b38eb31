// Client-side routes: #/ the lobby, #/matches/<id> the game page, #/matches/<id>/replay (or /log) its replay
// and log, #/games/<id>/leaderboard a game's leaderboard, #/players/<subject> a player's page, #/admin the
// operators' console.
// A bearer token in the fragment (#/...?token=...) is taken first, then removed from the address.
import { h, replaceChildren } from "./elements";
import { hostBaseUrl } from "./api";
import { bearerToken, exposeToEmbeddingPage, onSignInChange, takeTokenFromAddress } from "./bearer-token";
import { showLobby } from "./lobby";
import { showMatch } from "./match-page";
import { showReplay } from "./replay-page";
import { showLeaderboard, showPlayer } from "./player-pages";
import { relayPushMessages } from "./push-alerts";
import { showSignInBar } from "./sign-in-bar";
import { releaseSignedInSeats } from "./seat-tokens";
import { themeToggle } from "./theme";
import { applyLanguage, onLanguageChange, tr } from "./i18n";
import { languageSwitch } from "./language-switch";
import { adminLink, showAdminConsole } from "./admin-console";

const app = document.getElementById("app") as HTMLElement;
const signInBar = document.getElementById("sign-in-bar") as HTMLElement;
let leavePage: () => void = () => {};

function route(): void {
  leavePage();
  const path = window.location.hash.replace(/^#/, "").replace(/\?.*$/, "") || "/";
  const match = /^\/matches\/([^/]+)(\/log|\/replay)?$/.exec(path);
  const leaderboard = /^\/games\/([^/]+)\/leaderboard$/.exec(path);
  const player = /^\/players\/([^/]+)$/.exec(path);
  if (path === "/") leavePage = showLobby(app);
  else if (path === "/admin") leavePage = showAdminConsole(app);
  else if (leaderboard) leavePage = showLeaderboard(app, decodeURIComponent(leaderboard[1]));
  else if (player) leavePage = showPlayer(app, decodeURIComponent(player[1]));
  else if (match && match[2]) leavePage = showReplay(app, decodeURIComponent(match[1]));
  else if (match) leavePage = showMatch(app, decodeURIComponent(match[1]));
  else {
    replaceChildren(app, h("p", {}, tr("No page at {path}. ", { path }), h("a", { href: "#/" }, tr("Go to the lobby."))));
    leavePage = () => {};
  }
}

(document.getElementById("host-address") as HTMLElement).textContent = hostBaseUrl();
const header = document.querySelector(".site-header") as HTMLElement;
const headerControls = h("span", { class: "header-controls" });
header.append(headerControls);
// The header's controls, drawn again in another language or for another caller (the console's link is an admin's).
function drawHeaderControls(): void {
  replaceChildren(headerControls, adminLink(), " ", languageSwitch(), " ", themeToggle());
}
applyLanguage();
exposeToEmbeddingPage();
relayPushMessages();
const tokenBefore = bearerToken();
showSignInBar(signInBar, takeTokenFromAddress());
if (bearerToken() !== tokenBefore) releaseSignedInSeats();
drawHeaderControls();  // after the address's token is taken: the console's link depends on who signed in
// Signing in or out changes what every page shows (your seats, your matches): draw them again.
onSignInChange(() => {
  releaseSignedInSeats();
  showSignInBar(signInBar);
  drawHeaderControls();
  route();
});
// Another language: the header and the page are drawn again in it, read anew from the host (the seat and the
// match stay: they live in localStorage and on the host).
onLanguageChange(() => {
  drawHeaderControls();
  showSignInBar(signInBar);
  route();
  (document.getElementById("language") as HTMLSelectElement | null)?.focus();
});
window.addEventListener("hashchange", () => {
  // A frontend may link here again with a new token in the fragment.
  if (/[?&#]token=/.test(window.location.hash)) {
    const before = bearerToken();
    const problem = takeTokenFromAddress();
    if (problem) showSignInBar(signInBar, problem);
    if (bearerToken() !== before) return; // the sign-in listener has drawn the page
  }
  route();
});
route();
