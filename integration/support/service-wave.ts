import type { TestHost } from "@tend/testkit/harness";
import { livePids } from "./exec-forms.js";
import { doc } from "./spec-documents.js";

/**
 * A wave of `n` services b0…b(n-1) for the batching tests: each DEMO under its own name, `always`,
 * with ROUND in its environment, so that a wave of another round changes every one of them.
 */
export function serviceWave(n: number, round: number): string[] {
  return Array.from({ length: n }, (_, i) => doc(`type: Service\nname: b${i}\nexec: /opt/demo/bin/demo b${i}\nrestart: always\nenv:\n  ROUND: "${round}"`));
}

/** The ROUND each live process of NAME runs with, read from its environment. */
export async function roundsRunning(host: TestHost, name: string): Promise<string[]> {
  const rounds: string[] = [];
  for (const pid of await livePids(host, name)) {
    const environ = (await host.readFile(`/proc/${pid}/environ`)).split("\0");
    rounds.push(environ.find((entry) => entry.startsWith("ROUND="))?.slice("ROUND=".length) ?? "");
  }
  return rounds;
}
