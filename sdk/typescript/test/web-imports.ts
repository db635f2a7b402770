/** The web entry never reaches Node.js modules or the Node transport. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, resolve } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";

const PACKAGE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(resolve(PACKAGE, "package.json"));

/** The module specifiers a compiled ES module imports or re-exports, statically or dynamically. */
function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'";]*?\sfrom\s*["']([^"']+)["']/g,
    /\bimport\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const pattern of patterns) {
    for (const match of source.matchAll(pattern)) {
      found.push(match[1]!);
    }
  }
  return found;
}

/** Resolves `specifier` imported from `file`, ES module conditions first. */
function resolveFrom(file: string, specifier: string): string {
  if (specifier.startsWith(".")) {
    return resolve(dirname(file), specifier);
  }
  const url = import.meta.resolve(specifier, `file://${file}`);
  return fileURLToPath(url);
}

/** Every file reachable from `entry` and every bare or node: specifier met on the way. */
function importGraph(entry: string): { files: Set<string>; external: Set<string> } {
  const files = new Set<string>();
  const external = new Set<string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) {
      continue;
    }
    files.add(file);
    for (const specifier of specifiers(readFileSync(file, "utf8"))) {
      if (!specifier.startsWith(".")) {
        external.add(specifier);
      }
      if (specifier.startsWith("node:") || !/^[.@a-z]/.test(specifier)) {
        continue;
      }
      pending.push(resolveFrom(file, specifier));
    }
  }
  return { files, external };
}

describe("web entry import graph", () => {
  test("dist/web.js reaches no node: module and not @connectrpc/connect-node", () => {
    const { files, external } = importGraph(resolve(PACKAGE, "dist/web.js"));
    assert.ok(files.size > 10, `walked ${files.size} files`);
    assert.ok(external.has("@connectrpc/connect-web"));
    const builtins = new Set(require("node:module").builtinModules as string[]);
    for (const specifier of external) {
      assert.ok(!specifier.startsWith("node:"), `web entry imports ${specifier}`);
      assert.ok(!builtins.has(specifier.split("/")[0]!), `web entry imports ${specifier}`);
      assert.ok(!specifier.startsWith("@connectrpc/connect-node"), `web entry imports ${specifier}`);
    }
    for (const file of files) {
      assert.ok(!file.includes("connect-node"), `web entry reaches ${file}`);
    }
  });

  test("the walk does see Node modules from the Node entry", () => {
    const { external } = importGraph(resolve(PACKAGE, "dist/node.js"));
    assert.ok(external.has("@connectrpc/connect-node"));
    assert.ok([...external].some((specifier) => specifier.startsWith("node:") || specifier === "http2"));
  });
});
