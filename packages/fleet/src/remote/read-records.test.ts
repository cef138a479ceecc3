import { describe, expect, it } from "vitest";
import { AGAIN, parseReads, posixCksum } from "./read-records.js";

const od = (bytes: string) => [...Buffer.from(bytes)].map((b) => ` ${b.toString(16).padStart(2, "0")}`).join("");

describe("read records", () => {
  it("computes POSIX cksum's CRC", () => {
    expect(posixCksum(Buffer.from(""))).toBe(4294967295);
    expect(posixCksum(Buffer.from("123456789"))).toBe(930766865);
    expect(posixCksum(Buffer.alloc(300, 0))).toBe(posixCksum(Buffer.alloc(300, 0)));
  });

  it("pairs each folder's device with its file system's room, and answers absent for all when stat failed", () => {
    const { records, failed } = parseReads("@b\trooms\t1 0\n2049\n64\n4096 100 50 1000\n1024 7 0 0\n");
    expect(records.map((r) => [r.kind, r.detail])).toEqual([["room", "64 1024 7 0 0"], ["room", "2049 4096 100 50 1000"]]);
    expect(failed.size).toBe(0);
    expect(parseReads("@b\trooms\t0 1\n2049\nfail\n").records.map((r) => r.kind)).toEqual(["absent", "absent"]);
  });

  it("splits a batch of files by cksum's sizes and CRCs", () => {
    const [a, b] = ["one\n", "\0two"];
    const out = `@0\tdirectory\n@b\tfiles\t2 1\n${od(a + b)}\n@b\tcksum\n${posixCksum(Buffer.from(a))} 4 /x/a\n${posixCksum(Buffer.from(b))} 4 /x/b with spaces\n`;
    const { records, failed } = parseReads(out);
    expect(records[0]?.kind).toBe("directory");
    expect(records[2]?.bytes?.toString()).toBe(a);
    expect(records[1]?.bytes?.toString()).toBe(b);
    expect(failed.size).toBe(0);
  });

  it("answers again for each read of a batch that does not add up, naming its kind", () => {
    const sum = posixCksum(Buffer.from("abc"));
    const ab = posixCksum(Buffer.from("ab"));
    // a path gone; sizes that do not cover the bytes; a part whose CRC differs; bytes split wrong; nothing
    for (const cksum of [`${sum} 3 /a\n`, `${sum} 3 /a\n${ab} 2 /b\n`, `${sum + 1} 3 /a\n${sum} 3 /b\n`, `${ab} 2 /a\n${sum} 4 /b\n`, ""]) {
      const { records, failed } = parseReads(`@b\tfiles\t0 1\n${od("abcabc")}\n@b\tcksum\n${cksum}`);
      expect([records[0]?.kind, records[1]?.kind]).toEqual([AGAIN, AGAIN]);
      expect([...failed]).toEqual(["f"]);
    }
    // cut short before cksum answered
    expect(parseReads(`@b\tfiles\t0 1\n${od("abcabc")}\n`).records[1]?.kind).toBe(AGAIN);
  });

  it("splits links by line, refusing a failed readlink or a target with a newline; times by line", () => {
    expect(parseReads(`@b\tlinks\t3 4\n${od("/a\nb c\n")}\n`).records.slice(3).map((r) => r.bytes?.toString())).toEqual(["/a", "b c"]);
    expect(parseReads(`@b\tlinks\t3 4\n${od("/a\n\0")}\n`).failed).toEqual(new Set(["l"]));
    expect(parseReads(`@b\tlinks\t3 4\n${od("/a\nb\nc\n")}\n`).failed).toEqual(new Set(["l"]));
    expect(parseReads(`@b\ttimes\t0 1\n12\n-3\n`).records.map((r) => [r.kind, r.detail])).toEqual([["mtime", "12"], ["mtime", "-3"]]);
    expect(parseReads(`@b\ttimes\t0 1\n12\nfail\n`).failed).toEqual(new Set(["m"]));
  });
});
