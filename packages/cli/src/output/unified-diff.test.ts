import { SECRET_NAME } from "@tend/core/runtime";
import { describe, expect, it } from "vitest";
import { secretSpans } from "./secret-spans.js";
import { unifiedDiff } from "./unified-diff.js";

const masked = (text: string) => {
  let out = "";
  let from = 0;
  for (const span of secretSpans(text, SECRET_NAME)) {
    out += `${text.slice(from, span.start)}<>`;
    from = span.end;
  }
  return out + text.slice(from);
};

describe("secretSpans", () => {
  it("finds the values of secret-looking names in each init's form, and nothing else", () => {
    expect(masked('Environment="API_TOKEN=s3 cr\\"3t$x"\nEnvironment="LEVEL=info"\n')).toBe('Environment="API_TOKEN=<>"\nEnvironment="LEVEL=info"\n');
    expect(masked('command = /usr/bin/env "API_TOKEN=s3 cr\\"3t$$x" DB_PASSWORD=abc LEVEL=info /opt/web\n')).toBe('command = /usr/bin/env "API_TOKEN=<>" DB_PASSWORD=<> LEVEL=info /opt/web\n');
    expect(masked("export API_TOKEN='s3 cr\"3t$x'\nexport DB_PASSWORD=abc\nexport LEVEL=info\n")).toBe("export API_TOKEN=<>\nexport DB_PASSWORD=<>\nexport LEVEL=info\n");
    expect(masked("export SESSION_KEY=a\\ b'c d'\"e\\\"f\";echo\n")).toBe("export SESSION_KEY=<>;echo\n");
    expect(masked("\t\t<key>API_TOKEN</key>\n\t\t<string>s3 cr&quot;3t$x</string>\n\t\t<key>LEVEL</key>\n\t\t<string>info</string>\n")).toBe(
      "\t\t<key>API_TOKEN</key>\n\t\t<string><></string>\n\t\t<key>LEVEL</key>\n\t\t<string>info</string>\n",
    );
    expect(masked("ExecStart=/opt/web --port=8080\nUser=web\n")).toBe("ExecStart=/opt/web --port=8080\nUser=web\n");
  });

  it("stops an unclosed quote at the line's end", () => {
    expect(masked('Environment="API_TOKEN=abc\nUser=web\n')).toBe('Environment="API_TOKEN=<>\nUser=web\n');
  });
});

describe("unifiedDiff", () => {
  it("masks a secret a hand edit put in the file, which no spec knows, and says it changed", () => {
    const before = "#!/bin/sh\nexport API_TOKEN=h4nd-s3cr3t\nexport PIN_KEY=42\nexec /opt/web\n";
    const after = "#!/bin/sh\nexport API_TOKEN=********\nexport PIN_KEY=42\nexec /opt/web\n".replace("********", "sp3c-s3cr3t");
    const diff = unifiedDiff("/etc/sv/tend-web/run", before, after, SECRET_NAME, { before: ["sp3c-s3cr3t"], after: ["sp3c-s3cr3t"] });
    expect(diff).toContain("-export API_TOKEN=********(was)\n+export API_TOKEN=********(now)\n");
    expect(diff).not.toContain("s3cr3t");
    // a short secret, the same on both sides: masked, and no change shown
    expect(diff).not.toContain("42");
    expect(diff).not.toContain("PIN_KEY=********(");
  });

  it("masks a spec's secret wherever it appears, even outside an assignment", () => {
    const diff = unifiedDiff("/etc/x", "exec /opt/web --token s3cr3t-value\n", "exec /opt/web --token n3w-s3cr3t\n", SECRET_NAME, { before: ["s3cr3t-value"], after: ["n3w-s3cr3t"] });
    expect(diff).toContain("-exec /opt/web --token ********(was)\n+exec /opt/web --token ********(now)\n");
  });
});
