import type { Artifact } from "@tend/core";
import { expect } from "vitest";

/**
 * Every artifact as it would land — store, path, mode, owner and bytes — as one reviewable text,
 * for golden files: a change to a render shows up as a diff of this.
 */
export function goldenListing(artifacts: Artifact[]): string {
  return artifacts
    .map((a) => {
      const mode = a.mode === undefined ? "" : ` ${a.mode.toString(8).padStart(4, "0")}`;
      const owner = a.owner || a.group ? ` ${a.owner ?? ""}:${a.group ?? ""}` : "";
      const store = a.store ?? "file";
      if (store === "directory") return `== directory ${a.path}${mode}${owner}${a.ephemeral?.length ? ` (the init creates: ${a.ephemeral.join(", ")})` : ""}\n`;
      if (store === "symlink") return `== symlink ${a.path} -> ${a.content}\n`;
      return `== ${store === "file" ? "file" : store} ${a.path}${mode}${owner}\n${a.content}${a.content.endsWith("\n") || a.content === "" ? "" : "\n"}`;
    })
    .join("\n");
}

/** Asserts a render against a golden file beside the test (`vitest -u` writes it). */
export async function expectGolden(artifacts: Artifact[], file: string | URL): Promise<void> {
  await expect(goldenListing(artifacts)).toMatchFileSnapshot(typeof file === "string" ? file : file.pathname);
}
