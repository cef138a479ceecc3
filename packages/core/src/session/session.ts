import { statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ContentCache } from "../cache/content-cache.js";
import type { Artifact } from "../contract/artifact.js";
import type { RenderContext } from "../contract/context.js";
import type { Scope } from "../contract/host.js";
import type { Observation } from "../contract/observation.js";
import type { ProviderDefinition } from "../contract/provider.js";
import type { Runner } from "../contract/runner.js";
import { errors } from "../errors/catalogue.js";
import { TendError, TendErrors } from "../errors/tend-error.js";
import type { Ownership } from "../files/atomic-write.js";
import type { FileAttributes, PathContent } from "../files/host-files.js";
import { LocalHostAccess, type HostAccess, type HostFileAccess, type HostLock } from "../host/host-access.js";
import { carriesManagedHeader } from "../model/managed-header.js";
import { CORE_PACKAGE_DIR } from "../core-package.js";
import { checkInitPlatform } from "../host/init-platform.js";
import { resolveHost, type Host, type HostOptions } from "../host/host-facts.js";
import type { Resource } from "../model/resource-schema.js";
import { artifactId } from "../plan/artifact-id.js";
import { checkCapabilities, type Server } from "../plan/check-capabilities.js";
import { clockGapNotes } from "../plan/clock-gap-notes.js";
import { attributesDiffer, wantedAttributes, type AttributeMismatch } from "../plan/file-attributes.js";
import { planChanges } from "../plan/plan-changes.js";
import type { PlanProvider } from "../plan/restarted-dependents.js";
import { findReplacedCode } from "../observe/find-replaced-code.js";
import { findOlderDefinitions } from "../observe/find-older-definitions.js";
import type { Plan } from "../plan/plan-types.js";
import { findSpec } from "../spec/find-spec.js";
import { openSpec, type Spec } from "../spec/load-spec.js";
import type { StateFile } from "../state/state-file.js";
import { stateDir, StateStore } from "../state/state-store.js";
import { keepSecretsPrivate } from "../model/secret-env.js";
import { fileArtifacts } from "./core-artifacts.js";
import { inScope } from "./in-scope.js";
import { passwdHomes } from "../host/passwd.js";
import { userScopeFiles } from "../model/scope-of-files.js";
import { isCoreStore, providerStore } from "./artifact-stores.js";
import { ownerProblem } from "../files/owner-problem.js";
import { providerOwnerProblems } from "../files/provider-owner-problems.js";
import { afterAnInstall } from "./after-install.js";
import { folderClashes, type PathOwner } from "./folder-clashes.js";
import { providerContext, type ContextParts } from "./provider-context.js";
import { ProviderRegistry } from "./provider-registry.js";

export interface SessionOptions extends HostOptions {
  /** `-f SPEC`. */
  spec?: string;
  cwd?: string;
  runner?: Runner;
  /** Where tend itself is installed (discovery's second starting point). */
  toolDir?: string;
  /** How to install a missing provider the way tend itself was installed; default `npm install --global`. */
  installCommand?: (pkg: string) => string;
  log?: (line: string) => void;
  /** Where work is kept between runs (a validated YAML spec); none by default. */
  cache?: ContentCache;
  /**
   * Whether the command runs the init's own tools (plan, apply, observe: the default) or only
   * renders files (validate, render), which works for any init on any platform.
   */
  runsInit?: boolean;
}

/**
 * Everything one command works with: the host (reached through a HostAccess: this machine, or
 * one over a connection), the spec, the providers, files and state.
 */
export class Session {
  readonly parts: ContextParts;
  readonly stateStore: StateStore;

  private constructor(
    readonly host: Host,
    readonly spec: Spec,
    readonly registry: ProviderRegistry,
    readonly root: string | undefined,
    private readonly access: HostAccess,
    log: (line: string) => void,
    offline = root !== undefined,
  ) {
    const files = access.files;
    // A command may change the tree (an init making folders, s6-rc compiling): reads look afresh after one.
    const watched: Runner = {
      run: async (command) => {
        try {
          return await access.runner.run(command);
        } finally {
          files.forgetFolders();
        }
      },
    };
    this.parts = { facts: host.facts, scope: host.scope, runner: watched, files, root: root === undefined ? undefined : files.root, offline, log };
    this.stateStore = new StateStore(files, stateDir(host.scope), host.scope.kind === "user" ? host.scope.home : undefined);
  }

