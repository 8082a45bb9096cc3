// Moved to src/carrier-config.ts (issue 11: config.ts imports it and must not import the engine). Import from
// there; this re-export can go once nothing imports this path.
export * from "../../carrier-config.ts";
