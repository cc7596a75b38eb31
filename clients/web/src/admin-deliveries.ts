// The console's webhook deliveries, newest first: each with its attempts' last answer, and Retry for the failed.
import { DeliveryState, type Delivery } from "@gamehost/client";
import { admin } from "./admin-api";
import { confirmedButton } from "./admin-confirm";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { formatNumber, tr } from "./i18n";
import { matchId } from "./match-text";

const PAGE = 50;

function stateLabel(state: DeliveryState): string {
  switch (state) {
    case DeliveryState.PENDING: return tr("pending");
    case DeliveryState.DELIVERED: return tr("delivered");
    case DeliveryState.FAILED: return tr("failed");
    default: return tr("unknown");
  }
}

function lastAnswer(delivery: Delivery): string {
  const last = delivery.attempts[delivery.attempts.length - 1];
  if (!last) return "";
  return last.error || (last.httpStatus ? tr("HTTP {status}", { status: last.httpStatus }) : "");
}

export function deliveriesPanel(): HTMLElement {
  const body = h("div", { class: "admin-body" }, h("p", { class: "muted" }, tr("Loading…")));
  const problems = h("div", { class: "admin-problems" });
  const panel = h("section", { id: "admin-deliveries", class: "admin-panel" }, h("h3", {}, tr("Webhook deliveries")),
    problems, body);
  const load = async () => {
    try {
      const { deliveries } = await admin.listDeliveries({ pageSize: PAGE });
      body.dataset.state = "loaded";
      replaceChildren(body, deliveries.length ? h("table", { class: "matches admin-deliveries" },
        h("thead", {}, h("tr", {}, [tr("delivery"), tr("match"), tr("state"), tr("attempts"), tr("last answer"), ""]
          .map((text) => h("th", {}, text)))),
        h("tbody", {}, deliveries.map((delivery) => h("tr", { "data-delivery": delivery.key,
          "data-state": DeliveryState[delivery.state].toLowerCase() },
        h("td", {}, h("code", {}, delivery.key)),
        h("td", {}, h("a", { href: `#/matches/${matchId(delivery.match)}` }, matchId(delivery.match))),
        h("td", { class: "admin-delivery-state" }, stateLabel(delivery.state)),
        h("td", {}, formatNumber(delivery.attempts.length)),
        h("td", {}, lastAnswer(delivery)),
        h("td", {}, delivery.state === DeliveryState.FAILED
          ? confirmedButton(tr("Retry"), tr("Send delivery {key} again, with a new round of attempts?",
            { key: delivery.key }), () => admin.retryDelivery({ key: delivery.key }), problems, () => void load(),
          { class: "admin-retry" })
          : null)))))
        : h("p", { class: "muted" }, tr("No webhook delivery.")));
    } catch (error) {
      body.dataset.state = "failed";
      replaceChildren(body, problemPanel(problemOf(error), tr("Loading the deliveries")));
    }
  };
  void load();
  return panel;
}
