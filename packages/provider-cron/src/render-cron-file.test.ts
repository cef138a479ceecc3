import type { Timer } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderCronFile } from "./render-cron-file.js";

const timer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "gc", exec: "/bin/true", schedule: "@weekly", ...fields });

describe("renderCronFile", () => {
  it("renders the seed's gc timer", async () => {
    const artifact = renderCronFile(timer({ exec: "/usr/local/bin/tend gc --older-than 14d" }));
    expect(artifact).toMatchObject({ path: "/etc/cron.d/tend-gc", mode: 0o644, owner: "root", group: "root" });
    expect(artifact.store).toBeUndefined();
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/cron.d-tend-gc");
  });

  it("writes five-field schedules as written", async () => {
    const artifact = renderCronFile(timer({ name: "report", schedule: "30 2 * * mon-fri", exec: "/opt/report/bin/run --all" }));
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/cron.d-tend-report");
  });

  it("carries env inside the command, and sends a command holding `\\\\` on stdin", async () => {
    const artifact = renderCronFile(
      timer({
        name: "stamp",
        schedule: "*/10 * * * *",
        exec: String.raw`date +%F-%H >> /var/log/stamps; printf '%s\n' "$GREETING" | tr -d '\\' >> /var/log/stamps`,
        env: { RUST_LOG: "info", GREETING: "  it's 100% \"done\"  " },
      }),
    );
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/cron.d-tend-stamp");
  });

  it("always ends in a newline and holds exactly one job line", () => {
    const content = renderCronFile(timer({})).content;
    expect(content.endsWith("\n")).toBe(true);
    expect(content.split("\n").filter((line) => /^[@*0-9]/.test(line))).toEqual(["@weekly root /bin/true"]);
  });
});
