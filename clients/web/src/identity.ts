// Who the host takes this browser to be (GetIdentity), asked once per bearer token.
import type { Identity } from "@gamehost/client";
import { gamehost } from "./api";
import { bearerToken } from "./bearer-token";

let asked: { token: string; identity: Promise<Identity> } | null = null;

/** The signed-in user, or null when no token is kept; rejects when the host refuses the token. */
export function signedInIdentity(): Promise<Identity | null> {
  const token = bearerToken();
  if (!token) return Promise.resolve(null);
  if (asked?.token !== token) {
    const identity = gamehost.getIdentity({});
    asked = { token, identity };
    // A refusal is not kept: the next page asks again (the provider may have been down).
    identity.catch(() => { if (asked?.identity === identity) asked = null; });
  }
  return asked.identity;
}

/** The signed-in user, or null when there is none or the host refuses the token (the sign-in bar says so). */
export function signedInOrNull(): Promise<Identity | null> {
  return signedInIdentity().catch(() => null);
}
