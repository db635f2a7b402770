import { defineConfig } from "vite";

// The page carries seat tokens in its URL fragment; no-referrer keeps the full URL out of any
// request the page makes. The meta tag in index.html says the same for static hosting.
const headers = { "Referrer-Policy": "no-referrer" };

export default defineConfig({
  server: { headers, fs: { allow: ["../.."] } },
  preview: { headers },
  build: { target: "es2022" },
});
