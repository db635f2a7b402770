/**
 * The web table end to end: every game played to the end by two browser contexts that took
 * their seats from invite links, watched by a third; hidden cards checked on the wire and in the
 * DOM; a 360×740 run checked for horizontal scroll, keyboard reach and axe-core violations;
 * a click made while an `Act` answer is held back still sent.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { createRequire } from "node:module";

import { ObservationSchema, create, toJson, type ObserveResponse } from "@deckmate/client";
import type { Browser, BrowserContext, Page } from "playwright-core";

import { clickBoard, clickList, listed, rng, state, waitPast, type Listed } from "./drive.js";
import { GAMES, type GameSpec } from "./games.js";
import { REPLAYS, labelOf, playthrough, type ReplaySpec } from "./replays.js";
import { TABLE, launchChromium, serverBinary, startDeckmate, startPreview, type Running } from "./harness.js";
import { WireLog, cardIds, ownHidden } from "./wire.js";

const UPDATE = process.argv.includes("--update-screenshots") || process.env["UPDATE_SCREENSHOTS"] === "1";
const TEMP_SHOTS = join(tmpdir(), "deckmate-table-screenshots");
/** Where a game's screenshot goes: the README's docs/screenshots/<variant>.png on update. */
const shotDir = (spec: GameSpec) => (UPDATE && spec.name === spec.variant ? join(TABLE, "../../../../docs/screenshots") : TEMP_SHOTS);
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let deckmate: Running;
let site: Running;
let browser: Browser;

