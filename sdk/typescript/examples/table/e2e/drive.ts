/** Driving the table like a player: reading its state, clicking the board or the action list. */
import type { Page } from "playwright-core";

/** The table's state as its `#table` element publishes it. */
export interface TableState {
  readonly version: number;
  readonly status: string;
  readonly seat: string;
  readonly toAct: number[];
}

/** Reads `#table`'s data attributes. */
export async function state(page: Page): Promise<TableState | undefined> {
  return page.evaluate(() => {
    const table = document.getElementById("table");
    if (table === null || table.dataset["version"] === undefined) return undefined;
    return {
      version: Number(table.dataset["version"]),
      status: table.dataset["status"] ?? "",
      seat: table.dataset["seat"] ?? "",
      toAct: (table.dataset["toAct"] ?? "").split(",").filter((seat) => seat !== "").map(Number),
    };
  });
}

/** One entry of the action list. */
export interface Listed {
  readonly index: number;
  readonly kind: string;
  readonly path: string[];
  readonly label: string;
}

/** The legal actions the page lists. */
export async function listed(page: Page): Promise<Listed[]> {
  return page.$$eval("#actions button.action", (buttons) =>
    buttons.map((button) => ({
      index: Number((button as HTMLElement).dataset["index"]),
      kind: (button as HTMLElement).dataset["kind"] ?? "",
      path: ((button as HTMLElement).dataset["path"] ?? "").split("|"),
      label: button.textContent ?? "",
    })),
  );
}

/** A small seeded generator (mulberry32), so that every run plays the same games. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Makes `action` by clicking its path on the board, then its label if a choice is offered;
 * says whether an explicit choice was needed.
 */
export async function clickBoard(page: Page, action: Listed): Promise<boolean> {
  for (const key of action.path) {
    await page.locator(`#table [data-key="${key}"]`).first().click();
  }
  const choice = page.locator("#table .controls .choice", { hasText: action.label });
  if ((await choice.count()) > 0) {
    await choice.filter({ hasText: new RegExp(`^${action.label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) }).first().click();
    return true;
  }
  return false;
}

/** Makes `action` from the action list. */
export async function clickList(page: Page, action: Listed): Promise<void> {
  await page.locator(`#actions button.action[data-index="${action.index}"]`).click();
}

/** Waits until the page shows a version after `version` (or the game is over). */
export async function waitPast(page: Page, version: number, timeout = 10_000): Promise<boolean> {
  try {
    await page.waitForFunction(
      (before) => {
        const table = document.getElementById("table");
        return table !== null && (Number(table.dataset["version"]) > before || table.dataset["status"] === "finished");
      },
      version,
      { timeout },
    );
    return true;
  } catch {
    return false;
  }
}
