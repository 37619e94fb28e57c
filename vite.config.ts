import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { articlesPlugin } from "./web/src/features/articles/build/vite-plugin.ts";

/**
 * The live preview's worker measures AVIF with @jsquash's decoder (codecs/avif/decode-in-browser.ts): the server's,
 * icodec's, generates code at run time, which the worker's CSP forbids (ADR 046).
 */
const browserAvifDecoder = {
  name: "browser-avif-decoder",
  enforce: "pre" as const,
  resolveId(source: string, importer?: string) {
    if (source === "./decode.ts" && importer?.endsWith("/codecs/avif/codec.ts")) {
      return fileURLToPath(new URL("./codecs/avif/decode-in-browser.ts", import.meta.url));
    }
  },
};

export default defineConfig({
  root: "web",
  plugins: [articlesPlugin(), react(), tailwindcss()],
  // The one way to reach the server (web/src/api); deno.json "imports" maps it the same for deno check/test.
  resolve: { alias: { "@web-api": fileURLToPath(new URL("./web/src/api", import.meta.url)) } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    // The live preview's worker fetches each WASM module under a CSP whose connect-src has no data: URLs, so
    // none is inlined, however small (the resampler's is 2 KB).
    assetsInlineLimit: (file: string) => (file.endsWith(".wasm") ? false : undefined),
  },
  // The live preview's worker (web/src/features/live-preview) is an ES module: the codecs' glue splits into chunks.
  worker: { format: "es", plugins: () => [browserAvifDecoder] },
  // The day the pages were prerendered: the privacy page's first render repeats it, so a build from
  // yesterday hydrates without a mismatch and only then shows the visitor's today.
  define: { __BUILD_DAY__: JSON.stringify(new Date().toISOString().slice(0, 10)) },
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:8000", "/healthz": "http://127.0.0.1:8000" },
  },
});