before(async () => {
  for (const spec of GAMES) mkdirSync(shotDir(spec), { recursive: true });
  [deckmate, site] = await Promise.all([startDeckmate(), startPreview()]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await Promise.all([deckmate?.stop(), site?.stop()]);
});

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

function lobbyUrl(): string {
  return `${site.url}?server=${encodeURIComponent(deckmate.url)}`;
}

/** What the lobby needs to create a game. */
type Lobbied = Pick<GameSpec, "variant" | "options" | "seed">;

/** Fills the spec's config options and seed in the lobby. */
async function setOptions(page: Page, spec: Lobbied): Promise<void> {
  for (const [id, value] of Object.entries(spec.options)) {
    const tag = await page.$eval(`#${id}`, (element) => element.tagName);
    if (tag === "SELECT") await page.selectOption(`#${id}`, { label: value });
    else await page.fill(`#${id}`, value);
  }
  await page.fill("#seed", String(spec.seed));
}

/** Creates a game from the lobby; returns the invite links and the spectator link. */
async function createGame(page: Page, spec: Lobbied, modes: readonly string[]): Promise<{ links: string[]; spectator: string }> {
  await page.goto(lobbyUrl());
  await page.selectOption("#variant", spec.variant);
  await page.fill("#seats", String(modes.length));
  await page.dispatchEvent("#seats", "input");
  for (const [seat, mode] of modes.entries()) await page.selectOption(`#seat-${seat}`, mode);
  await setOptions(page, spec);
  await page.click("#create");
  await page.waitForSelector("#table");
  const links = await page.$$eval("#links a.invite[id^='invite-']", (anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
  const spectator = modes.includes("link") ? await page.$eval("#spectator-link", (anchor) => (anchor as HTMLAnchorElement).href) : page.url();
  return { links, spectator };
}

/** What one seat page showed at a version, for the DOM hidden-card check. */
interface DomShot {
  readonly version: number;
  readonly ids: string[];
  readonly faces: number;
}

async function domShot(page: Page): Promise<DomShot> {
  return page.evaluate(() => ({
    version: Number(document.getElementById("table")?.dataset["version"] ?? -1),
    ids: [...document.querySelectorAll<HTMLElement>("#table [data-card]")].filter((element) => element.closest("[data-own]") === null).map((element) => element.dataset["card"] ?? ""),
    faces: document.querySelectorAll("#table [data-zone='hand']:not([data-own]) [data-card]").length,
  }));
}

/** Views by version. */
function byVersion(views: readonly ObserveResponse[]): Map<number, ObserveResponse[]> {
  const map = new Map<number, ObserveResponse[]>();
  for (const view of views) map.set(Number(view.version), [...(map.get(Number(view.version)) ?? []), view]);
  return map;
}

/** Labels of the board cells and zones, the same for every viewer once nothing is hidden. */
async function publicBoard(page: Page): Promise<string[]> {
  return page.$$eval("#table .board [data-key], #table .zone[data-for] h3, #table .zone[data-for] .cards", (elements) =>
    elements.map((element) => element.getAttribute("aria-label") ?? element.textContent ?? "").filter((label) => !label.includes("face down") && !label.includes("face-down")).sort(),
  );
}

async function playToTheEnd(spec: GameSpec): Promise<void> {
  const contexts: BrowserContext[] = [];
  const context = async () => {
    const made = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    contexts.push(made);
    return made;
  };
  try {
    const host = await (await context()).newPage();
    const { links, spectator } = await createGame(host, spec, spec.modes);
    assert.equal(links.length, spec.modes.filter((mode) => mode === "link").length);
    for (const link of links) {
      assert.match(link, /#game=[^&]+&seat=\d+&token=/, "the token travels in the fragment");
      assert.doesNotMatch(link.split("#")[0] ?? "", /token/, "never in the query");
    }
    const [contextA, contextB, contextS] = [await context(), await context(), await context()];
    const seats: { page: Page; wire: WireLog; shots: DomShot[] }[] = [];
    for (const [index, link] of links.entries()) {
      const page = await (index % 2 === 0 ? contextA : contextB).newPage();
      const wire = new WireLog(page);
      await page.goto(link);
      seats.push({ page, wire, shots: [] });
    }
    const watcher = await contextS.newPage();
    const watcherWire = new WireLog(watcher);
    await watcher.goto(spectator);
    for (const seat of seats) await seat.page.waitForSelector("#table[data-version]");
    await watcher.waitForSelector("#table[data-version]");
    const referrer = await seats[0]!.page.evaluate(() => document.querySelector("meta[name=referrer]")?.getAttribute("content"));
    assert.equal(referrer, "no-referrer");
    const shared = await seats[0]!.page.getAttribute("#spectator-link", "href");
    assert.equal(shared, spectator, "a seat's page offers the same spectator link");
    assert.doesNotMatch(shared ?? "", /token|seat=/, "the spectator link carries no seat");
    const served = await contextS.request.get(spectator);
    assert.equal(served.headers()["referrer-policy"], "no-referrer", "the preview server sends the header");

    const random = rng(spec.seed);
    const byBoard = new Set<string>();
    const byChoice = new Set<string>();
    const legal = new Set<string>();
    let actions = 0;
    for (;;) {
      let finished = 0;
      let acted = false;
      for (const [index, seat] of seats.entries()) {
        const now = await state(seat.page);
        if (now === undefined) continue;
        if (now.status === "finished") {
          finished += 1;
          continue;
        }
        if (!now.toAct.includes(Number(now.seat))) continue;
        const options = (await listed(seat.page)).filter(
          (action) => action.kind !== "resign" && action.kind !== "accept_draw" && !(action.kind === "offer_draw" && byBoard.has("offer_draw")),
        );
        if (options.length === 0) continue;
        options.forEach((action) => legal.add(action.kind));
        // A pending draw offer is answered first, so that its answer is clicked while it is legal.
        const answer = options.filter((action) => action.kind === "decline_draw" && !byBoard.has(action.kind));
        const fresh = answer.length > 0 ? answer : options.filter((action) => !byBoard.has(action.kind) && !spec.late.includes(action.kind));
        const pool = fresh.length > 0 ? fresh : options.filter((action) => actions >= spec.lateAfter || !spec.late.includes(action.kind));
        const pick: Listed | undefined = pool[Math.floor(random() * pool.length)] ?? options[0];
        if (pick === undefined) continue;
        let done = false;
        if (!byBoard.has(pick.kind)) {
          const chose = await clickBoard(seat.page, pick);
          done = await waitPast(seat.page, now.version);
          if (done && chose) byChoice.add(pick.kind);
          // Counted only once the board's clicks really made the action.
          if (done) byBoard.add(pick.kind);
          else console.log(`${spec.name} v${now.version}: clicking "${pick.label}" on the board did not act`);
        }
        if (!done) {
          await clickList(seat.page, pick);
          done = await waitPast(seat.page, now.version);
        }
        actions += 1;
        acted = true;
        // Every page catches up before the next choice, so that a seeded run plays the same game.
        const reached = (await state(seat.page))?.version ?? now.version + 1;
        for (const [other, otherSeat] of seats.entries()) {
          if (other === index) continue;
          await waitPast(otherSeat.page, reached - 1);
          otherSeat.shots.push(await domShot(otherSeat.page));
        }
      }
      if (finished === seats.length) break;
      assert.ok(actions < 400, `${spec.name}: still running after ${actions} actions`);
      if (!acted) await sleep(40);
    }

    // Everyone, the spectator included, sees the same finished game.
    await watcher.waitForSelector("#table[data-status='finished']");
    const final = await state(seats[0]!.page);
    const spectatorFinal = await state(watcher);
    assert.equal(spectatorFinal?.version, final?.version);
    const resultText = await seats[0]!.page.textContent("#result");
    assert.ok((resultText ?? "").startsWith("Game over"), "the result is shown");
    assert.match(resultText ?? "", /reason: /);
    assert.equal(await watcher.textContent("#result"), resultText);
    assert.deepEqual(await publicBoard(watcher), await publicBoard(seats[0]!.page));
    // Two-player games also offer a draw and decline it on the board.
    const required = spec.modes.length === 2 ? [...spec.required, "offer_draw", "decline_draw"] : spec.required;
    for (const kind of spec.chosen ?? []) assert.ok(byChoice.has(kind), `${spec.name}: "${kind}" chosen from the explicit choices`);
    for (const kind of required) assert.ok(byBoard.has(kind), `${spec.name}: "${kind}" made by clicking the board`);
    // Each kind was made on the board the first time it was made (the list never came first);
    // a kind that was legal only while another new kind was chosen is reported, not made.
    const missed = [...legal].filter((kind) => !byBoard.has(kind));
    if (missed.length > 0) console.log(`${spec.name}: legal at some point but never made: ${missed.join(", ")}`);
    console.log(`${spec.name}: ${actions} actions by the two contexts, final version ${final?.version}; board-clicked: ${[...byBoard].join(", ")}; with an explicit choice: ${[...byChoice].join(", ") || "none"}`);
    await seats[0]!.page.screenshot({ path: join(shotDir(spec), `${spec.name}.png`), fullPage: true });

    // Hidden information: no seat's own hidden cards reach another seat while hidden.
    await Promise.all(contexts.map((made) => made.close()));
    contexts.length = 0;
    const spectatorViews = byVersion(await watcherWire.views());
    const seatViews = await Promise.all(seats.map(async (seat) => byVersion(await seat.wire.views())));
    let checks = 0;
    for (const [a, viewsA] of seatViews.entries()) {
      for (const [b, viewsB] of seatViews.entries()) {
        if (a === b) continue;
        for (const [version, atA] of viewsA) {
          const publicCards = new Set((spectatorViews.get(version) ?? []).flatMap((view) => [...cardIds(view)]));
          if (!spectatorViews.has(version)) continue;
          const hiddenA = new Set(atA.flatMap((view) => [...ownHidden(view)]));
          for (const viewB of viewsB.get(version) ?? []) {
            const ownB = ownHidden(viewB);
            const seenB = cardIds(viewB);
            for (const card of hiddenA) {
              if (ownB.has(card) || publicCards.has(card)) continue;
              checks += 1;
              assert.ok(!seenB.has(card), `${spec.name} v${version}: seat page ${b} received seat page ${a}'s hidden ${card}`);
            }
          }
          for (const shot of seats[b]!.shots.filter((taken) => taken.version === version)) {
            assert.equal(shot.faces, 0, "another seat's hand is drawn as backs");
            const ownB = new Set((viewsB.get(version) ?? []).flatMap((view) => [...ownHidden(view)]));
            for (const card of hiddenA) {
              if (ownB.has(card) || publicCards.has(card)) continue;
              checks += 1;
              assert.ok(!shot.ids.includes(card), `${spec.name} v${version}: seat page ${b} drew seat page ${a}'s hidden ${card}`);
            }
          }
        }
      }
    }
    if (spec.variant === "raindrop_chess") {
      // Nothing in Raindropchess is private (deck orders are hidden from everyone): each seat's
      // game view must be exactly the spectator's.
      for (const views of seatViews) {
        for (const [version, atSeat] of views) {
          const watched = spectatorViews.get(version)?.[0]?.observation;
          if (watched === undefined) continue;
          for (const view of atSeat) {
            checks += 1;
            assert.deepEqual(toJson(ObservationSchema, view.observation ?? create(ObservationSchema)), toJson(ObservationSchema, watched), `v${version}: a seat sees what a spectator sees`);
          }
        }
      }
    }
    assert.ok(checks > 0, `${spec.name}: hidden information was checked`);
    console.log(`${spec.name}: ${checks} hidden-card checks`);
  } finally {
    await Promise.all(contexts.map((made) => made.close()));
  }
}

for (const spec of GAMES) {
  test(`${spec.name}: two contexts from invite links play to the end, a spectator sees it`, { timeout: 240_000 }, async () => {
    await playToTheEnd(spec);
  });
}

/** One action of a replay: by its label (golden notation) or its index among the legal actions. */
interface Planned {
  readonly seat: number;
  readonly label?: string;
  readonly index?: number;
}

/** The replay's seed and actions; the last one is `spec.made`. */
function planOf(spec: ReplaySpec): { seed: number; steps: Planned[] } {
  if (spec.golden !== undefined) {
    const golden = playthrough(spec.variant, spec.golden.playthrough);
    assert.deepEqual(golden.config, spec.golden.config, `${spec.name}: the lobby inputs still make the recorded config`);
    assert.equal(golden.seats, 2);
    assert.equal(golden.steps.at(-1)?.action, spec.made, `${spec.name}: the playthrough ends with ${spec.made}`);
    return { seed: golden.seed, steps: golden.steps.map((step) => ({ seat: step.seat, label: labelOf(spec.variant, step.action) })) };
  }
  assert.ok(spec.recorded !== undefined, `${spec.name}: a golden or a recorded game`);
  const steps: Planned[] = spec.recorded.steps.map(([seat, index]) => ({ seat, index }));
  const last = steps.pop();
  assert.ok(last !== undefined);
  steps.push({ ...last, label: labelOf(spec.variant, spec.made) });
  return { seed: spec.recorded.seed, steps };
}

/** Replays a game through two seat pages; the last action, the rare one, by clicking the board. */
async function replay(spec: ReplaySpec): Promise<void> {
  const plan = planOf(spec);
  const made: BrowserContext[] = [];
  try {
    const host = await browser.newContext();
    made.push(host);
    const { links } = await createGame(await host.newPage(), { variant: spec.variant, options: spec.options, seed: plan.seed }, ["link", "link"]);
    const pages: Page[] = [];
    for (const link of links) {
      const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
      made.push(context);
      const page = await context.newPage();
      await page.goto(link);
      await page.waitForSelector("#table[data-version]");
      pages.push(page);
    }
    let last: { kind: string; chose: boolean; before: number } | undefined;
    for (const [version, step] of plan.steps.entries()) {
      const page = pages[step.seat];
      assert.ok(page !== undefined);
      // Every action moves the game one version on: the seat acts on the version its step follows.
      await page.waitForFunction(
        (wanted) => Number(document.getElementById("table")?.dataset["version"]) === wanted && document.querySelectorAll("#actions button.action").length > 0,
        version,
        { timeout: 10_000 },
      );
      const now = await state(page);
      assert.ok(now !== undefined && now.toAct.includes(step.seat), `${spec.name} v${version}: seat ${step.seat} is to act`);
      const options = await listed(page);
      const action = step.index !== undefined ? options.find((entry) => entry.index === step.index) : options.find((entry) => entry.label === step.label);
      assert.ok(action !== undefined, `${spec.name} v${version}: seat ${step.seat} lists ${step.label ?? `action ${step.index}`} (it lists ${options.map((entry) => entry.label).join("; ")})`);
      if (step.label !== undefined) assert.equal(action.label, step.label, `${spec.name} v${version}: the recorded action`);
      if (version === plan.steps.length - 1) {
        const chose = await clickBoard(page, action);
        last = { kind: action.kind, chose, before: now.version };
      } else {
        await clickList(page, action);
      }
      assert.ok(await waitPast(page, now.version), `${spec.name} v${version}: "${action.label}" acted`);
    }
    assert.ok(last !== undefined);
    assert.equal(last.kind, spec.kind, `${spec.name}: the board made a "${spec.kind}"`);
    assert.equal(last.chose, spec.chosen, `${spec.name}: an explicit choice ${spec.chosen ? "was" : "was not"} needed`);
    for (const page of pages) {
      await page.waitForFunction((version) => Number(document.getElementById("table")?.dataset["version"]) > version, last.before);
    }
    if (spec.ends) {
      for (const page of pages) await page.waitForSelector("#table[data-status='finished']");
      assert.match((await pages[0]!.textContent("#result")) ?? "", /^Game over/);
    }
    const promoted = { q: "queen", r: "rook", b: "bishop", n: "knight" }[spec.made.slice(4)];
    if (promoted !== undefined) {
      // Both seats see the promoted piece on the far rank.
      const square = spec.made.slice(2, 4);
      const side = square.endsWith("8") ? "white" : "black";
      for (const page of pages) {
        const cell = (await page.getAttribute(`#table [data-key="sq:${square}"]`, "aria-label")) ?? "";
        assert.equal(cell.toLowerCase(), `${square} ${side} ${promoted}`, `${spec.name}: ${square} holds the promoted ${promoted}`);
      }
    }
    console.log(`${spec.name}: ${plan.steps.length} actions replayed, "${spec.kind}" made on the board at v${last.before}`);
  } finally {
    await Promise.all(made.map((context) => context.close()));
  }
}

for (const spec of REPLAYS) {
  test(`${spec.name}: a replayed game reaches it, the board makes it`, { timeout: 120_000 }, async () => {
    await replay(spec);
  });
}

/** axe-core's serious and critical violations on the page now. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
  });
}

async function noHorizontalScroll(page: Page, where: string): Promise<void> {
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  assert.ok(sizes.scroll <= sizes.client, `${where}: page is ${sizes.scroll}px wide in a ${sizes.client}px viewport`);
}

/** Tabs through the whole page; returns the action-list indexes and board keys that got focus. */
async function tabStops(page: Page): Promise<{ listed: Set<number>; keys: Set<string> }> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const listedStops = new Set<number>();
  const keys = new Set<string>();
  const seen = new Set<string>();
  for (let press = 0; press < 1500; press += 1) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (element === null || element === document.body) return undefined;
      const path: string[] = [];
      for (let at: Element | null = element; at !== null; at = at.parentElement) path.push(`${at.tagName}:${[...(at.parentElement?.children ?? [])].indexOf(at)}`);
      return { id: path.join("/"), index: element.closest("#actions") !== null ? element.dataset["index"] : undefined, key: element.dataset["key"] };
    });
    if (focused === undefined) continue;
    if (seen.has(focused.id)) break;
    seen.add(focused.id);
    if (focused.index !== undefined) listedStops.add(Number(focused.index));
    if (focused.key !== undefined) keys.add(focused.key);
  }
  return { listed: listedStops, keys };
}

