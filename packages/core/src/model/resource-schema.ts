import * as z from "zod";
import { NORMAL_PATH_PATTERN } from "../files/host-path.js";
import { filePathProblem } from "../files/file-path-problem.js";
import { ENV_NAME_PATTERN, hasNul, isOneLine, NAME_PATTERN, PACKAGE_NAME_PATTERN, PACKAGE_VERSION_PATTERN } from "./text-rules.js";
import { parseReference } from "./reference.js";
import { execProblem } from "./exec-line.js";
import { argumentSizeProblem } from "./argument-limit.js";
import { SIGNALS } from "./signals.js";

const oneLine = z.string().refine(isOneLine, { message: "must be one line, without control characters" });
/** A command line: one line, and not starting with `-` (env and the inits would read it as an option). */
const execLine = oneLine.min(1).superRefine((text, ctx) => {
  const problem = text.trimStart().startsWith("-") ? "must not start with `-`" : execProblem(text);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});
const name = z
  .string()
  .max(255, { message: "must be at most 255 characters" })
  .regex(NAME_PATTERN, { message: "may only hold letters, digits and `_ . - @`, and must not start with `.` or `-`" });
const reference = z
  .string()
  .refine((text) => parseReference(text) !== undefined, { message: "must be a reference such as `file:nginx-config` or `File[nginx-config]`" });
const references = z.array(reference);
const env = z.record(z.string().regex(ENV_NAME_PATTERN, { message: "must be a shell variable name" }), oneLine).superRefine((vars, ctx) => {
  for (const [key, value] of Object.entries(vars)) {
    const problem = argumentSizeProblem("`NAME=value`", `${key}=${value}`);
    if (problem) ctx.addIssue({ code: "custom", path: [key], message: problem });
  }
});

const scalar = z.union([oneLine, z.number(), z.boolean()]);
const directiveValue = z.union([scalar, z.array(scalar)]);
const directiveName = z.string().regex(/^[A-Z][A-Za-z0-9]*$/, { message: "must be a systemd directive name such as `MemoryMax`" });
const directives = z.record(directiveName, directiveValue);
const systemdHatch = z.record(z.string(), z.union([directiveValue, directives])).superRefine((value, ctx) => {
  for (const [key, entry] of Object.entries(value)) {
    const section = key === "unit" || key === "service" || key === "install";
    if (section) {
      const parsed = directives.safeParse(entry);
      if (!parsed.success) ctx.addIssue({ code: "custom", path: [key], message: parsed.error.issues[0]?.message ?? "invalid section" });
    } else if (!/^[A-Z][A-Za-z0-9]*$/.test(key)) {
      ctx.addIssue({ code: "custom", path: [key], message: "must be a [Service] directive name such as `MemoryMax`, or one of the sections `unit`, `service`, `install`" });
    } else if (!directiveValue.safeParse(entry).success) {
      ctx.addIssue({ code: "custom", path: [key], message: "must be a string, number, boolean or a list of them" });
    }
  }
});

export type PlistValue = string | number | boolean | PlistValue[] | { [key: string]: PlistValue };
const plistValue: z.ZodType<PlistValue> = z.lazy(() =>
  z.union([oneLine, z.number(), z.boolean(), z.array(plistValue), z.record(oneLine, plistValue)]),
);

const desired = z
  .object({ state: z.enum(["running", "stopped"]), enabled: z.boolean() })
  .strict()
  .describe("Both are required: whether it runs now, and whether it starts at boot");

export const ServiceSchema = z
  .object({
    type: z.literal("service"),
    name,
    exec: execLine.optional(),
    user: z.boolean().optional(),
    restart: z.enum(["no", "on_failure", "always"]).optional(),
    after: z.array(oneLine.min(1)).optional(),
    env: env.optional(),
    description: oneLine.optional(),
    systemd: systemdHatch.optional(),
    launchd: z.record(oneLine, plistValue).optional(),
    displayManager: z.boolean().optional(),
    desired: desired.optional(),
    requires: references.optional(),
    restartOn: references.optional(),
    reloadOn: references.optional(),
    reloadSignal: z.enum(SIGNALS).optional(),
    restartOnUpgrade: z
      .boolean()
      .optional()
      .describe("Restart the service when its program or a library it loaded is replaced on disk (default true)"),
    verify: z.object({ settle: z.number().min(0).max(600).describe("seconds") }).strict().optional(),
  })
  .strict();

export const TimerSchema = z
  .object({
    type: z.literal("timer"),
    name,
    exec: execLine,
    schedule: oneLine.min(1),
    user: z.boolean().optional(),
    env: env.optional(),
    requires: references.optional(),
  })
  .strict();

export const FileSchema = z
  .object({
    type: z.literal("file"),
    name,
    path: oneLine.regex(NORMAL_PATH_PATTERN, { message: "must be an absolute, normal path: no `.` or `..` parts, no `//`, no trailing `/`", abort: true }).superRefine((path, ctx) => {
      const problem = filePathProblem(path);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
    content: z.string().refine((text) => !hasNul(text), { message: "must not hold a NUL byte" }),
    mode: z
      .string({ error: "must be an octal mode in quotes, such as `\"0644\"`: as a number its digits are not octal (TypeScript's 0o644 is 420)" })
      .regex(/^0?[0-7]{3,4}$/, { message: "must be an octal mode such as `0644`" })
      .optional(),
    owner: oneLine.regex(/^[a-z_][a-z0-9_.-]*\$?$|^[0-9]+$/i, { message: "must be a user name or id" }).optional(),
    group: oneLine.regex(/^[a-z_][a-z0-9_.-]*\$?$|^[0-9]+$/i, { message: "must be a group name or id" }).optional(),
    requires: references.optional(),
  })
  .strict();

/** A package name: letters, digits and `+ . _ -`, starting with a letter or digit (`libstdc++6`, `nginx`). */
const packageName = z
  .string()
  .max(255, { message: "must be at most 255 characters" })
  .regex(PACKAGE_NAME_PATTERN, { message: "may only hold letters, digits and `+ . _ -`, and must start with a letter or digit" });

export const PackageSchema = z
  .object({
    type: z.literal("package"),
    name: packageName,
    state: z.enum(["present", "absent", "latest"]).optional().describe("present (the default): installed, any version; latest: the newest the host's package lists offer; absent: not installed"),
    version: z
      .string()
      .max(255, { message: "must be at most 255 characters" })
      .regex(PACKAGE_VERSION_PATTERN, { message: "must be one exact version such as `1.22.1-9`: letters, digits and `. + ~ : _ -`, starting with a letter or digit" })
      .optional()
      .describe("The exact version to install (with state present)"),
    requires: references.optional(),
  })
  .strict();

export const ResourceSchema = z.discriminatedUnion("type", [ServiceSchema, TimerSchema, FileSchema, PackageSchema]);

export type Service = z.infer<typeof ServiceSchema>;
export type Timer = z.infer<typeof TimerSchema>;
export type FileResource = z.infer<typeof FileSchema>;
export type Package = z.infer<typeof PackageSchema>;
export type Resource = z.infer<typeof ResourceSchema>;
export type ResourceType = Resource["type"];
export type { Signal } from "./signals.js";
export { SIGNALS };
