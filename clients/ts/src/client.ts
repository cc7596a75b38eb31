// A GameHost client in one call: the caller brings the transport of its
// platform (@connectrpc/connect-web in a browser, @connectrpc/connect-node in
// Node), so this package needs neither.
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { GameHost } from "./gen/gamehost/v1/gamehost_pb.js";

export type GamehostClient = Client<typeof GameHost>;

/** What createGamehostClient hands the transport factory: connect-web's createConnectTransport takes it as it
 * is; connect-node's also wants an HTTP version. */
export interface TransportSettings {
  baseUrl: string;
  useBinaryFormat: boolean;
  /** Connect's GET form for the calls without side effects (ListGames, GetMatch, ...): cacheable URLs, and no
   * CORS preflight for a call that sends no header of its own (anonymous). gRPC-Web transports ignore it. */
  useHttpGet: boolean;
  interceptors: Interceptor[];
}

export interface GamehostClientOptions {
  /** createConnectTransport (or createGrpcWebTransport) of @connectrpc/connect-web, or a function that calls
   * connect-node's with `httpVersion` added. */
  transport: (settings: TransportSettings) => Transport;
  /** The caller's credential, a JWT or an API key: the host reads both from "authorization: Bearer ...".
   * A function is asked before each call, so a renewed token is used at once; it may return nothing. */
  token?: string | (() => string | undefined);
  /** More interceptors, run after the one that signs calls in. */
  interceptors?: Interceptor[];
  /** JSON instead of binary protobuf on the wire (easier to read in a browser's network panel). */
  json?: boolean;
  /** false: every call as a POST, also those that have a GET form (default true). */
  httpGet?: boolean;
}

/** A GameHost client for the host's web port, e.g. "http://127.0.0.1:8080" (Connect and gRPC-Web). */
export function createGamehostClient(baseUrl: string, options: GamehostClientOptions): GamehostClient {
  const { token } = options;
  const interceptors = [...(token ? [bearerToken(token)] : []), ...(options.interceptors ?? [])];
  const transport = options.transport({
    baseUrl: baseUrl.replace(/\/+$/, ""), useBinaryFormat: !options.json, useHttpGet: options.httpGet ?? true,
    interceptors,
  });
  return createClient(GameHost, transport);
}

/** Adds "authorization: Bearer <token>" unless the call set its own header. */
function bearerToken(token: string | (() => string | undefined)): Interceptor {
  return (next) => (request) => {
    const current = typeof token === "function" ? token() : token;
    if (current && !request.header.has("authorization")) request.header.set("authorization", `Bearer ${current}`);
    return next(request);
  };
}
