import { describe, expect, it } from "vitest";
import { lexSettingValue, substituteDollars } from "./lex-setting-value.js";
import { quoteDinitToken } from "./quote-dinit-token.js";

// lexSettingValue + substituteDollars is checked against the real dinit in lex-setting-value.test.ts.
function readBack(value: string): (string | undefined)[] {
  return lexSettingValue(value).map(substituteDollars);
}

describe("quoteDinitToken", () => {
  it("leaves plain words alone", () => {
    expect(quoteDinitToken("/opt/web/bin/server")).toBe("/opt/web/bin/server");
    expect(quoteDinitToken("RUST_LOG=info")).toBe("RUST_LOG=info");
    expect(quoteDinitToken("--port")).toBe("--port");
  });

  it("quotes white space, quotes, backslashes and comments, and doubles every $", () => {
    expect(quoteDinitToken("a b")).toBe('"a b"');
    expect(quoteDinitToken('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteDinitToken("a\\b")).toBe('"a\\\\b"');
    expect(quoteDinitToken("#x")).toBe('"#x"');
    expect(quoteDinitToken("echo $HOME")).toBe('"echo $$HOME"');
    expect(quoteDinitToken("$$")).toBe('"$$$$"');
    expect(quoteDinitToken("")).toBe('""');
  });

  it("round-trips any one-line text through dinit's reading", () => {
    const alphabet = ['"', "\\", "$", "#", " ", "\t", "'", "{", "}", "/", "=", "@", "a", "Z", "0", "é", "-", ";", "`", "~", "%", "!"];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let n = 0; n < 2000; n += 1) {
      const length = Math.floor(random() * 12);
      const token = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]!).join("");
      expect(readBack(quoteDinitToken(token))).toEqual([token]);
      expect(readBack(`/bin/sh -c ${quoteDinitToken(token)} x`)).toEqual(["/bin/sh", "-c", token, "x"]);
    }
  });
});
