import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentHash } from "./content-hash.js";

describe("contentHash", () => {
  it("is sha256: and the hex SHA-256 of the UTF-8 bytes", () => {
    expect(contentHash("abc")).toBe("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    for (const text of ["", "port = 8080\n", "ünï 😀\n".repeat(1000)]) {
      expect(contentHash(text)).toBe(`sha256:${createHash("sha256").update(Buffer.from(text, "utf8")).digest("hex")}`);
    }
  });
});
