import type { Timer } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderCrontabBlock } from "./render-crontab-block.js";

const timer = (fields: Partial<Timer>): Timer => ({ type: "timer", name: "backup", exec: "/bin/true", schedule: "30 2 * * *", user: true, ...fields });

describe("renderCrontabBlock", () => {
  it("renders the seed's backup timer as a block in alice's crontab", async () => {
    const artifact = renderCrontabBlock(timer({ exec: "restic backup ~/Documents" }), "alice");
    expect(artifact).toEqual({ store: "crontab-block", path: "crontab alice: tend:backup", content: expect.any(String) });
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/crontab-block-backup");
  });

  it("keeps env inside the job line, so it cannot reach the user's own lines", async () => {
    const artifact = renderCrontabBlock(
      timer({ name: "notes", schedule: "@hourly", exec: "notes-sync --since 1h > ~/.notes.log 2>&1", env: { NOTES_DIR: "~/My Notes", LANG: "C.UTF-8" } }),
      "alice",
    );
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/crontab-block-notes");
    expect(artifact.content.split("\n").filter((line) => /^[A-Za-z_][A-Za-z0-9_]*[ \t]*=/.test(line))).toEqual([]);
  });

  it("escapes % as cron needs", async () => {
    const artifact = renderCrontabBlock(timer({ name: "days", schedule: "0 9 * * 1-5", exec: "date +%F >> ~/days" }), "alice");
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/crontab-block-days");
  });

  it("sends a command holding `\\\\` or `\\%` on stdin, still one job line between the markers", async () => {
    const artifact = renderCrontabBlock(timer({ name: "strip", schedule: "@daily", exec: String.raw`tr -d '\\' < ~/in > ~/out; date +%F` }), "alice");
    await expect(artifact.content).toMatchFileSnapshot("./__golden__/crontab-block-strip");
    expect(artifact.content.split("\n")).toHaveLength(4);
  });
});
