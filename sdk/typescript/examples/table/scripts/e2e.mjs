// `npm run e2e [-- --update-screenshots]`: type-checks, builds the app, then runs the browser
// suite with node's test runner. --update-screenshots rewrites docs/screenshots/<game>.png.
import { execSync } from "node:child_process";

const update = process.argv.includes("--update-screenshots");
const run = (command, env = {}) => execSync(command, { stdio: "inherit", env: { ...process.env, ...env } });

run("npm run check");
run("npx vite build --logLevel warn");
run("node --test --test-concurrency=1 e2e-dist/wire.test.js e2e-dist/table.test.js", update ? { UPDATE_SCREENSHOTS: "1" } : {});
