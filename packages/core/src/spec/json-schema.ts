import * as z from "zod";
import { ResourceSchema } from "../model/resource-schema.js";

type Json = Record<string, unknown>;

/**
 * The JSON Schema editors use for `tend.yaml`: each document is one resource with
 * `tend: v1alpha1` and a `type` in either case (`service` or Datum's `Service`). Generated from
 * the zod schema, so the two cannot drift apart (a test compares it with the committed file).
 */
export function buildJsonSchema(): Json {
  const schema = z.toJSONSchema(ResourceSchema, { unrepresentable: "any", io: "input" }) as Json;
  const branches = (schema.oneOf ?? schema.anyOf) as Json[];
  for (const branch of branches) {
    const properties = branch.properties as Record<string, Json>;
    const type = properties.type!.const as string;
    properties.type = { enum: [type, type[0]!.toUpperCase() + type.slice(1)] };
    properties.tend = { const: "v1alpha1", description: "The document format version" };
    branch.required = ["tend", ...((branch.required as string[]) ?? [])];
  }
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "https://tend.dev/schema/v1alpha1.json",
    title: "tend resource (one YAML document)",
    ...schema,
  };
}
