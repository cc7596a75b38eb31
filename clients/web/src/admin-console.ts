// #/admin: the operators' console, for a caller the host gives the admin role. Anyone else is told so; the
// host refuses them the GameHostAdmin calls anyway (PERMISSION_DENIED), the page only spares them the panels.
import { isAdmin } from "./admin-api";
import { deliveriesPanel } from "./admin-deliveries";
import { matchesPanel } from "./admin-matches";
import { playersPanel } from "./admin-players";
import { pluginsPanel } from "./admin-plugins";
import { poolsPanel } from "./admin-pools";
import { h, replaceChildren } from "./elements";
import { signedInOrNull } from "./identity";
import { tr } from "./i18n";

export function showAdminConsole(root: HTMLElement): () => void {
  const body = h("div", { id: "admin-console", class: "admin-console" }, h("p", { class: "muted" }, tr("Loading…")));
  replaceChildren(root, h("p", {}, h("a", { href: "#/" }, tr("lobby"))), h("h2", {}, tr("Admin console")), body);
  document.title = `${tr("Admin console")} · gamehost`;
  void signedInOrNull().then((identity) => {
    if (!isAdmin(identity)) {
      body.dataset.state = "refused";
      replaceChildren(body, h("p", { class: "admin-refused", role: "alert" }, identity
        ? tr("The admin console is for admins: {subject} does not have the admin role.", { subject: identity.subject })
        : tr("The admin console is for admins: sign in with an account that has the admin role.")));
      return;
    }
    body.dataset.state = "loaded";
    replaceChildren(body, matchesPanel(), poolsPanel(), deliveriesPanel(), pluginsPanel(), playersPanel());
  });
  return () => {};
}

/** The header's link to the console: drawn only for an admin (others get an empty span). */
export function adminLink(): HTMLElement {
  const slot = h("span", { class: "admin-link" });
  void signedInOrNull().then((identity) => {
    if (isAdmin(identity)) replaceChildren(slot, h("a", { href: "#/admin", id: "admin-console-link" }, tr("Admin console")));
  });
  return slot;
}
