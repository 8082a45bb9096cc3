// PHP's json_encode with its default flags, the way WooCommerce (wp_json_encode) and YouCan (Laravel) put a webhook
// body on the wire: "/" escaped as "\/", every non-ASCII character as a lowercase \uXXXX escape (surrogate pairs for
// astral ones), control characters as \b \f \n \r \t or \u00XX. The fakes sign exactly these bytes.
export function phpJsonEncode(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("json_encode: Inf and NaN cannot be JSON encoded");
    return JSON.stringify(value);
  }
  if (typeof value === "string") return phpString(value);
  if (Array.isArray(value)) return `[${value.map(phpJsonEncode).join(",")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([k, v]) => `${phpString(k)}:${phpJsonEncode(v)}`).join(",")}}`;
  }
  throw new Error(`json_encode: cannot encode a ${typeof value}`);
}

const SHORT: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "/": "\\/",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function phpString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (SHORT[ch] !== undefined) out += SHORT[ch];
    else if (code < 0x20 || code >= 0x80) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return `${out}"`;
}
