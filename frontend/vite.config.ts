/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Builds into the Python package, which serves it (src/autogen_pse/web/static).
// `npm run dev` proxies /api to a running `make serve` on 127.0.0.1:8080.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "../src/autogen_pse/web/static",
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 800,
  },
  server: {
    host: "127.0.0.1",
    proxy: { "/api": { target: "http://127.0.0.1:8080", changeOrigin: false } },
  },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
