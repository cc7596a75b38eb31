// The one connection to the host: the Connect protocol over fetch, every
// call signed in with the bearer token when there is one.
import { Code, ConnectError, createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { GameHost } from "@gamehost/client";
import { bearerToken, tokenRefused } from "./bearer-token";
import { requestLocale } from "./i18n";

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

/** Every request that has a `locale` field (those whose answers carry words: games, matches, views, logs, the
 * watch) asks in the page's language, unless the call named one; Accept-Language says it too. */
const inLanguage: Interceptor = (next) => async (request) => {
  const locale = requestLocale();
  request.header.set("accept-language", locale);
  if (!("locale" in request.method.input.field)) return next(request);
  const withLocale = <M extends object>(message: M): M =>
    (message as { locale?: string }).locale ? message : { ...message, locale };
  if (!request.stream) return next({ ...request, message: withLocale(request.message) });
  const messages = request.message;
  return next({ ...request, message: (async function* () {
    for await (const message of messages) yield withLocale(message);
  })() });
};

// useHttpGet: the reads without side effects (the lobby's listings, GetMatch) go as Connect GETs.
export const transport = createConnectTransport({
  baseUrl: hostBaseUrl(), useBinaryFormat: true, useHttpGet: true, interceptors: [inLanguage, signIn] });

export const gamehost: GameHostClient = createClient(GameHost, transport);
