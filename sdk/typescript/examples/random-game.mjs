#!/usr/bin/env node
// Plays one game of a variant to the end, every seat choosing at random among its legal actions.
//
//   node examples/random-game.mjs --addr http://127.0.0.1:50051 --variant chuno \
//     [--seats N] [--api-key K] [--seed N] [--web]
//
// Prints as its last line
//   result: <variant> <game_id> version=<n> winners=[..] draw=<bool> reason=<END_REASON_..>
// A bad address or an unknown variant exits 2 with one `error: ...` line on stderr.
// Run `npm ci && npm run build` in sdk/typescript first.
import { parseArgs } from "node:util";

/** Exits with `code` after one `error:` line on stderr. */
function fail(message, code) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(code);
}

/** A seeded random generator (mulberry32) returning floats in [0, 1). */
function randomSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The parsed command line. */
function options() {
  try {
    const { values } = parseArgs({
      options: {
        addr: { type: "string" },
        variant: { type: "string" },
        seats: { type: "string", default: "0" },
        "api-key": { type: "string" },
        seed: { type: "string" },
        web: { type: "boolean", default: false },
      },
      strict: true,
    });
    if (values.addr === undefined || values.variant === undefined) {
      throw new Error("--addr and --variant are required");
    }
    const seats = Number(values.seats);
    if (!Number.isInteger(seats) || seats < 0) {
      throw new Error(`bad --seats: ${values.seats}`);
    }
    const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 32) : Number(values.seed);
    if (!Number.isInteger(seed)) {
      throw new Error(`bad --seed: ${values.seed}`);
    }
    return { ...values, seats, seed };
  } catch (error) {
    fail(error.message, 2);
  }
}

/** Plays every seat until the game has finished; returns the final observation. */
async function play(sdk, game, random) {
  for (;;) {
    for (const seat of game.seats) {
      let view;
      view = await seat.observe();
      if (view.status === sdk.GameStatus.FINISHED) {
        return view;
      }
      if (view.legalActions.length === 0) {
        continue;
      }
      const action = view.legalActions[Math.floor(random() * view.legalActions.length)];
      try {
        await seat.actWith(action, sdk.ActOptions.expecting(view.version));
      } catch (error) {
        // Another seat moved first, or the turn passed: observe again.
        if (!(error instanceof sdk.StaleVersion || error instanceof sdk.NotYourTurn)) {
          throw error;
        }
      }
    }
  }
}

/** The result line of a finished game. */
function resultLine(sdk, view) {
  const outcome = view.outcome;
  const winners = (outcome?.winners ?? []).join(",");
  const reasonValue = outcome?.reason ?? 0;
  const reasonName = sdk.EndReason[reasonValue] ?? String(reasonValue);
  return (
    `result: ${view.variant} ${view.gameId} version=${view.version} winners=[${winners}] ` +
    `draw=${outcome?.draw ?? false} reason=END_REASON_${reasonName}`
  );
}

async function main() {
  const args = options();
  const sdk = await import(args.web ? "../dist/web.js" : "../dist/node.js");
  let client;
  let variants;
  try {
    client = await sdk.Client.connect(args.addr, { apiKey: args["api-key"] });
    variants = await client.listVariants();
  } catch (error) {
    fail(`cannot reach ${args.addr}: ${error.message}`, 2);
  }
  const variant = variants.find((candidate) => candidate.id === args.variant);
  if (variant === undefined) {
    const known = variants.map((candidate) => candidate.id).join(", ");
    fail(`unknown variant ${args.variant} (known: ${known})`, 2);
  }
  try {
    const game = await client.createGame(variant.defaultConfig, args.seats);
    const final = await play(sdk, game, randomSource(args.seed));
    process.stdout.write(`${resultLine(sdk, final)}\n`);
  } catch (error) {
    fail(error.message, 1);
  }
}

await main();
