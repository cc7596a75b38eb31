// The console's plugins: what the host loaded, the games each serves, and why any plugin or game was skipped.
import { admin } from "./admin-api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatList, tr } from "./i18n";

export function pluginsPanel(): HTMLElement {
  const body = h("div", { class: "admin-body" }, h("p", { class: "muted" }, tr("Loading…")));
  const panel = h("section", { id: "admin-plugins", class: "admin-panel" }, h("h3", {}, tr("Plugins")), body);
  void (async () => {
    try {
      const { plugins } = await admin.listPlugins({});
      body.dataset.state = "loaded";
      replaceChildren(body, h("table", { class: "matches admin-plugins" },
        h("thead", {}, h("tr", {}, [tr("plugin"), tr("distribution"), tr("games"), tr("errors")]
          .map((text) => h("th", {}, text)))),
        h("tbody", {}, plugins.map((plugin) => h("tr", { "data-plugin": plugin.name,
          "data-state": plugin.errors.length ? "errors" : "ok" },
        h("td", {}, plugin.name),
        h("td", {}, `${plugin.distribution} ${plugin.version}`.trim()),
        h("td", {}, formatList(plugin.games)),
        h("td", { class: "admin-plugin-errors" }, plugin.errors.length
          ? h("ul", {}, plugin.errors.map((error) => h("li", {}, error))) : tr("none")))))));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the plugins")));
    }
  })();
  return panel;
}
