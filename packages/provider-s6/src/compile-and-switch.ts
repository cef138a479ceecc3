import { basename } from "node:path";
import { errors, TendError, type ApplyContext, type ResourceChange } from "@tend/core/contract";
import { readCompiledSources, readSources, sameSources, writeManifest } from "./compiled-sources.js";
import { conversionFile } from "./conversion-file.js";
import { ensureBundle } from "./ensure-bundle.js";
import { parseNameList } from "./name-list.js";
import { listLiveServicesCommand } from "./s6-rc-commands.js";
import { lastGeneration, recordUpdate } from "./s6-rc-state.js";
import { CURRENT_DATABASE, DATABASE_DIR, LIVE_DIR, SOURCE_DIR, databasePath, serviceName } from "./s6-layout.js";
import { withHardStackLimit } from "./with-hard-stack-limit.js";

/**
 * The seed's apply for s6, once per apply after every file is written: compile `/etc/s6/sv` into
 * a fresh `/etc/s6/db/tend-g<generation>-a`, switch the live state to it with s6-rc-update
 * (restarting, through a conversion file `tend-g<generation>-a.conversion`, every changed longrun
 * that is to be restarted), then
 * point `/etc/s6/db/current`, the database boot uses, at it. Offline (`--root`) it compiles and
 * flips `current` only. Old databases stay where they are; tend never deletes one, so it never
 * touches the live one.
 *
 * Beside each database it compiles, tend notes what it compiled (`tend-g<generation>-a.sources`,
 * see compiled-sources.ts), so an image root is observed without s6-rc's tools.
 *
 * Nothing to do when no source definition changed, no service's boot membership has to be
 * brought in line (an `enable`/`disable` with files already right means the last compile never
 * happened, for instance after an interrupted apply), and the database boot uses was compiled
 * from the sources as they are.
 */
export async function compileAndSwitch(changes: ResourceChange[], paths: string[], ctx: ApplyContext): Promise<void> {
  const sourcesChanged = paths.some((path) => path === SOURCE_DIR || path.startsWith(`${SOURCE_DIR}/`));
  const bootChanged = changes.some((change) => change.ops.includes("enable") || change.ops.includes("disable"));
  if (!sourcesChanged && !bootChanged && !(await compiledFromOtherSources(ctx))) {
    // No switch in this apply: what an earlier one restarted must not spare a restart now.
    recordUpdate(ctx.state, { generation: lastGeneration(ctx.state), services: [] });
    return;
  }
  await ensureBundle(ctx);
  await ctx.files.mkdir(DATABASE_DIR, { mode: 0o755 });
  let generation = lastGeneration(ctx.state) + 1;
  while (await ctx.files.exists(databasePath(generation))) generation += 1;
  const database = databasePath(generation);
  const sources = await readSources(ctx.files);
  await compile(database, ctx);
  await writeManifest(database, sources, ctx.files);
  if (ctx.offline) {
    recordUpdate(ctx.state, { generation, services: [] });
    await ctx.files.symlink(CURRENT_DATABASE, basename(database));
    ctx.log(`s6-rc: compiled ${database}; ${CURRENT_DATABASE} points at it`);
    return;
  }
  const restarts = await restartsForUpdate(changes, ctx);
  // The conversion file stays next to its database, a record of what that switch restarted. (Not
  // through /dev/stdin: under tend's runner s6-rc-update failed to open it, ENXIO.)
  const conversion = `${database}.conversion`;
  if (restarts.length > 0) await ctx.files.writeFile(conversion, conversionFile(restarts), { mode: 0o644 });
  const argv = ["s6-rc-update", "-b", "-l", LIVE_DIR, ...(restarts.length > 0 ? ["-f", conversion] : []), database];
  const update = await ctx.run.run({ argv, okCodes: [0, 1, 2], timeoutMs: 180_000 });
  recordUpdate(ctx.state, { generation, services: restarts });
  await ctx.files.symlink(CURRENT_DATABASE, basename(database));
  ctx.log(`s6-rc: switched to ${database}${restarts.length > 0 ? `, restarting ${restarts.join(" ")}` : ""}; ${CURRENT_DATABASE} points at it`);
  if (update.exitCode !== 0) {
    // 1 and 2: the database was switched (so `current` follows it), but some transitions failed.
    throw errors.commandFailed(argv, update.exitCode, `${update.stderr.trim() || "some services did not change state"}; the live database is ${database}`);
  }
}

/**
 * `s6-rc-compile DATABASE /etc/s6/sv`. It keeps data for every service definition on its stack:
 * at ~10,000 definitions the default 8 MB stack overflows and it dies of SIGSEGV, before it
 * makes the database (s6-rc 0.5.4 and 0.6.1, measured; 16 MB is enough for 10,000). It is then
 * run once more with its stack's soft limit raised to the hard one, which is unlimited on most
 * hosts. Only when that dies too does the failure say how to give it more.
 */
async function compile(database: string, ctx: ApplyContext): Promise<void> {
  const argv = ["s6-rc-compile", ctx.files.real(database), ctx.files.real(SOURCE_DIR)];
  try {
    await ctx.run.run({ argv, timeoutMs: 120_000 });
    return;
  } catch (error) {
    if (!diedOfSegfault(error)) throw error;
  }
  ctx.log(`s6-rc: s6-rc-compile overflowed its stack; compiling again with the stack's soft limit raised to its hard one`);
  const wrapped = withHardStackLimit(argv);
  try {
    await ctx.run.run({ argv: wrapped, timeoutMs: 120_000 });
  } catch (error) {
    if (!TendError.isInstance(error)) throw error;
    // The failure names s6-rc-compile, as the first run's would, not the shell that raised its limit.
    const message = error.message.replace(`\`${wrapped.join(" ")}\``, `\`${argv.join(" ")}\``);
    const hint = diedOfSegfault(error)
      ? `s6-rc-compile overflows its stack compiling thousands of services, even at the hard limit tend raised it to; run tend with a bigger hard limit (\`ulimit -H -s unlimited\` as root), which s6-rc-compile inherits`
      : error.hint;
    throw new TendError(error.code, message, { ...error.location, cause: error, ...(hint ? { hint } : {}) });
  }
}

function diedOfSegfault(error: unknown): boolean {
  return TendError.isInstance(error) && /did not finish: killed by SIGSEGV/.test(error.message);
}

/** Whether the database boot uses is one tend compiled from sources other than those on disk now. */
async function compiledFromOtherSources(ctx: ApplyContext): Promise<boolean> {
  const compiled = await readCompiledSources(ctx.files);
  return compiled !== undefined && !sameSources(compiled.sources, await readSources(ctx.files));
}

/**
 * Changed longruns that run and are to be restarted. A conversion file may only name services of
 * the live database (s6-rc-update exits 3 otherwise), so the ones it does not hold yet are left
 * to `apply`, which starts them.
 */
async function restartsForUpdate(changes: ResourceChange[], ctx: ApplyContext): Promise<string[]> {
  const wanted = changes
    .filter((change) => change.action === "change" && change.filesChanged && change.ops.includes("restart"))
    .map((change) => serviceName(change.resource.name));
  if (wanted.length === 0) return [];
  const live = parseNameList((await ctx.run.run(listLiveServicesCommand())).stdout);
  return wanted.filter((name) => live.has(name)).sort();
}
