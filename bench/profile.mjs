// Where a no-op `tend plan` spends its time: runs it under `node --cpu-prof` (200 runit services
// in an image root, a tend.yaml and a tend.config.ts) and prints the CPU time by part, then the
// busiest functions. Usage: node bench/profile.mjs [services]   (build first)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CLI, cleanUp, freshDir, imageRoot, serviceSpec } from "./measure.mjs";

const n = Number(process.argv[2] ?? 200);
const PARTS = [
  ["garbage collection", (url, fn) => fn === "(garbage collector)"],
  ["idle (waiting on I/O)", (url, fn) => fn === "(idle)"],
  ["node's start (bootstrap, built-in modules)", (url) => /^node:internal\/(bootstrap|process|main)|^node:internal\/per_context/.test(url)],
  ["loading modules (resolve, read, compile)", (url, fn) => /^node:internal\/(modules|deps\/cjs-module-lexer)/.test(url) || fn === "compileSourceTextModule"],
  ["jiti (TypeScript spec)", (url) => url.includes("/jiti/")],
  ["providers", (url) => url.includes("/provider-")],
  ["tend core and CLI", (url) => url.includes("/packages/core/") || url.includes("/packages/cli/")],
];

function profile(spec, root) {
  const dir = freshDir("tend-bench-prof-");
  execFileSync(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, CLI, "plan", "-f", spec, "--init", "runit", "--root", root], { stdio: "ignore" });
  const data = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]), "utf8"));
  const nodes = new Map(data.nodes.map((node) => [node.id, node]));
  const self = new Map();
  data.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (data.timeDeltas[i] ?? 0)));
  const parts = new Map();
  const functions = new Map();
  let total = 0;
  for (const [id, us] of self) {
    const { url, functionName, lineNumber } = nodes.get(id).callFrame;
    const fn = functionName || "(anonymous)";
    const part = PARTS.find(([, test]) => test(url, fn))?.[0] ?? "other (node built-ins at run time)";
    parts.set(part, (parts.get(part) ?? 0) + us);
    const where = `${fn} ${url.replace(/^.*\/(packages|node_modules)\//, "")}:${lineNumber}`;
    functions.set(where, (functions.get(where) ?? 0) + us);
    total += us;
  }
  return { total, parts, functions };
}

const spec = serviceSpec(n);
const config = join(spec, "..", "tend.config.ts");
writeFileSync(config, `import { defineConfig, service } from "@tend/core";\nexport default defineConfig({ resources: Array.from({ length: ${n} }, (_, i) => service(\`svc\${i}\`, { exec: \`/opt/svc/bin/run --id \${i}\`, restart: "always", ...(i % 10 === 1 ? { after: [\`svc\${i - 1}\`] } : {}) })) });\n`);
for (const file of [spec, config]) {
  const root = imageRoot();
  execFileSync(process.execPath, [CLI, "apply", "-f", file, "--init", "runit", "--root", root], { stdio: "ignore" });
  profile(file, root); // warms the cache a real second run finds
  const { total, parts, functions } = profile(file, root);
  console.log(`\nno-op plan, ${n} runit services, ${file.endsWith(".ts") ? "tend.config.ts" : "tend.yaml"}: ${(total / 1000).toFixed(0)} ms sampled`);
  for (const [part, us] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`  ${(us / 1000).toFixed(0).padStart(5)} ms  ${((100 * us) / total).toFixed(0).padStart(3)}%  ${part}`);
  console.log("  busiest functions:");
  for (const [where, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 8)) console.log(`  ${(us / 1000).toFixed(1).padStart(6)} ms  ${where}`);
}
cleanUp();
