// Client-side routes: #/ the lobby, #/matches/<id> the game page, #/matches/<id>/log its log.
import { h, replaceChildren } from "./elements";
import { hostBaseUrl } from "./api";
import { showLobby } from "./lobby";
import { showMatch } from "./match-page";
import { showMatchLog } from "./match-log-page";

const app = document.getElementById("app") as HTMLElement;
let leavePage: () => void = () => {};

function route(): void {
  leavePage();
  const path = window.location.hash.replace(/^#/, "") || "/";
  const match = /^\/matches\/([^/]+)(\/log)?$/.exec(path);
  if (path === "/") leavePage = showLobby(app);
  else if (match && match[2]) leavePage = showMatchLog(app, decodeURIComponent(match[1]));
  else if (match) leavePage = showMatch(app, decodeURIComponent(match[1]));
  else {
    replaceChildren(app, h("p", {}, `No page at ${path}. `, h("a", { href: "#/" }, "Go to the lobby.")));
    leavePage = () => {};
  }
}

(document.getElementById("host-address") as HTMLElement).textContent = hostBaseUrl();
window.addEventListener("hashchange", route);
route();