  /**
   * Opens a run: finds the spec and the providers (the spec's listed ones, its project's, tend's
   * install's), tells the host's init from what they declare, then builds the spec for that host.
   */
  static async open(options: SessionOptions): Promise<Session> {
    checkRoot(options.root);
    const file = findSpec(options.spec, options.cwd);
    const opened = await openSpec(file, { ...(options.cache ? { cache: options.cache } : {}), ...(typeof options.user === "string" ? { scopeUser: options.user } : {}) });
    const registry = Session.discover(opened, options.toolDir);
    if (options.installCommand) registry.installCommand = options.installCommand;
    const host = resolveHost(options, registry.inits);
    if (options.runsInit !== false && options.root === undefined) checkInitPlatform(host.facts.init, registry.inits);
    const spec = await opened.build(host.facts);
    const access = new LocalHostAccess(options.root, host.scope, options.runner);
    return new Session(host, spec, registry, options.root, access, options.log ?? (() => undefined));
  }

  /**
   * The providers a run with this spec uses: those it lists, its project's and tend's install's,
   * exactly as `open` finds them (so `tend providers` shows what `plan` will use). Without a spec,
   * tend's install only.
   */
  static discover(spec: { file: string; providers: string[] } | undefined, toolDir = CORE_PACKAGE_DIR): ProviderRegistry {
    // resolve: a spec piped in (`<stdin>`) is the current folder's.
    const specDir = spec && dirname(resolve(spec.file));
    const registry = ProviderRegistry.discover(toolDir, specDir);
    if (spec) registry.addListed(spec.providers, specDir!);
    return registry;
  }

  /**
   * A session from parts already at hand (programmatic use, tests, a host of a fleet); no
   * discovery from disk beyond `registry`. The host is reached through `access`, or this
   * machine's files (under `root`) and `runner`.
   */
  static fromParts(
    parts: { host: Host; spec: Spec; registry: ProviderRegistry; root?: string; offline?: boolean; log?: (line: string) => void } & ({ runner: Runner; access?: undefined } | { access: HostAccess; runner?: undefined }),
  ): Session {
    const access = parts.access ?? new LocalHostAccess(parts.root, parts.host.scope, parts.runner);
    return new Session(parts.host, parts.spec, parts.registry, parts.root, access, parts.log ?? (() => undefined), parts.offline);
  }

  /** Under `--root`: nothing is started and nothing verified. */
  get offline(): boolean {
    return this.parts.offline;
  }

  get files(): HostFileAccess {
    return this.parts.files;
  }

  /** The declared resources this run manages. */
  scopeResources(): Resource[] {
    const userFiles = this.userFiles();
    return this.spec.resources.filter((r) => inScope(r, this.host.scope, userFiles));
  }

  /** The Files a user service or timer names: the user run's, wherever they are (see userScopeFiles). */
  private userFiles(): Map<string, string> {
    this.userFilesMemo ??= userScopeFiles(this.spec.resources);
    return this.userFilesMemo;
  }

  private userFilesMemo: Map<string, string> | undefined;

  renderContext(): RenderContext {
    return { host: this.host.facts, init: this.host.facts.init, scope: this.host.scope };
  }

  /** Providers for each resource; collects every missing one into one error. */
  async assignProviders(resources: Resource[]): Promise<Map<string, ProviderDefinition>> {
    const assigned = new Map<string, ProviderDefinition>();
    const problems: TendError[] = [];
    for (const resource of resources) {
      if (resource.type === "file") continue;
      const key = `${resource.type}:${resource.name}`;
      try {
        assigned.set(key, await this.registry.providerFor(this.host.facts.init, resource.type, key));
      } catch (error) {
        if (!TendError.isInstance(error)) throw error;
        if (!problems.some((p) => p.message === error.message)) problems.push(error);
      }
    }
    if (problems.length > 0) throw problems.length === 1 ? problems[0]! : new TendErrors(problems);
    return assigned;
  }

