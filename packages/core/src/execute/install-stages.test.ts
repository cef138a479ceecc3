import { describe, expect, it } from "vitest";
import type { Resource } from "../model/resource-schema.js";
import type { PlanEntry } from "../plan/plan-types.js";
import { installStages } from "./install-stages.js";

const entry = (resource: Resource): PlanEntry =>
  ({ key: `${resource.type}:${resource.name}`, action: "add", resource, provider: "x", ops: [], reasons: [], drift: [], conflicts: [], orphans: [], editedDeletions: [], refusals: [], writes: [] }) as unknown as PlanEntry;

const keys = (stages: PlanEntry[][]) => stages.map((stage) => stage.map((e) => e.key));

describe("installStages", () => {
  it("is one stage when nothing comes after a package the apply installs", () => {
    const conf = entry({ type: "file", name: "conf", path: "/etc/app.conf", content: "" });
    const web = entry({ type: "service", name: "web", exec: "/opt/web", restartOn: ["file:conf"] });
    const db = entry({ type: "package", name: "postgresql" });
    expect(keys(installStages([conf, web, db]))).toEqual([["file:conf", "service:web", "package:postgresql"]]);
    expect(keys(installStages([]))).toEqual([[]]);
  });

  it("puts what comes after a package, directly or through others, a stage after it, and a package after a package later still", () => {
    const source = entry({ type: "file", name: "source", path: "/etc/apt/sources.list.d/x.list", content: "" });
    const pg = entry({ type: "package", name: "postgresql", requires: ["file:source"] });
    const conf = entry({ type: "file", name: "pgconf", path: "/etc/postgresql/tuning.conf", content: "", owner: "postgres", requires: ["package:postgresql"] });
    const app = entry({ type: "service", name: "app", exec: "/opt/app", restartOn: ["file:pgconf"] });
    const ext = entry({ type: "package", name: "postgresql-contrib", requires: ["Package[postgresql]"] });
    const extConf = entry({ type: "file", name: "extconf", path: "/etc/ext.conf", content: "", requires: ["package:postgresql-contrib"] });
    const other = entry({ type: "service", name: "other", exec: "/opt/other" });
    expect(keys(installStages([source, pg, conf, app, ext, extConf, other]))).toEqual([
      ["file:source", "package:postgresql", "service:other"],
      ["file:pgconf", "service:app", "package:postgresql-contrib"],
      ["file:extconf"],
    ]);
  });
});
