import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The tsconfig paths: "~/x" is app/x, "~core/x" is core/x.
  resolve: {
    alias: {
      "~core": fileURLToPath(new URL("./core", import.meta.url)),
      "~": fileURLToPath(new URL("./app", import.meta.url)),
    },
  },
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/backend/**/*.test.ts", "tests/contracts/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