  /** Who serves a resource here, for capability messages. */
  server(provider: ProviderDefinition, init = this.host.facts.init): Server {
    const pkg = this.registry.packageOf(provider);
    const declaredBy = this.registry.inits.get(init)?.declaredBy;
    // A fallback provider (cron) stands in for the init by the init's own suggestion.
    const suggested = provider.serves.types.some((type) => this.registry.inits.get(init)?.suggest?.[type] === pkg?.packageName);
    return { init: this.registry.inits.displayName(init), packageName: pkg?.packageName ?? provider.name, own: !pkg || declaredBy === undefined || declaredBy === pkg.packageName || suggested };
  }

  /** Renders resources, after checking each can be expressed here; every error at once. */
  renderAll(resources: Resource[], assigned: Map<string, ProviderDefinition>, ctx: RenderContext = this.renderContext()): Map<string, Artifact[]> {
    const rendered = new Map<string, Artifact[]>();
    const problems: TendError[] = [];
    const owners = new Map<string, PathOwner>();
    for (const resource of resources) {
      const key = `${resource.type}:${resource.name}`;
      const provider = assigned.get(key);
      // A File a user service names is this user's run's wherever it is (see scopeResources).
      if (resource.type === "file" && ctx.scope.kind === "user" && !resource.path.startsWith(`${ctx.scope.home}/`)) {
        const namedBy = this.userFiles().get(key);
        if (namedBy) {
          problems.push(this.homelessUserFile(key, namedBy, `${resource.path} is outside ${ctx.scope.home}, the home of ${ctx.scope.user}, whose run writes it because ${namedBy}, a user ${namedBy.split(":")[0]}, names it; a user's run writes only in their home`));
          continue;
        }
      }
      try {
        if (provider) {
          const found = [...checkCapabilities(resource, provider, this.server(provider, ctx.init)), ...(provider.check?.(resource, ctx) ?? [])];
          if (found.length > 0) {
            problems.push(...found.map((e) => e.at({ resource: key, provider: provider.name, file: this.spec.file })));
            continue;
          }
        }
        const env = resource.type === "service" || resource.type === "timer" ? resource.env : undefined;
        const artifacts = keepSecretsPrivate(env, provider ? provider.render(resource, ctx) : fileArtifacts(resource as Extract<Resource, { type: "file" }>));
        for (const artifact of artifacts) {
          // Core stores share one namespace, the host's paths: a file where a service's folder goes collides too.
          const store = artifact.store ?? "file";
          const id = isCoreStore(store) ? artifact.path : artifactId(artifact);
          const owner = owners.get(id);
          if (owner && owner.key !== key && !(owner.store === "directory" && store === "directory")) {
            problems.push(errors.duplicate(key, `would write ${artifact.path}, as ${owner.key} does`, { file: this.spec.file }));
          }
          owners.set(id, { key, store });
        }
        rendered.set(key, artifacts);
      } catch (error) {
        problems.push(asTendError(error, key, provider?.name));
      }
    }
    problems.push(...folderClashes(owners, this.spec.file));
    if (problems.length > 0) throw problems.length === 1 ? problems[0]! : new TendErrors(problems);
    return rendered;
  }