test("360×740: no horizontal scroll, every action reachable by keyboard, no serious axe violations", { timeout: 300_000 }, async () => {
  const made = await browser.newContext({ viewport: { width: 360, height: 740 } });
  try {
    const page = await made.newPage();
    await page.goto(lobbyUrl());
    await page.waitForSelector("#lobby");
    await noHorizontalScroll(page, "lobby");
    assert.deepEqual(await axeViolations(page), [], "lobby");
    for (const spec of GAMES.filter((game) => game.modes.length === 2)) {
      await page.goto(lobbyUrl());
      await page.selectOption("#variant", spec.variant);
      await page.selectOption("#seat-0", "me");
      await page.selectOption("#seat-1", "random");
      await setOptions(page, spec);
      await page.click("#create");
      await page.waitForSelector("#table[data-version]");
      for (let turn = 0; turn < 3; turn += 1) {
        await page.waitForFunction(() => {
          const table = document.getElementById("table");
          return table?.dataset["status"] === "finished" || document.querySelectorAll("#actions button.action").length > 0;
        }, undefined, { timeout: 20_000 });
        let now = await state(page);
        if (now === undefined || now.status === "finished") break;
        await noHorizontalScroll(page, `${spec.name} v${now.version}`);
        let options = await listed(page);
        let stops = await tabStops(page);
        // The random seat may move while we tab (simultaneous choices): tab again on the new view.
        for (let retry = 0; retry < 5 && (await state(page))?.version !== now.version; retry += 1) {
          now = (await state(page)) ?? now;
          options = await listed(page);
          stops = await tabStops(page);
        }
        for (const option of options) assert.ok(stops.listed.has(option.index), `${spec.name}: "${option.label}" reachable by Tab`);
        const firstKeys = new Set(options.map((option) => option.path[0] ?? ""));
        for (const key of firstKeys) {
          if (await page.locator(`#table [data-key="${key}"]`).count()) assert.ok(stops.keys.has(key), `${spec.name}: board key ${key} reachable by Tab`);
        }
        assert.deepEqual(await axeViolations(page), [], `${spec.name} v${now.version}`);
        // Act by keyboard: focus the first listed action and press Enter.
        const first = options[0];
        if (first === undefined) break;
        await page.focus(`#actions button.action[data-index="${first.index}"]`);
        await page.keyboard.press("Enter");
        await waitPast(page, now.version);
      }
    }
  } finally {
    await made.close();
  }
});

