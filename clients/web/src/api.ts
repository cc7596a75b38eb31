// The one connection to the host: the Connect protocol over fetch.
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { GameHost } from "./gen/gamehost/v1/gamehost_pb";

export type GameHostClient = Client<typeof GameHost>;

/** The host's web address: the page's own origin, unless `?host=` names
 * another (for a dev server; that host must allow this origin by CORS). */
export function hostBaseUrl(): string {
  const override = new URLSearchParams(window.location.search).get("host");
  return override ? override.replace(/\/+$/, "") : window.location.origin;
}

export const gamehost: GameHostClient = createClient(
  GameHost,
  createConnectTransport({ baseUrl: hostBaseUrl(), useBinaryFormat: true }),
);
