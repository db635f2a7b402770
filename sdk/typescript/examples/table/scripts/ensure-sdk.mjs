// Installs and builds the SDK the table depends on ("file:../..") when its build is missing,
// so that `npm ci && npm run dev` works on a fresh checkout.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const sdk = join(dirname(fileURLToPath(import.meta.url)), "../../..");
const run = (command) => execSync(command, { cwd: sdk, stdio: "inherit" });

if (!existsSync(join(sdk, "node_modules/@bufbuild/protobuf"))) {
  run("npm ci --no-audit --no-fund");
}
if (!existsSync(join(sdk, "dist/web.js"))) {
  run("npm run build");
}