test("hosted play: a server bot answers on its own, and both turn clocks show and run by turn", { timeout: 90_000 }, async () => {
  const made = await browser.newContext();
  try {
    const page = await made.newPage();
    await page.goto(lobbyUrl());
    await page.selectOption("#variant", "raindrop_chess");
    await page.selectOption("#seat-0", "me");
    await page.selectOption("#seat-1", "bot-greedy");
    await page.selectOption("#clock", "fischer");
    await page.fill("#clock-base", "600");
    await page.fill("#clock-increment", "5");
    await page.click("#create");
    await page.waitForSelector("#table");
    await page.waitForSelector("#clock-1");
    const meta = new Set(["resign", "offer_draw", "accept_draw", "decline_draw"]);
    // The table's version, seats to act and running clocks, read at one moment.
    const snapshot = () =>
      page.evaluate(() => {
        const table = document.getElementById("table");
        const running = (seat: number) => document.getElementById(`clock-${seat}`)?.dataset["running"] === "true";
        return {
          version: Number(table?.dataset["version"]),
          finished: table?.dataset["status"] === "finished",
          toAct: (table?.dataset["toAct"] ?? "").split(",").filter((seat) => seat !== "").map(Number),
          running: [running(0), running(1)],
        };
      });
    // This page plays White; every version past its own actions is the bot's.
    let mine = 0;
    let botAnswered = false;
    for (let step = 0; step < 40 && !botAnswered; step += 1) {
      const now = await snapshot();
      if (now.finished) break;
      const myTurn = now.toAct.includes(0);
      assert.deepEqual(now.running, [myTurn, !myTurn], `the clock of the seat to act runs, alone (version ${now.version})`);
      if (myTurn && now.version > mine) {
        botAnswered = true;
      } else if (myTurn) {
        const action = (await listed(page)).find((candidate) => !meta.has(candidate.kind));
        assert.ok(action !== undefined, "a game action is listed");
        await clickList(page, action);
        mine += 1;
        assert.ok(await waitPast(page, now.version), "my action was committed");
      } else {
        assert.ok(await waitPast(page, now.version, 20_000), "the bot moves on its own");
      }
    }
    assert.ok(botAnswered, "the bot answered my turn");
    assert.match((await page.textContent("#clock-0")) ?? "", /^seat 0 \d+:\d\d/);
  } finally {
    await made.close();
  }
});

