/**
 * Runs as a user's own uid (spawned by tend running as root) and performs file operations in
 * folders that user owns, resolving every path itself: a link the user planted can only lead
 * where the user could write anyway. Reads `{ root, operations }` as JSON on stdin, answers one
 * result per operation as JSON on stdout.
 */
import { performLocally } from "./file-operation.js";
import { operationsFromJson } from "./operations-json.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => (input += chunk));
process.stdin.on("end", () => {
  try {
    const { root, operations } = operationsFromJson(input);
    process.stdout.write(JSON.stringify(performLocally(root, operations)));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exitCode = 1;
  }
});
