// The package's version, read on its own: `wakha --version` prints it without loading the server (src/main.ts).
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
export const VERSION = pkg.version;
