import { isOneLine, type PlistValue } from "@tend/core";
import fc from "fast-check";
import plist from "plist";
import { describe, expect, it } from "vitest";
import { serializePlist, type PlistDict } from "./serialize-plist.js";
import { xmlUnsafeCharacter } from "./xml-unsafe-character.js";

describe("serializePlist", () => {
  it("puts a comment between the DOCTYPE and <plist>, where parsers skip it", () => {
    const dict = { Label: "tend.web", RunAtLoad: true };
    const text = serializePlist(dict, { comment: "Managed by tend. Edits are overwritten on the next apply." });
    expect(text.split("\n").slice(0, 4)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      "<!-- Managed by tend. Edits are overwritten on the next apply. -->",
      '<plist version="1.0">',
    ]);
    expect(plist.parse(text)).toEqual(dict);
    expect(text.replace(/<!--.*-->\n/, "")).toBe(serializePlist(dict));
  });

  it("refuses a comment XML cannot hold (`--`, a trailing `-`, a newline)", () => {
    for (const comment of ["a -- b", "ends with -", "two\nlines"]) expect(() => serializePlist({}, { comment })).toThrow("a plist comment cannot hold");
  });

  it("writes a standard Apple XML plist: declaration, DOCTYPE, version 1.0, one top-level dict", async () => {
    const text = serializePlist({
      Label: "tend.sample",
      ProgramArguments: ["/bin/sh", "-c", "echo 'a & b' < in > out"],
      StartInterval: 300,
      Nice: -5,
      ThrottleRatio: 1.5,
      RunAtLoad: true,
      KeepAlive: false,
      EnvironmentVariables: { LANG: "fr_FR.UTF-8", GREETING: "héllo 😀 \"quoted\" 'single'" },
      WatchPaths: [],
      SoftResourceLimits: {},
      Empty: "",
    });
    await expect(text).toMatchFileSnapshot("./__golden__/all-types.plist");
    expect(text.split("\n").slice(0, 3)).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
      '<plist version="1.0">',
    ]);
    expect(text.endsWith("</dict>\n</plist>\n")).toBe(true);
  });

  it("escapes &, < and > in strings and keys, and the parser gets them back", () => {
    const dict = { "a&b<c>": "x & y < z > w ]]> &amp;" };
    const text = serializePlist(dict);
    expect(text).toContain("<key>a&amp;b&lt;c&gt;</key>");
    expect(text).toContain("<string>x &amp; y &lt; z &gt; w ]]&gt; &amp;amp;</string>");
    expect(plist.parse(text)).toEqual(dict);
  });

  it("writes whole numbers as <integer> (launchd needs them for StartInterval, Hour, …) and others as <real>", () => {
    const text = serializePlist({ StartInterval: 300, Hour: 0, Negative: -3, Big: 2 ** 60, Ratio: 0.25, Huge: 1e21, Tiny: 5e-324 });
    expect(text).toContain("<key>StartInterval</key>\n\t<integer>300</integer>");
    expect(text).toContain("<key>Hour</key>\n\t<integer>0</integer>");
    expect(text).toContain("<integer>-3</integer>");
    expect(text).toContain("<integer>1152921504606846976</integer>");
    expect(text).toContain("<real>0.25</real>");
    expect(text).toContain("<real>1e+21</real>");
    expect(plist.parse(text)).toEqual({ StartInterval: 300, Hour: 0, Negative: -3, Big: 2 ** 60, Ratio: 0.25, Huge: 1e21, Tiny: 5e-324 });
  });

  it("writes booleans as <true/> and <false/>", () => {
    const text = serializePlist({ RunAtLoad: true, KeepAlive: { SuccessfulExit: false } });
    expect(text).toContain("<key>RunAtLoad</key>\n\t<true/>");
    expect(text).toContain("<key>SuccessfulExit</key>\n\t\t<false/>");
  });

  it("refuses a character XML cannot carry instead of writing a plist launchd rejects", () => {
    expect(() => serializePlist({ Bad: "a\ud800b" })).toThrow(/U\+D800/);
    expect(() => serializePlist({ Bad: "\uffff" })).toThrow(/U\+FFFF/);
    expect(() => serializePlist({ "\u0001": "x" })).toThrow(/U\+0001/);
  });
});

/** Strings the model lets through (one line, no control characters) that a plist can carry. */
const modelString = fc
  .oneof(
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.string({ unit: "grapheme", maxLength: 12 }),
    fc.constantFrom("&", "<", ">", '"', "'", "\t", "]]>", "&amp;", "é", "😀", "\u00a0", "  leading and trailing  ", "", "<!-- x -->", "<![CDATA[x]]>"),
  )
  .filter((s) => isOneLine(s) && xmlUnsafeCharacter(s) === undefined);

// The oracle (the plist package's parser) builds dicts as plain objects, so it cannot read back
// keys named like Object.prototype members (`toString`, `__proto__`); our serializer writes them fine.
const key = modelString.filter((s) => !(s in Object.prototype));
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)));

const { value } = fc.letrec<{ value: PlistValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    modelString,
    number,
    fc.boolean(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(key, tie("value"), { maxKeys: 4 }),
  ),
}));

describe("serializePlist round-trip (the plist package's parser as the oracle)", () => {
  it("reads back every value the model allows, identical", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (dict: PlistDict) => {
        expect(plist.parse(serializePlist(dict))).toEqual(dict);
      }),
      { numRuns: 2000 },
    );
  });
});
