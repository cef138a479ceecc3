import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServiceSchema, type Artifact, type Service } from "@tend/core";
import { renderLongrun } from "./render-longrun.js";

function service(fields: Omit<Service, "type">): Service {
  return ServiceSchema.parse({ type: "service", ...fields });
}

/** All artifacts of a render as one reviewable text: path, store and mode, then the bytes. */
function showArtifacts(artifacts: Artifact[]): string {
  return artifacts
    .map((a) => `== ${a.path}  (${a.store ?? "file"}, ${a.mode?.toString(8) ?? "-"})\n${a.content}`)
    .join("");
}

function contentOf(artifacts: Artifact[], path: string): string {
  const found = artifacts.find((a) => a.path === path);
  if (!found) throw new Error(`no artifact ${path}`);
  return found.content;
}

describe("renderLongrun", () => {
  it("renders the seed's web service (on_failure, env)", async () => {
    const artifacts = renderLongrun(
      service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" } }),
    );
    await expect(showArtifacts(artifacts)).toMatchFileSnapshot("./__golden__/web.txt");
  });

  it("renders the seed's syncthing service (bare command through /usr/bin/env; always: a finish that only ends the session)", async () => {
    const artifacts = renderLongrun(service({ name: "syncthing", exec: "syncthing serve --no-browser", restart: "always", after: ["network"] }));
    await expect(showArtifacts(artifacts)).toMatchFileSnapshot("./__golden__/syncthing.txt");
    expect(contentOf(artifacts, "/etc/s6/sv/tend-syncthing/finish")).not.toContain("exit 125");
  });

  it("orders after other tend services with dependencies.d and ignores network (default restart: no)", async () => {
    const artifacts = renderLongrun(service({ name: "api", exec: "/usr/local/bin/api", after: ["network", "db", "cache", "db"] }));
    await expect(showArtifacts(artifacts)).toMatchFileSnapshot("./__golden__/api-after.txt");
  });

  it("runs shell syntax through /bin/sh -c and single-quotes env values", async () => {
    const artifacts = renderLongrun(
      service({ name: "pipe", exec: "tail -F /var/log/app.log | grep -v DEBUG", restart: "always", env: { MSG: "it's $HOME `x`", EMPTY: "" } }),
    );
    await expect(showArtifacts(artifacts)).toMatchFileSnapshot("./__golden__/pipe-shell.txt");
  });

  it("leaves a service disabled at boot out of the tend bundle", () => {
    const artifacts = renderLongrun(service({ name: "web", exec: "/opt/web/bin/server", desired: { state: "running", enabled: false } }));
    expect(artifacts.map((a) => a.path)).not.toContain("/etc/s6/sv/tend/contents.d/tend-web");
    expect(artifacts.map((a) => a.path)).toContain("/etc/s6/sv/tend-web/run");
  });

  it("never renders the shared bundle type file as one service's artifact", () => {
    const artifacts = renderLongrun(service({ name: "web", exec: "/opt/web/bin/server" }));
    expect(artifacts.map((a) => a.path)).not.toContain("/etc/s6/sv/tend/type");
    expect(artifacts.filter((a) => a.path.startsWith("/etc/s6/sv/tend/"))).toEqual([
      { path: "/etc/s6/sv/tend/contents.d/tend-web", content: "", mode: 0o644 },
    ]);
  });

  it("is pure: the same service gives the same bytes", () => {
    const fields = { name: "web", exec: "/opt/web/bin/server", env: { A: "1", B: "2" }, after: ["db"] };
    expect(renderLongrun(service(fields))).toEqual(renderLongrun(service(fields)));
  });

  it("refuses an after entry that is not a service name (it would be a path)", () => {
    expect(() => renderLongrun(service({ name: "web", exec: "/bin/true", after: ["../../etc/passwd"] }))).toThrow(/invalid `after`/);
  });

  it("gives the seed's error for a service without exec", () => {
    expect(() => renderLongrun(service({ name: "gdm" }))).toThrow(
      "service:gdm has no exec, and enabling a unit the system ships is not supported on s6",
    );
  });
});

