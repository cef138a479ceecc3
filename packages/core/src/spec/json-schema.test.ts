import { describe, expect, it } from "vitest";
import { buildJsonSchema } from "./json-schema.js";

describe("the committed JSON Schema", () => {
  it("is what the zod schema generates (run vitest -u after changing the model)", async () => {
    await expect(`${JSON.stringify(buildJsonSchema(), null, 2)}\n`).toMatchFileSnapshot("../../schema.json");
  });

  it("describes every resource type with tend: v1alpha1", () => {
    const schema = buildJsonSchema();
    const branches = (schema.oneOf ?? schema.anyOf) as { properties: Record<string, { enum?: string[] }>; required: string[] }[];
    expect(branches.map((b) => b.properties.type!.enum)).toEqual([
      ["service", "Service"],
      ["timer", "Timer"],
      ["file", "File"],
      ["package", "Package"],
    ]);
    expect(branches.every((b) => b.required.includes("tend"))).toBe(true);
    expect(Object.keys(branches[0]!.properties)).toEqual(expect.arrayContaining(["restartOn", "reloadOn", "desired", "systemd", "launchd", "verify"]));
    expect(branches[3]!.properties).toMatchObject({ state: { enum: ["present", "absent", "latest"] }, version: { type: "string" } });
  });
});
