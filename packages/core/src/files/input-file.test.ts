import { chmod, chown, lchown, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { inputFileProblem } from "./input-file.js";

const isRoot = process.getuid?.() === 0;
const NOBODY = 65534;

/** A spec in a new folder of root's, writable by root alone. */
async function spec(): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "tend-input-trust-"));
  const file = join(dir, "tend.yaml");
  await writeFile(file, "tend: v1alpha1\n", { mode: 0o644 });
  return { dir, file };
}

describe.runIf(isRoot)("a spec read as root", () => {
  const sudoUid = process.env.SUDO_UID;
  afterEach(() => {
    if (sudoUid === undefined) delete process.env.SUDO_UID;
    else process.env.SUDO_UID = sudoUid;
  });

  it("is read when root alone can change it and every folder above it (sticky /tmp included)", async () => {
    delete process.env.SUDO_UID;
    const { file } = await spec();
    expect(inputFileProblem(file, "spec")).toBeUndefined();
  });

  it("is refused when its group or every user may write it, naming the file", async () => {
    delete process.env.SUDO_UID;
    const { file } = await spec();
    await chmod(file, 0o664);
    expect(inputFileProblem(file, "spec")).toEqual({
      message: `refusing to read ${file} as root: ${file} is writable by its group, who could change what root would run`,
      hint: "Give the spec and the folders above it to root, writable by no one else (chown root; chmod go-w), or run tend through sudo as their owner",
    });
    await chmod(file, 0o646);
    expect(inputFileProblem(file, "spec")?.message).toBe(`refusing to read ${file} as root: ${file} is writable by every user, who could change what root would run`);
  });

  it("is refused when another user owns it, unless that user ran tend through sudo", async () => {
    delete process.env.SUDO_UID;
    const { file } = await spec();
    await chown(file, NOBODY, NOBODY);
    expect(inputFileProblem(file, "inventory")?.message).toBe(`refusing to read ${file} as root: ${file} belongs to uid ${NOBODY}, who could change what root would run`);
    process.env.SUDO_UID = String(NOBODY);
    expect(inputFileProblem(file, "inventory")).toBeUndefined();
    process.env.SUDO_UID = "not a number";
    expect(inputFileProblem(file, "inventory")?.message).toContain(`belongs to uid ${NOBODY}`);
  });

  it("is refused when a folder above it may be written by others, unless the folder is sticky", async () => {
    delete process.env.SUDO_UID;
    const { dir } = await spec();
    const shared = join(dir, "shared");
    await mkdir(shared);
    const file = join(shared, "tend.yaml");
    await writeFile(file, "tend: v1alpha1\n", { mode: 0o644 });
    await chmod(shared, 0o777);
    // Anyone could rename the spec away and put their own in its place.
    expect(inputFileProblem(file, "spec")?.message).toBe(`refusing to read ${file} as root: ${shared} is writable by every user, who could change what root would run`);
    await chmod(shared, 0o1777);
    expect(inputFileProblem(file, "spec")).toBeUndefined();
  });

  it("is refused when a link leads it into another user's folder, or the link is theirs", async () => {
    delete process.env.SUDO_UID;
    const { dir, file: safe } = await spec();
    const theirs = join(dir, "theirs");
    await mkdir(theirs);
    const target = join(theirs, "tend.yaml");
    await writeFile(target, "tend: v1alpha1\n", { mode: 0o644 });
    await chown(theirs, NOBODY, NOBODY);
    const link = join(dir, "linked.yaml");
    await symlink(target, link);
    expect(inputFileProblem(link, "spec")?.message).toBe(`refusing to read ${link} as root: ${theirs} belongs to uid ${NOBODY}, who could change what root would run`);
    const theirLink = join(dir, "their-link.yaml");
    await symlink(safe, theirLink);
    await lchown(theirLink, NOBODY, NOBODY);
    expect(inputFileProblem(theirLink, "spec")?.message).toBe(`refusing to read ${theirLink} as root: ${theirLink} is a link owned by uid ${NOBODY}, who could repoint what root would run`);
  });
});
