// The header's sign-in area: who is signed in (GetIdentity) and a sign-out,
// or, when anonymous, a small form where a developer pastes a bearer token
// (a frontend that embeds this client passes its users' tokens itself; see
// bearer-token.ts).
import { gamehost } from "./api";
import { bearerToken, setBearerToken, signOut, tokenProblem } from "./bearer-token";
import { h, replaceChildren } from "./elements";
import { problemOf } from "./errors";
import { signedInIdentity } from "./identity";
import { tr } from "./i18n";
import { pushAlertsSwitch } from "./push-alerts";

export function showSignInBar(root: HTMLElement, addressProblem = ""): void {
  root.dataset.state = "checking";
  delete root.dataset.subject;
  if (!bearerToken()) {
    showSignInForm(root, addressProblem ? tr("The token in the address was not used: {problem}", { problem: addressProblem }) : "");
    return;
  }
  replaceChildren(root, h("span", { class: "muted" }, tr("Signing in…")));
  const signOutButton = () => h("button", { type: "button", id: "sign-out", onclick: signOut }, tr("Sign out"));
  signedInIdentity().then((identity) => {
    if (!identity?.subject) {
      // The host took the token for no one: tell the person rather than pretend.
      root.dataset.state = "refused";
      replaceChildren(root, tr("The host signed you in as nobody ({method}). ", { method: identity?.method || tr("anonymous") }),
        signOutButton());
      return;
    }
    Object.assign(root.dataset, { state: "signed-in", subject: identity.subject });
    replaceChildren(root, tr("Signed in as "), h("strong", { id: "signed-in-name" }, identity.displayName || identity.subject),
      identity.displayName ? h("small", { class: "muted" }, ` (${identity.subject})`) : null,
      identity.roles.length ? h("small", { class: "muted" }, ` · ${identity.roles.join(", ")}`) : null, " ",
      pushAlertsSwitch(), " ", signOutButton());
  }, (error) => {
    const problem = problemOf(error);
    Object.assign(root.dataset, { state: "refused", code: problem.code, reason: problem.reason });
    replaceChildren(root, h("span", { class: "sign-in-refused", title: problem.message },
      tr("Sign-in refused ({reason}): {message}", { reason: problem.reason || problem.code, message: problem.message })), " ", signOutButton());
  });
}

function showSignInForm(root: HTMLElement, problem: string): void {
  root.dataset.state = "anonymous";
  const token = h("input", { type: "password", name: "bearer-token", id: "bearer-token", autocomplete: "off",
    placeholder: tr("bearer token (JWT or API key)"), size: 28 });
  const remember = h("input", { type: "checkbox", name: "remember" });
  const message = h("span", { class: "sign-in-problem", role: "alert" }, problem);
  const submit = h("button", { type: "submit" }, tr("Sign in"));
  const form = h("form", { class: "sign-in-form" }, token, " ",
    h("label", { title: tr("keep the token in this browser after the tab closes") }, remember, tr(" stay signed in")), " ",
    submit, " ", message);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const candidate = token.value.trim();
    const refused = tokenProblem(candidate);
    if (refused) {
      message.textContent = refused;
      return;
    }
    submit.disabled = true;
    try {
      // Checked before it is kept: a token the host refuses would fail every call.
      const identity = await gamehost.getIdentity({}, { headers: { authorization: `Bearer ${candidate}` } });
      if (!identity.subject) {
        message.textContent = tr("The host signs nobody in with that token.");
        return;
      }
      setBearerToken(candidate, remember.checked);
    } catch (error) {
      const failure = problemOf(error);
      message.textContent = tr("Refused ({reason}): {message}", { reason: failure.reason || failure.code, message: failure.message });
    } finally {
      submit.disabled = false;
    }
  });
  replaceChildren(root, h("details", { class: "sign-in", open: problem ? true : undefined },
    h("summary", {}, tr("Sign in")), form));
}
