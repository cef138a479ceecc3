import { parseAllDocuments } from "yaml";
import { describe, expect, it } from "vitest";
import { splitYamlDocuments } from "./yaml-documents.js";

describe("splitYamlDocuments", () => {
  it("cuts at every line that starts a document, keeping the marker with its document", () => {
    const text = "# head\na: 1\n--- \nb: 2\n---\n---\tc: 3\n---{x}\nd: [---]\n  ---\n---";
    expect(splitYamlDocuments(text)).toEqual(["# head\na: 1\n", "--- \nb: 2\n", "---\n", "---\tc: 3\n---{x}\nd: [---]\n  ---\n", "---"]);
    expect(splitYamlDocuments("---\na: 1\n")).toEqual(["---\na: 1\n"]);
    expect(splitYamlDocuments("")).toEqual([""]);
  });

  it("vouches for no stream with directives, an end marker, a byte order mark or another line end", () => {
    for (const text of ["%YAML 1.2\n---\na: 1\n", "a: 1\n...\nb: 2\n", "a: 1\n... # end\n", "\uFEFFa: 1\n", "a: 1\r\n---\r\nb: 2\r\n", "a: x\u2028---\nb: 2\n"]) {
      expect(splitYamlDocuments(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it("gives pieces that parse alone to the documents the whole stream has (the YAML library agrees)", () => {
    const text = [
      "# a comment before the first document",
      "tend: v1alpha1",
      "name: a",
      "exec: |",
      "  line",
      "  --- not a marker: indented",
      "---",
      "name: &n b",
      "alias: *n",
      "quoted: \"---\"",
      "--- # a comment on the marker",
      "--- {name: c, list: [1, 2]}",
      "---",
      "# only a comment",
    ].join("\n");
    const whole = parseAllDocuments(text).map((doc) => doc.toJS());
    const pieces = splitYamlDocuments(text)!.flatMap((piece) => parseAllDocuments(piece).map((doc) => doc.toJS()));
    expect(pieces).toEqual(whole);
    expect(whole).toHaveLength(5);
  });
});