test("lobby: an invalid option is shown next to its field from the server's field violations", { timeout: 60_000 }, async () => {
  const made = await browser.newContext();
  try {
    const page = await made.newPage();
    await page.goto(lobbyUrl());
    await page.selectOption("#variant", "chuno");
    // The input says 1 to 4; the form does not block, so that the server's answer is what shows.
    await page.fill("#cfg-colours", "9");
    await page.click("#create");
    const violation = page.locator("#violation-colours");
    await violation.waitFor();
    assert.ok(((await violation.textContent()) ?? "").length > 0);
    assert.equal(await page.getAttribute("#cfg-colours", "aria-invalid"), "true");
    assert.equal(await page.locator("#table").count(), 0, "no game was created");
  } finally {
    await made.close();
  }
});

test("a dropped stream resumes without a reload; a stale action redraws instead of failing", { timeout: 90_000 }, async () => {
  const host = await browser.newContext();
  const seatContext = await browser.newContext();
  try {
    const spec = GAMES.find((game) => game.variant === "chuno");
    assert.ok(spec !== undefined);
    const { links } = await createGame(await host.newPage(), spec, ["link", "link"]);
    const link = links[0] ?? "";
    const player = await seatContext.newPage();
    await player.goto(link);
    await player.waitForSelector("#table[data-version='0']");
    // The same seat in a second page whose Watch streams are cut: it stays at version 0.
    const behind = await seatContext.newPage();
    await behind.route("**/deckmate.v1.GameService/Watch", (route) => route.abort());
    await behind.goto(link);
    await behind.waitForSelector("#table[data-version='0']");
    await behind.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));
    const first = (await listed(player))[0];
    assert.ok(first !== undefined);
    await clickList(player, first);
    assert.ok(await waitPast(player, 0));
    assert.equal((await state(behind))?.version, 0, "the cut page has not seen version 1");
    // Acting on version 0 loses the race: the page shows version 1, not an error.
    const stale = (await listed(behind))[0];
    assert.ok(stale !== undefined);
    await clickList(behind, stale);
    assert.ok(await waitPast(behind, 0));
    assert.doesNotMatch((await behind.textContent("#notice")) ?? "", /could not act/);
    // The stream comes back: the page follows the next version without reloading.
    await behind.unroute("**/deckmate.v1.GameService/Watch");
    const now = (await state(player))?.version ?? 0;
    const next = (await listed(player))[0];
    if (next !== undefined) {
      await clickList(player, next);
      assert.ok(await waitPast(player, now));
    }
    const target = (await state(player))?.version ?? 0;
    await behind.waitForFunction((version) => Number(document.getElementById("table")?.dataset["version"]) >= version, target, { timeout: 30_000 });
    assert.equal(await behind.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce), true, "no reload");
  } finally {
    await host.close();
    await seatContext.close();
  }
});

