import { defineConfig } from "vite";

// The host serves dist/ at "/"; relative asset paths also let it live under a prefix.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
