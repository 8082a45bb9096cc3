// The store platforms this installation speaks (issue 17): a map from platform name to adapter. The map itself is
// built in the composition root (root.ts `storePlatforms`: one line per platform), so this folder never imports its
// adapters (connectors/platforms/ imports connectors/platform.ts; the reverse would be a cycle).
import type { StorePlatform, StorePlatformName } from "./platform.ts";

/** The adapters this installation speaks, by platform name; a platform without one refuses connectors. */
export type StorePlatforms = Partial<Record<StorePlatformName, StorePlatform>>;

/** The adapter of a platform named in a path or a row; null for a platform this installation does not speak. */
export function adapterOf(stores: StorePlatforms, name: string): StorePlatform | null {
  // Own keys only: a path segment such as "constructor" must not find Object's.
  return Object.hasOwn(stores, name) ? (stores[name as StorePlatformName] ?? null) : null;
}