  /**
   * Reads what the host holds for each artifact, batched per store; for the core's stores also
   * what tend must refuse to write through or over (a link where a file goes, a folder, a device,
   * an empty file where the init reads one as a mask).
   */
  async readArtifacts(
    artifacts: Pick<Artifact, "store" | "path" | "masksWhenEmpty">[],
    state: StateFile,
    providers: ProviderDefinition[],
  ): Promise<{ current: Map<string, string | null>; currentBytes: Map<string, Uint8Array>; obstacles: Map<string, string>; attributes: Map<string, FileAttributes> }> {
    const current = new Map<string, string | null>();
    const currentBytes = new Map<string, Uint8Array>();
    const attributes = new Map<string, FileAttributes>();
    const obstacles = new Map<string, string>();
    const byStore = new Map<string, Set<string>>();
    const masking = new Set(artifacts.filter((a) => a.masksWhenEmpty).map((a) => a.path));
    for (const artifact of artifacts) {
      const store = artifact.store ?? "file";
      let paths = byStore.get(store);
      if (!paths) byStore.set(store, (paths = new Set()));
      paths.add(artifact.path);
    }
    // The core's stores in one batch: one round trip on a remote host.
    const core = [...byStore].filter(([store]) => isCoreStore(store)).flatMap(([store, paths]) => [...paths].map((path) => ({ store, path })));
    const found = core.length > 0 ? await this.parts.files.inspectAll(core.map((a) => a.path)) : [];
    core.forEach(({ store, path }, index) => {
      const id = artifactId({ store, path });
      const there = found[index]!;
      const reading = readCoreArtifact(store, there, masking.has(path));
      current.set(id, reading.content);
      if (there.kind === "file" && there.bytes && reading.content !== null) currentBytes.set(id, there.bytes);
      if (reading.obstacle) obstacles.set(id, reading.obstacle);
      // A file where a file goes, a folder where a folder goes: anything else is the content's matter.
      if ((store === "file" || store === "directory") && there.kind === store && there.attributes) attributes.set(id, there.attributes);
    });
    for (const [store, paths] of byStore) {
      if (isCoreStore(store)) continue;
      const owner = providerStore(providers, store);
      const values = await owner.store.read([...paths], providerContext(this.parts, state, owner.provider.name));
      for (const path of paths) current.set(artifactId({ store, path }), values.get(path) ?? null);
    }
    return { current, currentBytes, obstacles, attributes };
  }

  /** The files and folders of `rendered` whose mode or owner is not what their artifact asks for, by artifactId. */
  private attributeMismatches(rendered: Map<string, Artifact[]>, found: Map<string, FileAttributes>): Map<string, AttributeMismatch> {
    const mismatches = new Map<string, AttributeMismatch>();
    if (found.size === 0) return mismatches;
    // `found` holds the core's files and folders only: a link or a provider's store finds nothing.
    for (const artifact of [...rendered.values()].flat()) {
      const id = artifactId(artifact);
      const have = found.get(id);
      if (!have) continue;
      let owner: Ownership = {};
      try {
        if (have.uid !== undefined) owner = this.files.ownership(artifact.owner, artifact.group);
      } catch {
        // an unknown user or group: the write names it, and a file whose bytes are right keeps its owner
      }
      const wanted = wantedAttributes(artifact, have, owner);
      if (attributesDiffer(have, wanted)) mismatches.set(id, { found: have, wanted });
    }
    return mismatches;
  }

