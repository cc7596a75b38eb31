// The operators' service, GameHostAdmin, over the page's one connection (signed in with the bearer token).
import { createClient, type Client } from "@connectrpc/connect";
import { GameHostAdmin } from "@gamehost/client";
import { transport } from "./api";

export const admin: Client<typeof GameHostAdmin> = createClient(GameHostAdmin, transport);

/** Whether the host gave this identity the admin role (GetIdentity lists the roles). */
export function isAdmin(identity: { roles: string[] } | null): boolean {
  return !!identity && identity.roles.includes("admin");
}
