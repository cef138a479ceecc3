/**
 * Splits a dinit setting value into its words the way dinit's `read_setting_value` does
 * (src/includes/load-service.h, 0.22): white space separates words and is collapsed, double
 * quotes group, a backslash makes the next character literal (inside quotes too), and `#` after
 * white space starts a comment. `$` substitution is a later step: see {@link substituteDollars}.
 * Throws on what dinit rejects: an unterminated quote, a `#` glued to a word.
 */
/** C's `isspace` in the classic locale; dinit uses nothing wider. */
const SPACE = /[ \t\n\v\f\r]/;

export function lexSettingValue(value: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let i = 0;
  const append = (text: string) => {
    word = (word ?? "") + text;
  };
  while (i < value.length) {
    const char = value[i]!;
    if (char === '"') {
      append("");
      i += 1;
      while (i < value.length && value[i] !== '"') {
        if (value[i] === "\\") i += 1;
        append(value[i] ?? "");
        i += 1;
      }
      if (i >= value.length) throw new Error("unterminated quoted string");
      i += 1;
    } else if (char === "\\") {
      append(value[i + 1] ?? "");
      i += 2;
    } else if (SPACE.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
      while (i < value.length && SPACE.test(value[i]!)) i += 1;
      if (value[i] === "#") break;
    } else if (char === "#") {
      throw new Error("hashmark (`#') comment must be separated from setting value by whitespace");
    } else {
      append(char);
      i += 1;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * dinit's substitution step for a word that uses no variables: `$$` becomes `$`. Returns
 * undefined when the word refers to a variable (`$NAME`, `${…}`), whose value only the running
 * dinit knows.
 */
export function substituteDollars(word: string): string | undefined {
  let result = "";
  for (let i = 0; i < word.length; i += 1) {
    if (word[i] !== "$") {
      result += word[i];
    } else if (word[i + 1] === "$") {
      result += "$";
      i += 1;
    } else {
      return undefined;
    }
  }
  return result;
}
