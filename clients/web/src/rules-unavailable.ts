// A match created under a rules version this host no longer has (the plugin
// was upgraded and dropped it): the host still lists it, with
// Match.rules_unavailable, but refuses everything else about it with
// FAILED_PRECONDITION, reason RULES_VERSION_UNAVAILABLE. The game page shows
// why, in place of a board it cannot draw (docs/plugin-guide.md, "Upgrading a game").
import { h } from "./elements";
import type { Problem } from "./errors";
import { tr } from "./i18n";

export const RULES_VERSION_UNAVAILABLE = "RULES_VERSION_UNAVAILABLE";

/** The notice drawn in place of the board, from the refusal's details (ErrorInfo metadata). */
export function rulesUnavailableNotice(problem: Problem, title: string): HTMLElement {
  const { rules_version: version = "?", served_versions: served = "", plugin = "" } = problem.metadata;
  const servedCount = served.split(",").filter((entry) => entry.trim()).length;
  return h("section", { id: "rules-unavailable", class: "rules-unavailable", role: "status",
    "data-rules-version": version, "data-served-versions": served },
  h("h3", {}, tr("This match cannot be shown here")),
  h("p", {}, tr("It was created with {title} rules version ", { title }), h("strong", {}, version),
    servedCount === 1 ? tr("; this host has {title} rules version ", { title })
      : tr("; this host has {title} rules versions ", { title }),
    h("strong", {}, served || tr("(none)")), tr(" only.")),
  h("p", { class: "muted" }, plugin
    ? tr("Nothing is lost: the match is kept as it was. It can be watched and played again once the host's operator installs a release of the “{plugin}” plugin that still ships rules version {version}.", { plugin, version })
    : tr("Nothing is lost: the match is kept as it was. It can be watched and played again once the host's operator installs a release of the plugin that still ships rules version {version}.", { version })));
}
