import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseAptSources } from "./parse-apt-sources.js";

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/apt/${name}`, import.meta.url), "utf8");

describe("parseAptSources", () => {
  it("reads every URI of a deb822 file, with its suites and components (this machine's debian.sources)", () => {
    expect(parseAptSources(fixture("debian.sources"), "deb822")).toEqual([
      { uri: "http://mirror.example/debian", suites: ["bookworm", "bookworm-updates"], components: ["main"] },
      { uri: "http://mirror.example/debian-security", suites: ["bookworm-security"], components: ["main"] },
    ]);
  });

  it("reads a one-line file, skipping options, deb-src and comments", () => {
    const text = [
      "# deb http://old.example/debian bookworm main",
      "deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] http://de.mirror.example/debian bookworm main contrib",
      "deb-src http://de.mirror.example/debian bookworm main",
      "",
      fixture("google-cloud-sdk.list"),
    ].join("\n");
    expect(parseAptSources(text, "one-line")).toEqual([
      { uri: "http://de.mirror.example/debian", suites: ["bookworm"], components: ["main", "contrib"] },
      { uri: "https://vendor.example/apt", suites: ["cloud-sdk-bookworm"], components: ["main"] },
    ]);
  });

  it("skips deb822 stanzas that are disabled or only deb-src, and joins continuation lines", () => {
    const text = [
      "Types: deb",
      "URIs: http://a.example/debian",
      "Suites: bookworm",
      "Components: main",
      "Enabled: no",
      "",
      "Types: deb-src",
      "URIs: http://b.example/debian",
      "Suites: bookworm",
      "Components: main",
      "",
      "Types: deb deb-src",
      "URIs: http://c.example/debian",
      "Suites: bookworm",
      " bookworm-updates",
      "Components: main",
    ].join("\n");
    expect(parseAptSources(text, "deb822")).toEqual([
      { uri: "http://c.example/debian", suites: ["bookworm", "bookworm-updates"], components: ["main"] },
    ]);
  });
});
