// A private match's invitation code, as this browser holds it: from the link
// that brought it here (#/matches/<id>?invite=<code>, the code in the
// fragment so that no server log or Referer sees it) or from the match it
// created. Kept in localStorage per match: a private match stays readable
// after a reload, since GetMatch carries no player token.
import { matchId } from "./match-text";

const inviteKey = (id: string) => `gamehost.invite.${id}`;

/** The code the browser holds for match `id`, or "". */
export function invitationCode(id: string): string {
  return window.localStorage.getItem(inviteKey(id)) ?? "";
}

export function keepInvitation(matchName: string, code: string): void {
  if (code) window.localStorage.setItem(inviteKey(matchId(matchName)), code);
}

/** Takes `?invite=` from the address of match `id`'s page, keeps it, and removes it from the address (and
 * so from the history); true when the page was opened through an invitation link. */
export function takeInvitationFromAddress(id: string): boolean {
  const [path, query = ""] = window.location.hash.split("?", 2);
  const params = new URLSearchParams(query);
  const code = params.get("invite");
  if (!code) return false;
  window.localStorage.setItem(inviteKey(id), code);
  params.delete("invite");
  const rest = params.toString();
  window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${path}${rest ? `?${rest}` : ""}`);
  return true;
}

/** The link that brings a friend to match `name` with its invitation. */
export function invitationLink(matchName: string, code: string): string {
  return `${window.location.origin}${window.location.pathname}#/matches/${matchId(matchName)}?invite=${encodeURIComponent(code)}`;
}