/** Runs a rendered `run` as s6-supervise would, in a service directory of its own; resolves with its output and the session it noted. */
function runScript(run: string): { out: string; noted: string } {
  const dir = mkdtempSync(join(tmpdir(), "tend-s6-run-"));
  try {
    mkdirSync(join(dir, "supervise"));
    const out = execFileSync("/bin/sh", ["-c", run], { encoding: "utf8", cwd: dir, env: { PATH: "/usr/bin:/bin" } });
    return { out, noted: readFileSync(join(dir, "supervise/tend-session"), "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("run script under a real /bin/sh", () => {
  it("exports every env value byte for byte", () => {
    const values = { A: "plain", B: "it's", C: "$HOME `id` $(id) \\n \"q\"", D: "", E: "  spaced  ", F: "*", G: "~root" };
    const run = contentOf(renderLongrun(service({ name: "env", exec: "/usr/bin/env", env: values })), "/etc/s6/sv/tend-env/run");
    const { out } = runScript(run);
    const seen = Object.fromEntries(out.split("\n").filter((l) => /^[A-G]=/.test(l)).map((l) => [l.slice(0, 1), l.slice(2)]));
    expect(seen).toEqual(values);
  });

  it("runs a plain command with its arguments, and shell syntax as typed", () => {
    const plain = contentOf(renderLongrun(service({ name: "p", exec: "printf %s:%s a b" })), "/etc/s6/sv/tend-p/run");
    expect(runScript(plain).out).toBe("a:b");
    const shell = contentOf(
      renderLongrun(service({ name: "s", exec: `printf '%s' "$GREETING" | tr a-z A-Z`, env: { GREETING: "hi there" } })),
      "/etc/s6/sv/tend-s/run",
    );
    expect(runScript(shell).out).toBe("HI THERE");
  });

  it("notes its own pid (the session s6-supervise made it lead), then becomes parseExec's argv with no shell of tend's own", () => {
    const argvOf = (exec: string) => {
      const run = contentOf(renderLongrun(service({ name: "x", exec })), "/etc/s6/sv/tend-x/run").replace(/^exec (?!2>&1)/m, () => "echo $$; printf '%s\\n' ");
      const { out, noted } = runScript(run);
      const [pid, ...argv] = out.split("\n").slice(0, -1);
      expect(noted).toBe(`${pid}\n`);
      return argv;
    };
    expect(argvOf("/opt/web/bin/server --port 8080")).toEqual(["/opt/web/bin/server", "--port", "8080"]);
    expect(argvOf("syncthing serve --no-browser")).toEqual(["/usr/bin/env", "syncthing", "serve", "--no-browser"]);
    expect(argvOf(`/opt/demo/bin/demo x "" "daemon off;"`)).toEqual(["/opt/demo/bin/demo", "x", "", "daemon off;"]);
    expect(argvOf(`/bin/sh -c 'trap "echo hup" HUP; while :; do sleep 1; done'`)).toEqual(["/bin/sh", "-c", 'trap "echo hup" HUP; while :; do sleep 1; done']);
    expect(argvOf("cd /var/tmp && /opt/demo/bin/demo x")).toEqual(["/bin/sh", "-c", "cd /var/tmp && exec /opt/demo/bin/demo x"]);
    expect(argvOf("/opt/demo/bin/demo x | /opt/demo/bin/demo x-tail")).toEqual(["/bin/sh", "-c", "/opt/demo/bin/demo x | /opt/demo/bin/demo x-tail"]);
  });

  it("exits 1 before the program when it cannot note its session", () => {
    const run = contentOf(renderLongrun(service({ name: "n", exec: "/bin/echo ran" })), "/etc/s6/sv/tend-n/run");
    const dir = mkdtempSync(join(tmpdir(), "tend-s6-run-"));
    const result = spawnSync("/bin/sh", ["-c", run], { encoding: "utf8", cwd: dir });
    rmSync(dir, { recursive: true, force: true });
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain("ran");
  });
});

describe("finish script under a real /bin/sh", () => {
  function finishExit(restart: Service["restart"], exitCode: string): number | null {
    const artifacts = renderLongrun(service({ name: "f", exec: "/bin/true", restart }));
    const finish = contentOf(artifacts, "/etc/s6/sv/tend-f/finish");
    return spawnSync("/bin/sh", ["-c", finish, "finish", exitCode, "0"]).status;
  }

  it('restart "no": exits 125 (do not respawn) whatever the program did', () => {
    expect(["0", "1", "256"].map((code) => finishExit("no", code))).toEqual([125, 125, 125]);
  });

  it('restart "on_failure": exits 125 only after a clean exit', () => {
    expect(["0", "1", "3", "256"].map((code) => finishExit("on_failure", code))).toEqual([125, 0, 0, 0]);
  });
});