  /**
   * Drift the init cannot report, found through /proc for running services: a program or library
   * replaced on disk (stale builds), a definition file newer than the process (the init runs an
   * older definition). By key; empty offline. `tend observe` shows it; plan acts on it.
   */
  async runtimeDrift(resources: Resource[], assigned: Map<string, ProviderDefinition>, observations: Map<string, Observation>, state: StateFile): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (this.offline) return found;
    let rendered = new Map<string, Artifact[]>();
    try {
      rendered = this.renderAll(resources, assigned);
    } catch {
      // a spec that cannot render has no definition to compare; plan reports why
    }
    for (const map of await this.findDrift(resources, observations, rendered, state)) {
      for (const [key, lines] of map) found.set(key, [...(found.get(key) ?? []), ...lines]);
    }
    return found;
  }

  /** Replaced code and older definitions (runtimeDrift's two kinds), each by key; none offline. */
  private async findDrift(resources: Resource[], observations: Map<string, Observation>, rendered: Map<string, Artifact[]>, state: StateFile): Promise<[Map<string, string[]>, Map<string, string[]>]> {
    if (this.offline) return [new Map(), new Map()];
    // Side by side: on a remote host their reads share round trips.
    return Promise.all([findReplacedCode(resources, observations, this.files), findOlderDefinitions(resources, observations, rendered, state, this.files)]);
  }

  /**
   * One `observe` call per provider, with all of its resources (see ReadContext's `purpose`), the
   * providers side by side (runit's `sv status` and cron's `crontab -l` wait for each other no
   * more); a failure is the first provider's, in their order, as if they had run one by one.
   */
  async observeAll(resources: Resource[], assigned: Map<string, ProviderDefinition>, state: StateFile, purpose: "plan" | "check" = "plan"): Promise<Map<string, Observation>> {
    const groups = [...groupByProvider(resources, assigned)];
    const outcomes = await Promise.allSettled(groups.map(([provider, list]) => provider.observe(list, { ...providerContext(this.parts, state, provider.name), purpose })));
    const observations = new Map<string, Observation>();
    outcomes.forEach((outcome, i) => {
      if (outcome.status === "rejected") throw asTendError(outcome.reason, undefined, groups[i]![0].name);
      for (const [key, value] of outcome.value) observations.set(key, value);
    });
    return observations;
  }

  /** Observes the host and computes the plan (read-only). */
  async buildPlan(options: { adopt?: boolean } = {}): Promise<{ plan: Plan; state: StateFile; assigned: Map<string, ProviderDefinition> }> {
    const state = await this.stateStore.load();
    const resources = this.scopeResources();
    const declared = new Set(resources.map((r) => `${r.type}:${r.name}`));
    const recorded = Object.entries(state.resources).filter(([key]) => !declared.has(key));
    const assigned = await this.assignProviders([...resources, ...recorded.map(([, r]) => r.resource)]);
    const rendered = await this.renderOnInit(resources, assigned, this.homelessUserFiles());
    const artifacts = [...[...rendered.values()].flat(), ...Object.values(state.resources).flatMap((r) => r.artifacts)];
    const providers = [...new Set(assigned.values())];
    const { current, currentBytes, obstacles, attributes } = await this.readArtifacts(artifacts, state, providers);
    const observations = await this.observeAll(resources, assigned, state);
    const [replacedCode, olderDefinitions] = await this.findDrift(resources, observations, rendered, state);
    const hostProblems: TendError[] = [...unknownOwners(resources, observations, this.files, this.spec.file), ...providerOwnerProblems(rendered, assigned, this.files).map((e) => e.at({ file: this.spec.file }))];
    for (const [provider, list] of groupByProvider(resources, assigned)) {
      if (!provider.checkHost) continue;
      const found = await provider.checkHost(list, observations, providerContext(this.parts, state, provider.name));
      hostProblems.push(...found.map((e) => e.at({ provider: provider.name, file: this.spec.file })));
    }
    if (hostProblems.length > 0) throw hostProblems.length === 1 ? hostProblems[0]! : new TendErrors(hostProblems);
    const providerInfo = new Map<string, PlanProvider>();
    for (const resource of [...resources, ...recorded.map(([, r]) => r.resource)]) {
      const key = `${resource.type}:${resource.name}`;
      const provider = assigned.get(key);
      if (!provider) continue;
      const dependentsRestart = provider.capabilities.service?.dependentsRestart;
      providerInfo.set(key, { name: provider.name, refused: provider.refusedOperations?.(resource, observations.get(key)) ?? [], ...(dependentsRestart ? { dependentsRestart } : {}) });
    }
    const warnings = [...this.stateStore.problems, ...(await this.unclaimedOrphans(state, rendered))];
    const notes = new Map<string, string[]>();
    for (const resource of resources) {
      const key = `${resource.type}:${resource.name}`;
      const found = assigned.get(key)?.warnings?.(resource, this.renderContext()) ?? [];
      if (found.length > 0) notes.set(key, found);
    }
    for (const [key, warning] of await clockGapNotes(resources, assigned, this.files, new Date())) notes.set(key, [...(notes.get(key) ?? []), warning]);
    const plan = planChanges({
      host: this.host.facts,
      initDisplayName: this.registry.inits.displayName(this.host.facts.init),
      scope: this.host.scope,
      resources,
      state,
      providers: providerInfo,
      rendered,
      current,
      currentBytes,
      obstacles,
      attributes: this.attributeMismatches(rendered, attributes),
      observations,
      replacedCode,
      olderDefinitions,
      warnings,
      notes,
      adopt: options.adopt ?? false,
      offline: this.offline,
    });
    const left = this.otherScopeResources();
    if (left.length > 0) {
      plan.otherScope =
        this.host.scope.kind === "system"
          ? { count: left.length, scope: "user", command: "tend apply --user (as that user), or as root: tend apply --user NAME" }
          : { count: left.length, scope: "system", command: "sudo tend apply" };
    }
    return { plan, state, assigned };
  }

  /**
   * Renders this run's resources, and checks the other scope's against the init: everything a
   * spec meets on this init before the host is read, every error at once with `more` (plan's
   * first step; validate's, when the init is known).
   */
  async renderOnInit(resources: Resource[], assigned: Map<string, ProviderDefinition>, more: TendError[] = []): Promise<Map<string, Artifact[]>> {
    const elsewhere = [...(await this.otherScopeProblems()), ...more];
    let rendered: Map<string, Artifact[]>;
    try {
      rendered = this.renderAll(resources, assigned);
    } catch (error) {
      if (elsewhere.length === 0 || !TendError.isInstance(error)) throw error;
      throw new TendErrors([...((error as Partial<TendErrors>).errors ?? [error]), ...elsewhere]);
    }
    if (elsewhere.length > 0) throw elsewhere.length === 1 ? elsewhere[0]! : new TendErrors(elsewhere);
    return rendered;
  }

  /** Declared services and timers of the other scope, which this run leaves out, and the Files a user service names in a system run (other files follow the paths they write). */
  otherScopeResources(): Resource[] {
    const userFiles = this.userFiles();
    return this.spec.resources.filter((r) => (r.type !== "file" || userFiles.has(`file:${r.name}`)) && !inScope(r, this.host.scope, userFiles));
  }

  /**
   * In a system run, the Files a user service or timer names (the user run's, see
   * userScopeFiles) that are in no home of the password database: no user's run could write
   * them, so the spec is refused here too, not only in the user's run (see renderAll). On this
   * machine or an image root only: a fleet host's users are not read here.
   */
  private homelessUserFiles(): TendError[] {
    if (this.host.scope.kind !== "system" || this.userFiles().size === 0 || !(this.access instanceof LocalHostAccess)) return [];
    const homes = passwdHomes(this.root);
    const problems: TendError[] = [];
    for (const resource of this.spec.resources) {
      const key = `${resource.type}:${resource.name}`;
      const namedBy = this.userFiles().get(key);
      if (resource.type !== "file" || !namedBy || homes.some((home) => resource.path.startsWith(`${home}/`))) continue;
      problems.push(this.homelessUserFile(key, namedBy, `${resource.path} is in no user's home, and ${namedBy}, a user ${namedBy.split(":")[0]}, names it: a File a user's service names is written by that user's run, which writes only in their home`));
    }
    return problems;
  }

  /** The error of a File a user service names (`namedBy`) that no user's run may write: `why`. */
  private homelessUserFile(key: string, namedBy: string, why: string): TendError {
    return errors.invalidField(key, "path", why, { hint: `Keep the File in the home, or have a system service name it instead of ${namedBy}` }).at({ file: this.spec.file });
  }

  /**
   * What the host's providers cannot express among the other scope's resources: a spec that can
   * never be realised here fails whatever the scope of the run (OpenRC has no user services,
   * whether or not root runs the plan). A provider missing for them is not this run's problem.
   */
  private async otherScopeProblems(): Promise<TendError[]> {
    const problems: TendError[] = [];
    const init = this.host.facts.init;
    const scope: Scope = this.host.scope.kind === "system" ? { kind: "user", user: this.host.facts.user, uid: 0, gid: 0, home: this.host.facts.home } : { kind: "system" };
    const ctx: RenderContext = { host: this.host.facts, init, scope };
    for (const resource of this.otherScopeResources()) {
      const key = `${resource.type}:${resource.name}`;
      let provider: ProviderDefinition;
      try {
        provider = await this.registry.providerFor(init, resource.type, key);
      } catch {
        continue;
      }
      const found = [...checkCapabilities(resource, provider, this.server(provider)), ...(provider.check?.(resource, ctx) ?? [])];
      problems.push(...found.map((e) => e.at({ resource: key, provider: provider.name, file: this.spec.file })));
    }
    return problems;
  }

  /**
   * Files carrying tend's header in the folders the host's providers write to, that no state
   * records and no declared resource renders: what a lost state would otherwise silently forget.
   */
  private async unclaimedOrphans(state: StateFile, rendered: Map<string, Artifact[]>): Promise<string[]> {
    const known = new Set<string>();
    for (const record of Object.values(state.resources)) for (const a of record.artifacts) known.add(a.path);
    for (const list of rendered.values()) for (const a of list) known.add(a.path);
    const candidates: string[] = [];
    for (const provider of await this.hostProviders()) {
      for (const { dir, prefix } of provider.managedFolders?.(this.renderContext()) ?? []) {
        for (const name of (await this.files.readDir(dir)) ?? []) {
          const path = `${dir}/${name}`;
          if (name.startsWith(prefix) && !known.has(path)) candidates.push(path);
        }
      }
    }
    const headed = await carryingHeader(this.files, candidates);
    return candidates
      .filter((path) => headed.has(path))
      .map((path) => `orphan: ${path} carries tend's header, but no state records it and the spec does not declare it; delete it, or declare it again and apply --adopt to take it back`);
  }

  /** The providers that serve this host's init, loaded when installed (orphan search needs them even for an empty spec). */
  private async hostProviders(): Promise<ProviderDefinition[]> {
    const found: ProviderDefinition[] = [];
    for (const type of ["service", "timer"] as const) {
      const pkg = this.registry.packageFor(this.host.facts.init, type);
      if (!pkg) continue;
      try {
        const provider = await this.registry.load(pkg);
        if (!found.includes(provider)) found.push(provider);
      } catch {
        // a provider that cannot load fails the plan elsewhere when the spec needs it
      }
    }
    return found;
  }

  /** The scope's lock, in its state folder (taken where the host is: see HostAccess.lock). */
  lock(): HostLock {
    return this.access.lock(join(this.stateStore.dir, "lock"), this.host.scope);
  }
}

