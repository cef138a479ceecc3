/**
 * Runs as a user's own uid (spawned by tend running as root, see user-writer.ts) and performs file
 * operations in folders that user owns, resolving every path itself: a link the user planted can
 * only lead where the user could write anyway. Reads one batch per line, `{ root, operations }`
 * as JSON, and answers each with one line: a result per operation, as JSON. Ends with its input.
 */
import { performLocally } from "./file-operation.js";
import { operationsFromJson } from "./operations-json.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => {
  input += chunk;
  let newline: number;
  while ((newline = input.indexOf("\n")) >= 0) {
    const line = input.slice(0, newline);
    input = input.slice(newline + 1);
    try {
      const { root, operations } = operationsFromJson(line);
      process.stdout.write(`${JSON.stringify(performLocally(root, operations))}\n`);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    }
  }
});
