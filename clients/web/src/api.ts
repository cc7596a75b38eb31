// The one connection to the host: the Connect protocol over fetch, every
// call signed in with the bearer token when there is one.
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { GameHost } from "@gamehost/client";
import { bearerToken, tokenRefused } from "./bearer-token";

export type GameHostClient = Client<typeof GameHost>;

/** The host's web address: the page's own origin. Only the Vite dev server
 * (`npm run dev`) honours `?host=` for a host elsewhere (it must allow the dev
 * origin by CORS): in a build, such a link could send the player tokens this
 * origin keeps to any server. */
export function hostBaseUrl(): string {
  const override = import.meta.env.DEV ? new URLSearchParams(window.location.search).get("host") : null;
  return override ? override.replace(/\/+$/, "") : window.location.origin;
}

/** Adds "authorization: Bearer <token>" unless the call set its own (the sign-in form checks a token before
 * keeping it), and reports a kept token the host refuses, so that the embedding page can renew it. */
const signIn: Interceptor = (next) => async (request) => {
  const token = bearerToken();
  if (!token || request.header.has("authorization")) return next(request);
  request.header.set("authorization", `Bearer ${token}`);
  try {
    return await next(request);
  } catch (error) {
    const failure = ConnectError.from(error);
    if (failure.code === Code.Unauthenticated) tokenRefused(token, failure);
    throw error;
  }
};

export const gamehost: GameHostClient = createClient(
  GameHost,
  // useHttpGet: the reads without side effects (the lobby's listings, GetMatch) go as Connect GETs.
  createConnectTransport({ baseUrl: hostBaseUrl(), useBinaryFormat: true, useHttpGet: true, interceptors: [signIn] }),
);
