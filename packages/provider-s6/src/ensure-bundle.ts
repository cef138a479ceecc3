import { TendError, type ApplyContext, type ReadContext } from "@tend/core/contract";
import { BUNDLE_DIR } from "./s6-layout.js";

const TYPE = `${BUNDLE_DIR}/type`;
const CONTENTS = `${BUNDLE_DIR}/contents.d`;

/**
 * Creates the `tend` bundle's `type` file and `contents.d` folder when missing. They are shared by
 * all tend services and outlive them: the host's boot bundle names `tend`, so the bundle must
 * compile even when it is empty.
 */
export async function ensureBundle(ctx: ApplyContext): Promise<void> {
  const problem = await bundleProblem(ctx);
  if (problem) throw problem;
  if (!(await ctx.files.exists(TYPE))) await ctx.files.writeFile(TYPE, "bundle\n", { mode: 0o644 });
  if (!(await ctx.files.isDirectory(CONTENTS))) await ctx.files.mkdir(CONTENTS, { mode: 0o755 });
}

/** An error when `/etc/s6/sv/tend` exists but is not a bundle (someone else's service of that name). */
export async function bundleProblem(ctx: ReadContext): Promise<TendError | undefined> {
  if (!(await ctx.files.exists(TYPE))) return undefined;
  const type = await ctx.files.readFile(TYPE);
  if (type?.trim() === "bundle") return undefined;
  return new TendError("TEND_S6_BUNDLE", `${BUNDLE_DIR} is not a bundle (its type file says \`${type?.trim() ?? "?"}\`), but tend keeps its services in the bundle \`tend\``, {
    hint: `Rename that service definition: tend owns the name \`tend\` in ${BUNDLE_DIR.slice(0, BUNDLE_DIR.lastIndexOf("/"))}`,
  });
}