test("a click made while the seat's previous action is on its way is sent after it, not dropped", { timeout: 90_000 }, async () => {
  // Raindropchess with seed 77 (the promotion replay's game): seat 0 makes the first two actions.
  const host = await browser.newContext();
  const seatContext = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  try {
    const { links } = await createGame(await host.newPage(), { variant: "raindrop_chess", options: {}, seed: 77 }, ["link", "link"]);
    const page = await seatContext.newPage();
    await page.goto(links[0] ?? "");
    await page.waitForFunction(
      () => Number(document.getElementById("table")?.dataset["version"]) === 0 && document.querySelectorAll("#actions button.action").length > 0,
      undefined,
      { timeout: 10_000 },
    );
    // The first Act reaches the server and commits; its answer is held back until released, so
    // the game's stream shows version 1 (and the seat's next actions) while it is on its way.
    let acts = 0;
    await page.route("**/deckmate.v1.GameService/Act", async (route) => {
      acts += 1;
      const heldBack = acts === 1;
      const response = await route.fetch();
      if (heldBack) await held;
      await route.fulfill({ response });
    });
    const first = (await listed(page)).find((entry) => entry.index === 0);
    assert.ok(first !== undefined, "seat 0 lists its first action");
    await clickList(page, first);
    await page.waitForFunction(
      () => Number(document.getElementById("table")?.dataset["version"]) === 1 && document.querySelectorAll("#actions button.action").length > 0,
      undefined,
      { timeout: 10_000 },
    );
    const second = (await listed(page)).find((entry) => entry.index === 2);
    assert.ok(second !== undefined, "seat 0 lists its second action at version 1");
    await clickList(page, second);
    await sleep(500);
    assert.equal(acts, 1, "the second action waits for the first one's answer");
    assert.equal((await state(page))?.version, 1);
    release();
    assert.ok(await waitPast(page, 1), "the action clicked while the first was on its way was sent and committed");
    assert.equal(acts, 2, "one Act per click");
    assert.doesNotMatch((await page.textContent("#notice")) ?? "", /could not act/);
  } finally {
    release();
    await host.close();
    await seatContext.close();
  }
});

