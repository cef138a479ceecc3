import type { Service } from "@tend/core";
import { describe, expect, it } from "vitest";
import { renderInitScript } from "./render-init-script.js";

type WithExec = Service & { exec: string };
const service = (fields: Omit<WithExec, "type">): WithExec => ({ type: "service", ...fields });

describe("renderInitScript", () => {
  it("runs restart = no (the default) as a background daemon with a pidfile and its own stop", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server --port 8080" }));
    await expect(text).toMatchFileSnapshot("./__golden__/restart-default.sh");
    expect(text).not.toContain("supervisor=");
    expect(renderInitScript(service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "no" }))).toBe(text);
  });

  it("supervises restart = always with unlimited respawns and a log file", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "always" }));
    await expect(text).toMatchFileSnapshot("./__golden__/restart-always.sh");
  });

  it("supervises restart = on_failure the same way and says why in the script", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure" }));
    await expect(text).toMatchFileSnapshot("./__golden__/restart-on-failure.sh");
    const always = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "always" }));
    expect(text.split("\n").filter((line) => !line.startsWith("# restart"))).toEqual(always.split("\n"));
  });

  it("renders the seed's web example: env, on_failure", async () => {
    const text = renderInitScript(
      service({ name: "web", exec: "/opt/web/bin/server --port 8080", restart: "on_failure", env: { RUST_LOG: "info" } }),
    );
    await expect(text).toMatchFileSnapshot("./__golden__/seed-web.sh");
  });

  it("looks a bare command up through /usr/bin/env", async () => {
    const text = renderInitScript(service({ name: "syncthing", exec: "syncthing serve --no-browser", restart: "always", after: ["network"] }));
    await expect(text).toMatchFileSnapshot("./__golden__/bare-command.sh");
    expect(text).toContain('command=/usr/bin/env\ncommand_args="syncthing serve --no-browser"\n');
  });

  it("runs shell syntax through the one /bin/sh -c parseExec gives, its script in a variable, its last command exec'd", async () => {
    const text = renderInitScript(service({ name: "pipe", exec: "cd /srv && exec ./server 2>&1 | logger -t 'it''s'", restart: "always" }));
    await expect(text).toMatchFileSnapshot("./__golden__/shell-syntax.sh");
    expect(renderInitScript(service({ name: "x", exec: "cd /var/tmp && /opt/x --a" }))).toContain(
      "tend_arg2='cd /var/tmp && exec /opt/x --a'\ncommand=/bin/sh\ncommand_args='-c \"$tend_arg2\"'\n",
    );
  });

  it("hands a simple command with quotes to the program itself, keeping each word that needs quoting in a variable", async () => {
    const text = renderInitScript(service({ name: "nginx", exec: 'nginx -g "daemon off;"', restart: "always" }));
    await expect(text).toMatchFileSnapshot("./__golden__/quoted-args.sh");
    expect(text).not.toContain("/bin/sh");
  });

  it("keeps a program path that needs quoting in a variable too, never behind a shell", () => {
    const text = renderInitScript(service({ name: "odd", exec: "/opt/caf\u00e9/bin/x --mode=a^b" }));
    expect(text).toContain("tend_arg0='/opt/caf\u00e9/bin/x'\ntend_arg1='--mode=a^b'\ncommand='\"$tend_arg0\"'\ncommand_args='\"$tend_arg1\"'\n");
  });

  it("orders after network with need net and after other tend services", async () => {
    const text = renderInitScript(
      service({ name: "api", exec: "/opt/api/bin/api", restart: "always", after: ["network", "db", "cache"] }),
    );
    await expect(text).toMatchFileSnapshot("./__golden__/after.sh");
  });

  it("writes the description, quoted, and the name when it is unset", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server", description: "Web front end, it's $HOME `x`" }));
    await expect(text).toMatchFileSnapshot("./__golden__/description.sh");
    expect(renderInitScript(service({ name: "web", exec: "/opt/web/bin/server" }))).toContain("description=web\n");
  });

  it("exports env sorted by name, each value single-quoted where it could expand", async () => {
    const text = renderInitScript(
      service({
        name: "env",
        exec: "/opt/env/bin/env-demo",
        restart: "always",
        env: { ZED: "last", PLAIN: "info", EMPTY: "", TRICKY: "$(id) `id` \"q\" 'single' back\\slash ${HOME} * ~ a  b" },
      }),
    );
    await expect(text).toMatchFileSnapshot("./__golden__/env.sh");
  });

  it("reloads a supervised service through supervise-daemon --signal", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server", restart: "always", reloadSignal: "HUP" }));
    await expect(text).toMatchFileSnapshot("./__golden__/reload-supervised.sh");
  });

  it("reloads a background service by signalling the pid in its pidfile", async () => {
    const text = renderInitScript(service({ name: "web", exec: "/opt/web/bin/server", reloadSignal: "USR1" }));
    await expect(text).toMatchFileSnapshot("./__golden__/reload-background.sh");
  });

  it("is the same bytes for the same service", () => {
    const spec = service({ name: "web", exec: "/opt/web/bin/server", env: { B: "2", A: "1" }, after: ["db"] });
    expect(renderInitScript(spec)).toBe(renderInitScript({ ...spec, env: { A: "1", B: "2" } }));
  });
});
