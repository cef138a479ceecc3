// Bundles a package's sources with esbuild into dist/ (tsc writes only the declarations): a few
// files load far faster than a hundred ES modules. Each bundled third-party package's licence goes
// into dist/THIRD-PARTY-NOTICES.md. Used by the build.mjs of @tend/core and @tend/cli, and by every provider (bundle-provider.mjs).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { build } from "esbuild";

/** A placeholder the build replaces with the hash of every input (same length, so maps stay right). */
const BUILD_ID_PLACEHOLDER = "0".repeat(63) + "x";

/**
 * @param {object} options
 * @param {string} options.dir the package folder
 * @param {Record<string, string>} options.entryPoints output name (under dist/) → source
 * @param {string[]} options.external packages left to Node's resolution at run time
 * @param {boolean} [options.splitting] share code between entries (one copy of each module)
 * @param {string} [options.buildIdName] a global replaced by the hash of every bundled input
 * @param {Record<string, string>} [options.facades] output name → source whose exports it re-exports
 *   from the bundle's outputs (an entry, or a chunk that a dynamic import loads): one copy of
 *   every module, and no chunks shared between entries for Node to load one by one
 * @param {Record<string, string>} [options.alone] output name → source bundled whole, on its own
 *   (a program's main that runs in a process of its own, so shares nothing at run time)
 */
export async function bundlePackage({ dir, entryPoints, external, splitting = false, buildIdName, facades = {}, alone = {} }) {
  const options = {
    absWorkingDir: dir,
    outdir: join(dir, "dist"),
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20.5",
    chunkNames: "chunks/[name]-[hash]",
    external,
    sourcemap: true,
    sourcesContent: true,
    legalComments: "none",
    // Less to read and parse at every start (zod alone is 800 kB of source); names are kept, so
    // stack traces stay readable, and the source maps point at the sources.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: "warning",
    // Bundled CommonJS (semver, yaml, cross-spawn) requires Node's built-ins.
    banner: { js: 'import { createRequire as __tendCreateRequire } from "node:module";\nconst require = __tendCreateRequire(import.meta.url);' },
    define: buildIdName ? { [buildIdName]: JSON.stringify(BUILD_ID_PLACEHOLDER) } : {},
    plugins: [lazyBuiltins],
  };
  const results = [await build({ ...options, entryPoints, splitting })];
  for (const [name, source] of Object.entries(alone)) results.push(await build({ ...options, entryPoints: { [name]: source }, splitting: false }));
  const metafile = {
    inputs: Object.assign({}, ...results.map((r) => r.metafile.inputs)),
    outputs: Object.assign({}, ...results.map((r) => r.metafile.outputs)),
  };
  for (const [name, source] of Object.entries(facades)) await writeFacade(dir, name, source, results[0].metafile, options);
  const inputs = Object.keys(metafile.inputs).filter((input) => !input.startsWith("lazy-builtin:")).sort();
  if (buildIdName) stampBuildId(dir, metafile, inputs);
  writeNotices(dir, inputs);
  return metafile;
}

/**
 * dist/<name>.js re-exporting each of `source`'s exports from the first output of the bundle that
 * exports it, entries before the chunks of dynamic imports. Fails the build when an export is in
 * no output (the facade would lack it).
 */
async function writeFacade(dir, name, source, metafile, options) {
  const analysis = await build({ ...options, entryPoints: [source], write: false, sourcemap: false, splitting: false, outdir: undefined, outfile: join(dir, "dist", `${name}.js`) });
  const names = Object.values(analysis.metafile.outputs).find((output) => output.entryPoint)?.exports ?? [];
  const outputs = Object.entries(metafile.outputs)
    .filter(([path, output]) => path.endsWith(".js") && output.entryPoint)
    .sort(([a], [b]) => Number(a.includes("/chunks/")) - Number(b.includes("/chunks/")));
  const from = new Map();
  for (const exported of names) {
    const found = outputs.find(([, output]) => output.exports.includes(exported));
    if (!found) throw new Error(`${name}: no output of the bundle exports ${exported} (from ${source})`);
    from.set(found[0], [...(from.get(found[0]) ?? []), exported]);
  }
  const facadeDir = dirname(join(dir, "dist", `${name}.js`));
  const lines = [...from].map(([output, exported]) => {
    let path = relative(facadeDir, join(dir, output));
    if (!path.startsWith(".")) path = `./${path}`;
    return `export { ${exported.sort().join(", ")} } from ${JSON.stringify(path)};`;
  });
  mkdirSync(facadeDir, { recursive: true });
  writeFileSync(join(dir, "dist", `${name}.js`), `// ${source}'s exports, from the one copy of each module in this bundle.\n${lines.join("\n")}\n`);
}

/**
 * import-meta-resolve's default imports of `node:process`, `node:assert` and `node:v8` become the
 * global process, a plain `ok` and `node:v8` loaded on first use. An ES module import of
 * a built-in reads every export at once, getters included: `node:process` alone then loads the
 * diagnostic report and heap utilities, ~6 ms of a start that needs the resolver, for code that runs
 * only on an error.
 * (execa, loaded only where used, imports named exports and is left alone.) A named import in
 * import-meta-resolve fails the build: the stand-ins export only a default.
 */
const STAND_INS = {
  "node:process": "export default process;",
  // It only ever calls assert.ok(value, message) on its own invariants.
  "node:assert": 'function ok(value, message) { if (!value) throw Object.assign(new Error(message ?? "assertion failed"), { code: "ERR_ASSERTION" }); }\nexport default Object.assign(ok, { ok });',
  "node:v8": 'let v8; export default new Proxy({}, { get: (_, key) => (v8 ??= require("node:v8"))[key] });',
};
const lazyBuiltins = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^node:(process|assert|v8)$/ }, (args) =>
      args.importer.includes("/import-meta-resolve/") ? { path: args.path, namespace: "lazy-builtin" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, ({ path }) => ({ loader: "js", contents: STAND_INS[path] }));
  },
};

function stampBuildId(dir, metafile, inputs) {
  const hash = createHash("sha256");
  for (const input of inputs) hash.update(input).update(readFileSync(join(dir, input)));
  const id = hash.digest("hex");
  for (const output of Object.keys(metafile.outputs).filter((name) => name.endsWith(".js"))) {
    const path = join(dir, output);
    writeFileSync(path, readFileSync(path, "utf8").replaceAll(BUILD_ID_PLACEHOLDER, id));
  }
}

/** The licence of every third-party package whose code is in the bundle. */
function writeNotices(dir, inputs) {
  const packages = new Map();
  for (const input of inputs) {
    const at = input.lastIndexOf("node_modules/");
    if (at < 0) continue;
    const rest = input.slice(at + "node_modules/".length).split("/");
    const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    const root = join(dir, input.slice(0, at), "node_modules", name);
    if (!packages.has(name)) packages.set(name, root);
  }
  const sections = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, root]) => {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const licenceFile = readdirSync(root).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
    const text = licenceFile ? readFileSync(join(root, licenceFile), "utf8").trim() : `${manifest.license ?? "see the package"}`;
    return `## ${name}@${manifest.version} (${manifest.license ?? "unknown"})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
  const header = "# Third-party code in this package\n\nThe files in dist/ bundle the following packages; their licences follow.\n\n";
  if (sections.length > 0) writeFileSync(join(dir, "dist", "THIRD-PARTY-NOTICES.md"), header + sections.join("\n"));
}