function groupByProvider(resources: Resource[], assigned: Map<string, ProviderDefinition>): Map<ProviderDefinition, Resource[]> {
  const groups = new Map<ProviderDefinition, Resource[]>();
  for (const resource of resources) {
    const provider = assigned.get(`${resource.type}:${resource.name}`);
    if (!provider) continue;
    const list = groups.get(provider);
    if (list) list.push(resource);
    else groups.set(provider, [resource]);
  }
  return groups;
}

/** What a core store's artifact holds on the host, or what tend must refuse to touch there. */
function readCoreArtifact(store: string, found: PathContent, masksWhenEmpty: boolean): { content: string | null; obstacle?: string } {
  if (found.kind === "absent") return { content: null };
  if (store === "symlink") {
    if (found.kind === "symlink") return { content: found.target };
    if (found.kind === "file") return { content: found.content };
    return { content: null, obstacle: found.kind === "directory" ? "a folder" : "a device or socket" };
  }
  if (store === "directory") {
    if (found.kind === "directory") return { content: "" };
    return { content: null, obstacle: found.kind === "symlink" ? `a symlink to ${found.target}` : "a file" };
  }
  if (found.kind === "file" && found.content === "" && masksWhenEmpty) return { content: null, obstacle: "an empty file, which the init reads as a mask" };
  if (found.kind === "file") return { content: found.content };
  if (found.kind === "symlink") return { content: null, obstacle: `a symlink to ${found.target}${found.target === "/dev/null" ? " (a mask)" : ""}` };
  return { content: null, obstacle: found.kind === "directory" ? "a folder" : "a device or socket" };
}

