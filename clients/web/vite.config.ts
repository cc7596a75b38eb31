import { defineConfig } from "vite";

// The host serves dist/ at "/"; relative asset paths also let it live under a prefix.
// preserveSymlinks: @gamehost/client is a link to clients/ts, whose own
// node_modules (its build tools) must not give the page a second copy of
// @bufbuild/protobuf or @connectrpc/connect.
export default defineConfig({
  base: "./",
  resolve: { preserveSymlinks: true },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
