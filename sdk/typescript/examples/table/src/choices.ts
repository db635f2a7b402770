/**
 * Choosing an action by clicks. Every legal action has a click path (see `ActionInfo.path`);
 * clicking narrows the actions to those whose path starts with the clicks so far. One complete
 * match acts at once; several complete matches sharing the path become explicit choices.
 */
import type { Action } from "@deckmate/client/web";

/** A legal action with its path and label. */
export interface Choice {
  /** The action to send. */
  readonly action: Action;
  /** The action's kind, such as `move` or `offer_draw`. */
  readonly kind: string;
  /** The click keys that choose it. */
  readonly path: readonly string[];
  /** Its label. */
  readonly label: string;
}

/** What a click leads to. */
export type Step =
  | { readonly type: "act"; readonly choice: Choice }
  | { readonly type: "select"; readonly selected: readonly string[]; readonly targets: ReadonlySet<string>; readonly complete: readonly Choice[] }
  | { readonly type: "none" };

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= path.length && prefix.every((key, index) => path[index] === key);
}

/** The result of clicking `key` with `selected` already chosen. */
export function click(choices: readonly Choice[], selected: readonly string[], key: string): Step {
  const extended = [...selected, key];
  const matching = choices.filter((choice) => startsWith(choice.path, extended));
  if (matching.length === 0) {
    // A click that continues nothing starts over from this key.
    return selected.length === 0 ? { type: "none" } : click(choices, [], key);
  }
  const complete = matching.filter((choice) => choice.path.length === extended.length);
  const longer = matching.filter((choice) => choice.path.length > extended.length);
  const only = complete[0];
  if (longer.length === 0 && complete.length === 1 && only !== undefined) return { type: "act", choice: only };
  const targets = new Set(longer.map((choice) => choice.path[extended.length] ?? ""));
  return { type: "select", selected: extended, targets, complete };
}

/** The keys that start some legal action: what the player may click first. */
export function firstKeys(choices: readonly Choice[]): Set<string> {
  return new Set(choices.map((choice) => choice.path[0] ?? ""));
}
