// Issue 29's floor-plan measures, printed as a table: `node scripts/architecture-metrics.ts [checkout ...]`
// (default: this checkout). Give an older checkout beside it to print before and after side by side.
import { readFileSync } from "node:fs";
import path from "node:path";
import { cycles, importGraph } from "./import-graph.ts";

const VENDORS = ["twilio", "jambonz"];
const CARRIER_NAMES = ["twilio", "twilio-media", "jambonz"];

function cycleCount(graph: Map<string, string[]>): number {
  return cycles(graph).length;
}

const SQL = /\b(SELECT\s[\s\S]{0,400}?\sFROM\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s)/;
const CALL_TABLES =
  /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM|FROM|JOIN)\s+(calls|orders|order_events|call_transcripts|transactions|holds)\b/;
/** Code without comments, so that a path named in a comment is not counted. */
const code = (file: string) =>
  readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
const under = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

export function measure(checkout: string): Record<string, number | string> {
  const src = path.resolve(checkout, "src");
  const graph = importGraph(src);
  const files = [...graph.keys()];
  const text = new Map(files.map((f) => [f, code(path.join(src, f))]));
  const engine = files.filter((f) => under(f, "engine"));
  const lowFloors = [
    "db",
    "jobs",
    "context.ts",
    "schemas",
    "webhooks",
    "orders",
    "read-models",
    "storage",
    "config",
    "config.ts",
    "carrier-config.ts",
    "recordings-config.ts",
    "http-config.ts",
  ];
  const vendorFolder = (f: string) => VENDORS.some((v) => under(f, `engine/telephony/${v}`));
  const carrierBranch = new RegExp(`(case|===|!==|has\\(|includes\\()\\s*"(${CARRIER_NAMES.join("|")})"`, "g");
  const branches = files
    .filter((f) => !vendorFolder(f))
    .flatMap((f) => [...text.get(f)!.matchAll(carrierBranch)].map(() => f));
  const registry =
    /^(const|let)\s+\w+\s*=\s*new\s+(WeakMap|Map)<\s*(AppContext|Config|object|CallEngine|Root|AppRoot)\b|^(const|let)\s+\w+\s*=\s*new\s+Map<string,\s*(Worker|Promise<Worker)/gm;
  const carrierTouch = files.filter((f) => !vendorFolder(f) && /jambonz/i.test(text.get(f)!));
  const floors = new Set(
    files.filter((f) => CALL_TABLES.test(text.get(f)!)).map((f) => (f.includes("/") ? f.split("/")[0]! : f)),
  );
  return {
    "engine files with SQL": engine.filter((f) => SQL.test(text.get(f)!)).length,
    "engine imports of db, jobs, context, schemas, webhooks, orders, read-models, storage, config": engine.flatMap(
      (f) => graph.get(f)!.filter((d) => lowFloors.some((l) => under(d, l))),
    ).length,
    "services -> engine imports": files
      .filter((f) => under(f, "services"))
      .flatMap((f) => graph.get(f)!.filter((d) => under(d, "engine"))).length,
    "vendor-named files in inbound/": files.filter(
      (f) => under(f, "inbound") && new RegExp(VENDORS.join("|"), "i").test(path.basename(f)),
    ).length,
    "places that branch on a carrier name": branches.length,
    "registries keyed by a root or config object": files.reduce(
      (n, f) => n + [...text.get(f)!.matchAll(registry)].length,
      0,
    ),
    "files outside the carrier's folder that name a carrier (jambonz)": carrierTouch.length,
    "import cycles": cycleCount(graph),
    "floors holding a call's use cases (top-level folders with SQL on calls, orders, transactions)": floors.size,
    _carrierTouch: carrierTouch.join(", "),
    _floors: [...floors].join(", "),
    _branches: [...new Set(branches)].join(", "),
  };
}

if (import.meta.main) {
  const checkouts = process.argv.length > 2 ? process.argv.slice(2) : [process.cwd()];
  const results = checkouts.map(measure);
  console.log(`| measure | ${checkouts.map((c) => path.basename(path.resolve(c))).join(" | ")} |`);
  console.log(`|---|${checkouts.map(() => "---:").join("|")}|`);
  for (const key of Object.keys(results[0]!))
    if (!key.startsWith("_")) console.log(`| ${key} | ${results.map((r) => r[key]).join(" | ")} |`);
  for (const key of Object.keys(results[0]!))
    if (key.startsWith("_"))
      for (const [i, r] of results.entries())
        console.log(`${key.slice(1)} (${path.basename(path.resolve(checkouts[i]!))}): ${r[key]}`);
}
