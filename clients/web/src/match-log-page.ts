// The match log as the host gives it (GetMatchLog), in the proto3 JSON
// mapping, with the seat's own hidden moves when this browser holds a seat.
import { toJsonString } from "@bufbuild/protobuf";
import { MatchLogSchema } from "./gen/gamehost/v1/gamehost_pb";
import { gamehost } from "./api";
import { h, replaceChildren } from "./elements";
import { problemOf, problemPanel } from "./errors";
import { heldSeat } from "./seat-tokens";

export function showMatchLog(root: HTMLElement, id: string): () => void {
  const output = h("pre", { id: "match-log" }, "Loading…");
  replaceChildren(root, h("div", { class: "match-log-page", "data-match": id },
    h("h2", {}, "Match log ", h("code", {}, id)),
    h("p", {}, h("a", { href: `#/matches/${id}` }, "back to the match"), " · ", h("a", { href: "#/" }, "lobby")),
    output));
  void (async () => {
    try {
      const log = await gamehost.getMatchLog({ name: `matches/${id}`, playerToken: heldSeat(id)?.token ?? "" });
      output.textContent = toJsonString(MatchLogSchema, log, { prettySpaces: 2 });
      output.dataset.complete = String(log.complete);
    } catch (error) {
      output.replaceWith(problemPanel(problemOf(error), "Loading the match log"));
    }
  })();
  return () => {};
}
