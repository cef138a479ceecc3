import { GREETING } from "./greeting.js";
import { doc } from "./spec-documents.js";

/**
 * Three DEMO services, one for each restart policy of the seed's table, for the suites of inits
 * that supervise them: web (`always`, with GREETING in its environment), guard (`on_failure`)
 * and once (no restart).
 */
export const WEB = doc(`
type: Service
name: web
exec: /opt/demo/bin/demo web
restart: always
env:
  GREETING: ${JSON.stringify(GREETING)}
`);

export const GUARD = doc(`
type: Service
name: guard
exec: /opt/demo/bin/demo guard
restart: on_failure
`);

export const ONCE = doc(`
type: Service
name: once
exec: /opt/demo/bin/demo once
`);
