#!/usr/bin/env node
// Entry point for `wakha` and `npm start`: the TypeScript sources run on Node 24's built-in type stripping.
const major = Number(process.versions.node.split(".")[0]);
if (major < 24) {
  console.error(
    `wakha needs Node.js 24 or later (this is ${process.version}); run it through npm (npm start, npx wakha), which uses the project's own Node 24.`,
  );
  process.exit(1);
}
await import("../src/main.ts");
