import { describe, expect, it } from "vitest";
import { emptyState, type StateFile } from "./state-file.js";
import { stateJsonPieces } from "./state-json-pieces.js";

const text = (state: StateFile) => [...stateJsonPieces(state)].join("");

describe("stateJsonPieces", () => {
  it("is JSON.stringify(state, null, 2) and a newline, in pieces", () => {
    const full: StateFile = {
      version: 2,
      serial: 7,
      resources: {
        "service:web": {
          resource: { type: "service", name: "web", exec: "/opt/web --name \"ünï😀\"\n", after: ["db"] },
          provider: "runit",
          artifacts: [
            { store: "directory", path: "/etc/sv/tend-web", hash: "sha256:a", ephemeral: ["supervise"] },
            { store: "file", path: "/etc/sv/tend-web/run", hash: null, writing: "sha256:b" },
          ],
          pending: ["restart"],
          pendingWhy: { restart: "file:conf changed" },
          version: undefined,
        },
        'file:"odd\\key': { resource: { type: "file", name: "odd", path: "/etc/odd", content: "sha256:c" }, provider: "core", artifacts: [] },
      },
      providers: { s6: { generation: 3, nested: { list: [1, 2], empty: {} } }, runit: {} },
    };
    for (const state of [emptyState(), full, { ...full, resources: {} }, { ...full, providers: {} }]) {
      expect(text(state)).toBe(`${JSON.stringify(state, null, 2)}\n`);
    }
  });

  it("gives one piece per record, so no piece holds the whole state", () => {
    const state = emptyState();
    for (let i = 0; i < 100; i += 1) state.resources[`service:s${i}`] = { resource: { type: "service", name: `s${i}` }, provider: "runit", artifacts: [] };
    const pieces = [...stateJsonPieces(state)];
    expect(pieces.length).toBeGreaterThan(200);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(200);
  });
});
