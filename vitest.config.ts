import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["packages/*/src/**/*.test.ts", "integration/fixtures/**/*.test.ts", "examples/**/*.test.ts", "repo-checks/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "integration",
          include: ["integration/suites/**/*.test.ts"],
          testTimeout: 600_000,
          hookTimeout: 900_000,
          fileParallelism: false,
          globalSetup: ["integration/global-setup.ts"],
        },
      },
    ],
  },
});
