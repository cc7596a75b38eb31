// The signed-in user's bearer token: a JWT from the embedding frontend's
// login (OIDC) or, for developers, one pasted into the sign-in form. api.ts
// sends it as "authorization: Bearer" on every call. It comes in three ways:
//  - in the address fragment, `#/?token=...` or `#/matches/<id>?token=...`
//    (or `#token=...`): taken at load and removed from the address at once,
//    so it stays out of the history, bookmarks and Referer headers (browsers
//    never send fragments to servers);
//  - from a script of the embedding page: `window.gamehost.setToken(token)`,
//    `window.gamehost.signOut()`;
//  - from the sign-in form in the header (sign-in-bar.ts).
// It is kept in sessionStorage (this tab, until it closes), or in
// localStorage when the person asks to stay signed in on this browser.
// When the host refuses it (expired, revoked), the page tells its embedder
// once per token: a "gamehost:sign-in-refused" event on window and, in a
// frame, the same as a message to the parent, which can then pass a fresh
// token (a new fragment, or setToken).
import { ErrorInfoSchema } from "@gamehost/client/google/rpc";
import type { ConnectError } from "@connectrpc/connect";
import { tr } from "./i18n";

export const MAX_TOKEN_LENGTH = 8192; // the host refuses longer ones unread
const TOKEN_KEY = "gamehost.bearer-token";
const listeners = new Set<() => void>();
let reportedToken = "";

export function bearerToken(): string {
  return window.sessionStorage.getItem(TOKEN_KEY) ?? window.localStorage.getItem(TOKEN_KEY) ?? "";
}

/** Why `token` cannot be sent as a bearer token, or "" when it can. */
export function tokenProblem(token: string): string {
  if (!token) return tr("The token is empty.");
  if (token.length > MAX_TOKEN_LENGTH) return tr("The token is longer than {count} characters.", { count: MAX_TOKEN_LENGTH });
  if (/^bearer\s/i.test(token)) return tr("Give the token alone, without “Bearer ”.");
  if (!/^[\x21-\x7e]+$/.test(token)) return tr("The token has spaces or characters that are not printable ASCII.");
  return "";
}

/** Signs in with `token` (the host checks it on each call); `remember` keeps it after this tab closes. */
export function setBearerToken(token: string, remember = false): void {
  const problem = tokenProblem(token);
  if (problem) throw new Error(problem);
  const store = remember ? window.localStorage : window.sessionStorage;
  if (store.getItem(TOKEN_KEY) === token) return;
  forget();
  store.setItem(TOKEN_KEY, token);
  changed();
}

export function signOut(): void {
  if (!bearerToken()) return;
  forget();
  changed();
}

/** Calls `listener` after every sign-in or sign-out; returns the unsubscribe. */
export function onSignInChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Takes a token from the address fragment, if there is one, and removes it
 * from the address before anything else reads it. A token that cannot be
 * sent is dropped and returned as a problem for the page to show.
 */
export function takeTokenFromAddress(): string {
  const hash = window.location.hash.replace(/^#/, "");
  const [route, query] = hash.startsWith("/") ? splitOnce(hash, "?") : ["/", hash];
  const params = new URLSearchParams(query);
  const token = params.get("token");
  if (token === null) return "";
  params.delete("token");
  const rest = params.toString();
  window.history.replaceState(window.history.state, "",
    `${window.location.pathname}${window.location.search}#${route}${rest ? `?${rest}` : ""}`);
  const problem = tokenProblem(token);
  if (!problem) setBearerToken(token);
  return problem;
}

/** The embedding page's handle: `window.gamehost.setToken(jwt)` after its login, `signOut()` after its logout. */
export function exposeToEmbeddingPage(): void {
  (window as unknown as { gamehost: object }).gamehost = Object.freeze({
    setToken: (token: string | null | undefined) => (token ? setBearerToken(String(token)) : signOut()),
    signOut,
  });
}

/** Tells the embedding page, once per token, that the host refused the kept token. The message carries the
 * reason only, never the token: any parent may read it. */
export function tokenRefused(token: string, failure: ConnectError): void {
  if (token === reportedToken || token !== bearerToken()) return;
  reportedToken = token;
  const [info] = failure.findDetails(ErrorInfoSchema);
  const detail = { type: "gamehost:sign-in-refused", reason: info?.reason ?? "", message: failure.rawMessage };
  window.dispatchEvent(new CustomEvent(detail.type, { detail }));
  if (window.parent !== window) window.parent.postMessage(detail, "*");
}

function forget(): void {
  window.sessionStorage.removeItem(TOKEN_KEY);
  window.localStorage.removeItem(TOKEN_KEY);
}

function changed(): void {
  for (const listener of Array.from(listeners)) listener();
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}
