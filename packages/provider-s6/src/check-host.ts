import { TendError, type ReadContext } from "@tend/core/contract";
import { bundleProblem } from "./ensure-bundle.js";
import { CURRENT_DATABASE, LIVE_DIR } from "./s6-layout.js";

/**
 * Host set-up tend relies on, checked at plan time: s6-rc's live state (unless applying into an
 * image root), `current` being a link tend can flip, and the name `tend` being free for the bundle.
 */
export async function checkS6Host(ctx: ReadContext): Promise<TendError[]> {
  const found: TendError[] = [];
  const bundle = await bundleProblem(ctx);
  if (bundle) found.push(bundle);
  if ((await ctx.files.exists(CURRENT_DATABASE)) && (await ctx.files.readLink(CURRENT_DATABASE)) === null) {
    found.push(
      new TendError("TEND_S6_CURRENT", `${CURRENT_DATABASE} is not a symbolic link, so tend cannot point boot at the databases it compiles`, {
        hint: `Move the database elsewhere, make ${CURRENT_DATABASE} a link to it, and boot with \`s6-rc-init -c ${CURRENT_DATABASE}\``,
      }),
    );
  }
  if (ctx.root === undefined && !(await ctx.files.isDirectory(LIVE_DIR))) {
    found.push(
      new TendError("TEND_S6RC_NOT_RUNNING", `s6-rc has no live state in ${LIVE_DIR}: tend manages s6 services through s6-rc`, {
        hint: `Boot with \`s6-rc-init -c ${CURRENT_DATABASE} -l ${LIVE_DIR} SCANDIR\` after s6-svscan starts, or apply into an image with --root`,
      }),
    );
  }
  return found;
}