test("API keys: the key field (sessionStorage) is sent with CreateGame through a CORS allow-list", { timeout: 60_000 }, async () => {
  const printed = execFileSync(serverBinary(), ["hash-key", "--name", "table"], { encoding: "utf8" }).split("\n");
  const key = printed.find((line) => line.startsWith("dmk_")) ?? "";
  const line = printed.find((entry) => entry.startsWith("table:")) ?? "";
  assert.ok(key !== "" && line !== "", "hash-key printed a key and its line");
  const keysFile = join(mkdtempSync(join(tmpdir(), "deckmate-table-keys-")), "keys");
  writeFileSync(keysFile, `${line}\n`);
  const origin = new URL(site.url).origin;
  const guarded = await startDeckmate(["--api-keys-file", keysFile, "--cors-origins", origin]);
  const made = await browser.newContext();
  try {
    const page = await made.newPage();
    await page.goto(`${site.url}?server=${encodeURIComponent(guarded.url)}`);
    await page.waitForSelector("#api-key");
    await page.selectOption("#variant", "chuno");
    await page.click("#create");
    await page.waitForFunction(() => (document.getElementById("lobby-error")?.textContent ?? "") !== "");
    assert.equal(await page.locator("#table").count(), 0, "no key, no game");
    await page.fill("#api-key", key);
    await page.click("#create");
    await page.waitForSelector("#table[data-version]");
    assert.equal(await page.evaluate(() => sessionStorage.getItem("deckmate.apiKey")), key);
    await page.goto(`${site.url}?server=${encodeURIComponent(guarded.url)}`);
    assert.equal(await page.inputValue("#api-key"), key, "the key stays for the tab");
  } finally {
    await made.close();
    await guarded.stop();
  }
});
