import { describe, expect, it } from "vitest";
import { keepSecretsPrivate, secretValues } from "./secret-env.js";

describe("secret env values", () => {
  it("are the values of secret-looking names, 4 characters or more", () => {
    expect(secretValues({ DB_PASSWORD: "hunter22", api_token: "abcd", GITHUB_KEY: "abc", LANG: "C.UTF-8" })).toEqual(["hunter22", "abcd"]);
    expect(secretValues(undefined)).toEqual([]);
  });

  it("make every file a resource renders readable by its owner only; links, folders and other stores keep theirs", () => {
    const artifacts = [
      { path: "/etc/sv/tend-db/run", content: "#!/bin/sh\n", mode: 0o755 },
      { path: "/etc/systemd/system/tend-db.service", content: "[Service]\n" },
      { path: "/etc/sv/tend-db", content: "", store: "directory", mode: 0o755 },
      { path: "/etc/service/tend-db", content: "/etc/sv/tend-db", store: "symlink" },
      { path: "crontab root: tend:db", content: "x", store: "crontab-block" },
    ];
    expect(keepSecretsPrivate({ DB_PASSWORD: "hunter22" }, artifacts).map((a) => a.mode)).toEqual([0o700, 0o600, 0o755, undefined, undefined]);
    expect(keepSecretsPrivate({ LANG: "C" }, artifacts)).toBe(artifacts);
  });
});
