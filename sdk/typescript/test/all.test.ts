/** The whole suite in one process, so that the live server starts once. */
import { after } from "node:test";

import { stopLiveServer } from "./helpers/server.js";

import "./errors.js";
import "./surface.js";
import "./scripted-retry.js";
import "./scripted-compat.js";
import "./tls.js";
import "./web-imports.js";
import "./history-pages.js";
import "./live-games.js";
import "./live-errors.js";
import "./live-web.js";
import "./live-watch-reset.js";
import "./live-server-info.js";
import "./timeouts.js";
import "./example.js";

after(stopLiveServer);
