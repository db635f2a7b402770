/** What the table needs from each game's module. */
import type { Action, ObserveResponse } from "@deckmate/client/web";

/** How one legal action is chosen and named. */
export interface ActionInfo {
  /** The action's kind, such as `move` or `play_in` (one per oneof case). */
  readonly kind: string;
  /**
   * The clicks that choose it: keys of elements the game draws (`sq:e2`, `hand:ROOK`) or
   * `btn:<name>` for a button the table adds. Actions sharing a path are offered as an explicit
   * choice once the path is clicked (a promotion piece, a wild card's colour).
   */
  readonly path: readonly string[];
  /** A short label for the action list and the choice buttons. */
  readonly label: string;
}

/** One game's drawing and input. */
export interface GameUi {
  /** Draws everything the observation holds; clickable parts carry `data-key`. */
  draw(view: ObserveResponse): HTMLElement;
  /** How a game action of this game is chosen and named. */
  describe(action: Action, view: ObserveResponse): ActionInfo;
}
