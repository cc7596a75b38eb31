// The console's matchmaking pools: each pool with queued tickets, how many, and how long the oldest has waited.
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { admin } from "./admin-api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, formatTime, tr } from "./i18n";
import { gameId } from "./match-text";

export function poolsPanel(): HTMLElement {
  const body = h("div", { class: "admin-body" }, h("p", { class: "muted" }, tr("Loading…")));
  const panel = h("section", { id: "admin-pools", class: "admin-panel" }, h("h3", {}, tr("Matchmaking pools")), body);
  void (async () => {
    try {
      const { pools } = await admin.listPools({});
      body.dataset.state = "loaded";
      replaceChildren(body, pools.length ? h("table", { class: "matches admin-pools" },
        h("thead", {}, h("tr", {}, [tr("game"), tr("players"), tr("queued tickets"), tr("oldest queued at")]
          .map((text) => h("th", {}, text)))),
        h("tbody", {}, pools.map((pool) => h("tr", { "data-pool": pool.pool, "data-queued": pool.queuedTickets },
          h("td", {}, gameId(pool.game)), h("td", {}, formatNumber(pool.seats)),
          h("td", { class: "admin-pool-queued" }, formatNumber(pool.queuedTickets)),
          h("td", {}, pool.oldestQueueTime ? formatTime(timestampDate(pool.oldestQueueTime)) : "")))))
        : h("p", { class: "muted" }, tr("No ticket is queued.")));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the pools")));
    }
  })();
  return panel;
}
