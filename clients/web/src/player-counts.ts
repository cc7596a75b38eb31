// The player counts a game accepts: the catalog's player_counts (Scalino: 2
// or 4, not 3), or every count from min to max from a host that does not
// list them.
import type { Game } from "@gamehost/client";

export function playerCounts(game: Game): number[] {
  if (game.playerCounts.length) return [...game.playerCounts];
  return Array.from({ length: Math.max(1, game.maxPlayers - game.minPlayers + 1) }, (_, index) => game.minPlayers + index);
}