/**
 * A File's owner or group that this host's user database lacks: apply could not give the file to
 * them, so plan says so at the field, before anything is written. Not for a File that comes after
 * a package the spec installs, which may bring the user: its write names a user still missing.
 */
function unknownOwners(resources: Resource[], observations: Map<string, Observation>, files: HostFileAccess, file: string): TendError[] {
  const problems: TendError[] = [];
  let installedFirst: Set<string> | undefined;
  for (const resource of resources) {
    const problem = ownerProblem(files, resource);
    if (!problem) continue;
    installedFirst ??= afterAnInstall(resources, observations);
    if (!installedFirst.has(`file:${resource.name}`)) problems.push(problem.at({ resource: `file:${resource.name}`, file }));
  }
  return problems;
}

/** The paths that are, or are folders right inside which a file is, carrying tend's managed header. */
async function carryingHeader(files: HostFileAccess, paths: string[]): Promise<Set<string>> {
  const headed = new Set<string>();
  if (paths.length === 0) return headed;
  const folders: string[] = [];
  (await files.inspectAll(paths)).forEach((found, index) => {
    if (found.kind === "file" && carriesManagedHeader(found.content)) headed.add(paths[index]!);
    if (found.kind === "directory") folders.push(paths[index]!);
  });
  const inner: { folder: string; path: string }[] = [];
  for (const folder of folders) for (const name of (await files.readDir(folder)) ?? []) inner.push({ folder, path: `${folder}/${name}` });
  if (inner.length === 0) return headed;
  (await files.inspectAll(inner.map((i) => i.path))).forEach((found, index) => {
    if (found.kind === "file" && carriesManagedHeader(found.content)) headed.add(inner[index]!.folder);
  });
  return headed;
}

