/**
 * Runs as a user's own uid (spawned by tend running as root) and performs file operations in
 * that user's home, so root never resolves a user-writable path (no symlink tricks into /etc).
 */
import { performFileOperation, type FileOperation } from "./file-operation.js";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk: string) => (input += chunk));
process.stdin.on("end", () => {
  void (async () => {
    try {
      const operations = JSON.parse(input) as FileOperation[];
      for (const operation of operations) await performFileOperation(operation);
    } catch (error) {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exit(1);
    }
  })();
});
