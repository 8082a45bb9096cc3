// JSON as platforms send it, with integers past 2^53 kept exact (issue 30.9). Shopify's order, line-item, product
// and customer ids are 64-bit (its own sample order is 820982911946154508); JSON.parse would round them, so two
// orders could share an id. Here an integer literal that a double cannot hold becomes a string of its digits.

/** JSON.parse, except that an integer literal outside Number.MAX_SAFE_INTEGER comes back as its exact digits, a string. */
export function parseJsonExact(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

/** The text with every integer literal past 2^53 (outside strings) wrapped in quotes; everything else untouched. */
export function quoteUnsafeIntegers(text: string): string {
  let out = "";
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote, over escapes.
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i += 2;
        else if (d === 0x22) break;
        else i++;
      }
      i++;
      continue;
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) i++;
        else break;
      }
      const literal = text.slice(start, i);
      if (/^-?\d{16,}$/.test(literal) && !Number.isSafeInteger(Number(literal))) {
        out += `${text.slice(last, start)}"${literal}"`;
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
}
