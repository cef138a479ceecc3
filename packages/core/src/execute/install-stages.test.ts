import { describe, expect, it } from "vitest";
import type { Resource } from "../model/resource-schema.js";
import type { PlanEntry } from "../plan/plan-types.js";
import { installStages } from "./install-stages.js";

const entry = (resource: Resource): PlanEntry =>
  ({ key: `${resource.type}:${resource.name}`, action: "add", resource, provider: "x", ops: [], reasons: [], drift: [], conflicts: [], orphans: [], editedDeletions: [], refusals: [], writes: [] }) as unknown as PlanEntry;

const keys = (stages: PlanEntry[][]) => stages.map((stage) => stage.map((e) => e.key));

describe("installStages", () => {
  const source = entry({ type: "file", name: "source", path: "/etc/apt/sources.list.d/x.list", content: "" });
  const pg = entry({ type: "package", name: "postgresql", requires: ["file:source"] });
  const conf = entry({ type: "file", name: "pgconf", path: "/etc/postgresql/tuning.conf", content: "", owner: "postgres", requires: ["package:postgresql"] });
  const app = entry({ type: "service", name: "app", exec: "/opt/app", restartOn: ["File[pgconf]"] });
  const nginxConf = entry({ type: "file", name: "nginx", path: "/etc/nginx/nginx.conf", content: "", requires: ["package:nginx"] });
  const nginx = entry({ type: "package", name: "nginx" });
  const other = entry({ type: "service", name: "other", exec: "/opt/other", requires: ["package:nginx"] });

  it("is one stage when nothing waits: a package's config file is still written before it", () => {
    expect(keys(installStages([source, pg, nginx, nginxConf, other], () => false))).toEqual([["file:source", "package:postgresql", "package:nginx", "file:nginx", "service:other"]]);
    expect(keys(installStages([], () => false))).toEqual([[]]);
  });

  it("puts a File that waits for its owner, and what comes after it, in a second stage", () => {
    const waits = (e: PlanEntry) => e.key === "file:pgconf";
    expect(keys(installStages([source, pg, conf, app, nginx, nginxConf, other], waits))).toEqual([
      ["file:source", "package:postgresql", "package:nginx", "file:nginx", "service:other"],
      ["file:pgconf", "service:app"],
    ]);
  });
});