/** Any error a provider throws becomes a TendError stamped with the provider and resource. */
export function asTendError(error: unknown, resource: string | undefined, provider: string | undefined): TendError {
  let stamped = TendError.isInstance(error)
    ? error
    : new TendError("TEND_PROVIDER_FAILED", `${provider ?? "a provider"} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
  // One failure a provider pinned on many resources (a batch whose command failed) is one object:
  // each resource gets its own copy, not the first one's name.
  if (resource && stamped.location.resource !== undefined && stamped.location.resource !== resource) stamped = withResource(stamped, resource);
  return stamped.at({ ...(resource ? { resource } : {}), ...(provider ? { provider } : {}) });
}

/** A copy of an error (its class, message, stack and fields kept) located at another resource. */
function withResource(error: TendError, resource: string): TendError {
  const copy = Object.create(Object.getPrototypeOf(error) as object, Object.getOwnPropertyDescriptors(error)) as TendError;
  copy.location = { ...error.location, resource };
  return copy;
}

/**
 * `--root` names an image root. An empty one (an unset `$IMG` in a build script) or `/` would
 * turn an offline image apply into one on the live host: refused before anything is read.
 */
export function checkRoot(root: string | undefined): void {
  if (root === undefined) return;
  if (root.trim() === "" || resolve(root) === "/") {
    throw errors.usage(`--root ${JSON.stringify(root)} names no image root${root.trim() === "" ? " (an unset variable?)" : ""}`, {
      hint: "Give the folder of an image root (--root /srv/image), or drop --root to work on this host",
    });
  }
  // A mistyped root would otherwise be planned as an empty image and made by apply.
  let inside: Stats;
  try {
    inside = statSync(root);
  } catch {
    throw errors.usage(`--root ${root} does not exist`, { hint: "Give the folder of an existing image root (debootstrap, or an unpacked image, makes one)" });
  }
  if (!inside.isDirectory()) throw errors.usage(`--root ${root} is not a folder`, { hint: "Give the folder of an image root (--root /srv/image)" });
  // A link to / (/proc/self/root too) or a bind mount of it is this host's root under another name.
  const top = statSync("/");
  if (inside.dev === top.dev && inside.ino === top.ino) {
    throw errors.usage(`--root ${root} is this host's own root folder (it leads to /), not an image root`, {
      hint: "Give the folder of an image root (--root /srv/image), or drop --root to work on this host",
    });
  }
}
