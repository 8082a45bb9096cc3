// The command line of `wakha`: every command and subcommand, its options and its help, parsed before anything
// runs. `--help` and `--version` answer at any level without touching the database or the network; an unknown
// command or option, a missing or malformed value is a usage error (exit 2) that shows the command's usage.
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

export class UsageError extends Error {
  readonly usage: string;
  constructor(message: string, usage: string) {
    super(message);
    this.usage = usage;
  }
}

interface CommandSpec {
  usage: string;
  options: ParseArgsOptionsConfig;
  /** How many positional arguments it takes. */
  positionals: [min: number, max: number];
  /** Commands that parse their own arguments (classify) get the rest of the line as it is. */
  passThrough?: boolean;
}

const COMMON = "  -h, --help       show this help and exit\n  -V, --version    print the version and exit";

export const TOP_USAGE = `wakha: order-confirmation voice calls

Usage:
  wakha serve                                   serve the REST API, docs and MCP, and run the workers (npm start)
  wakha worker                                  run only the engine's workers (scale-out nodes)
  wakha migrate                                 apply pending database migrations
  wakha accounts create --name NAME [--balance-seconds N] [--json]
  wakha accounts credit ACCOUNT_ID --seconds N [--json]
  wakha accounts set ACCOUNT_ID [--max-concurrent-calls N|default] [--allow-any-number on|off] [--json]
  wakha classify --country MA|DZ|TN|FR          classify one utterance per stdin line, print one JSON line each
  wakha classify --json-input                   each stdin line is {"country", "text"}
  wakha doctor [--online]                       check the configuration (--online: the carriers' credentials too)

Options:
${COMMON}

Every command takes --help. Configuration is read from the environment; see README.md.`;

const COMMANDS: Record<string, CommandSpec> = {
  serve: {
    usage: `Usage: wakha serve\n\nServes the REST API, the docs, the MCP server and the inbound webhooks, and runs the call engine's workers\n(WAKHA_ROLE=api serves HTTP only). Applies pending migrations first. Ctrl-C stops it.\n\nOptions:\n${COMMON}`,
    options: {},
    positionals: [0, 0],
  },
  worker: {
    usage: `Usage: wakha worker\n\nRuns only the engine's workers (placing calls, delivering webhooks, the crash sweep), for scaling out.\n\nOptions:\n${COMMON}`,
    options: {},
    positionals: [0, 0],
  },
  migrate: {
    usage: `Usage: wakha migrate\n\nApplies pending database migrations (serve and worker apply them at start too).\n\nOptions:\n${COMMON}`,
    options: {},
    positionals: [0, 0],
  },
  "accounts create": {
    usage: `Usage: wakha accounts create --name NAME [--balance-seconds N] [--json]\n\nCreates an account and its first API key (printed once).\n\nOptions:\n  --name NAME              the account's name (required)\n  --balance-seconds N      starting balance in seconds (default 0)\n  --json                   print {"account_id", "key_id", "api_key"}\n${COMMON}`,
    options: { name: { type: "string" }, "balance-seconds": { type: "string" }, json: { type: "boolean" } },
    positionals: [0, 0],
  },
  "accounts credit": {
    usage: `Usage: wakha accounts credit ACCOUNT_ID --seconds N [--json]\n\nAdds balance to an account, recorded as a credit transaction.\n\nOptions:\n  --seconds N      seconds to add (required)\n  --json           print the account's balance as JSON\n${COMMON}`,
    options: { seconds: { type: "string" }, json: { type: "boolean" } },
    positionals: [1, 1],
  },
  "accounts set": {
    usage: `Usage: wakha accounts set ACCOUNT_ID [--max-concurrent-calls N|default] [--allow-any-number on|off] [--json]\n\nChanges an account's settings (at least one).\n\nOptions:\n  --max-concurrent-calls N   calls ringing or in progress at once (1 to 100000); \`default\` for WAKHA_MAX_CONCURRENT_CALLS\n  --allow-any-number on|off  on: calls may go to any valid number (premium-rate, satellite, other countries' included);\n                             off (the default): only mobile and fixed-line numbers of the call's country\n  --json                     print {"account_id", "max_concurrent_calls"} or {"account_id", "allow_any_number"}\n${COMMON}`,
    options: {
      "max-concurrent-calls": { type: "string" },
      "allow-any-number": { type: "string" },
      json: { type: "boolean" },
    },
    positionals: [1, 1],
  },
  doctor: {
    usage: `Usage: wakha doctor [--online]\n\nChecks the configuration a node would start with, channel by channel; with --online also asks each\ncarrier in use whether the credentials work. Exit code 1 when a check fails.\n\nOptions:\n  --online         also check the carriers' credentials (makes network requests)\n${COMMON}`,
    options: { online: { type: "boolean" } },
    positionals: [0, 0],
  },
  classify: {
    usage: `Usage: wakha classify --country MA|DZ|TN|FR [--explain]\n       wakha classify --json-input [--country C] [--explain]\n\nReads one utterance per stdin line and prints one JSON line {"intent", "confidence"} for each.\n\nOptions:\n  --country C      MA, DZ, TN or FR\n  --json-input     each line is {"country", "text"}\n  --explain        add what decided each line\n${COMMON}`,
    options: {},
    positionals: [0, Infinity],
    passThrough: true,
  },
};

const ACCOUNTS_USAGE = `Usage:
  wakha accounts create --name NAME [--balance-seconds N] [--json]
  wakha accounts credit ACCOUNT_ID --seconds N [--json]
  wakha accounts set ACCOUNT_ID [--max-concurrent-calls N|default] [--allow-any-number on|off] [--json]

Creates accounts and adds balance, in the database the server uses (embedded or DATABASE_URL).

Options:
${COMMON}`;

export type Parsed =
  | { kind: "help"; text: string }
  | { kind: "version" }
  | {
      kind: "run";
      command: string;
      values: Record<string, string | boolean | undefined>;
      positionals: string[];
      rest: string[];
    };

const HELP = new Set(["-h", "--help"]);
const VERSION = new Set(["-V", "--version"]);

/** A whole number of seconds within what the ledger holds. */
export function parseSeconds(value: string | undefined, option: string, usage: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(value))
    throw new UsageError(`${option} must be a whole number of seconds, got "${value.slice(0, 32)}"`, usage);
  return Number(value);
}

/** Parses the command line; throws UsageError on anything it does not understand. */
export function parseCommandLine(argv: string[]): Parsed {
  const [first, second] = argv;
  if (first === undefined || first === "help" || HELP.has(first)) return { kind: "help", text: TOP_USAGE };
  if (VERSION.has(first)) return { kind: "version" };
  if (first.startsWith("-")) throw new UsageError(`unknown option "${first}"`, TOP_USAGE);

  let name = first;
  let args = argv.slice(1);
  if (first === "accounts") {
    if (second === undefined || HELP.has(second)) return { kind: "help", text: ACCOUNTS_USAGE };
    if (VERSION.has(second)) return { kind: "version" };
    if (second !== "create" && second !== "credit" && second !== "set")
      throw new UsageError(`unknown accounts command "${second.slice(0, 32)}"`, ACCOUNTS_USAGE);
    name = `accounts ${second}`;
    args = argv.slice(2);
  }
  const spec = COMMANDS[name];
  if (!spec) throw new UsageError(`unknown command "${first.slice(0, 32)}"`, TOP_USAGE);

  // Help and version win wherever they appear, before any other check, so they never run the command.
  if (args.some((a) => HELP.has(a))) return { kind: "help", text: spec.usage };
  if (args.some((a) => VERSION.has(a))) return { kind: "version" };
  if (spec.passThrough) return { kind: "run", command: name, values: {}, positionals: [], rest: args };

  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options: spec.options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional argument.*$/s, ""), spec.usage);
  }
  const [min, max] = spec.positionals;
  if (parsed.positionals.length < min) throw new UsageError(`missing argument`, spec.usage);
  if (parsed.positionals.length > max)
    throw new UsageError(`unexpected argument "${String(parsed.positionals[max]).slice(0, 32)}"`, spec.usage);
  return {
    kind: "run",
    command: name,
    values: parsed.values as Record<string, string | boolean | undefined>,
    positionals: parsed.positionals,
    rest: [],
  };
}

/** The usage text of a command, for errors found after parsing (a missing required option). */
export function usageOf(command: string): string {
  return COMMANDS[command]?.usage ?? TOP_USAGE;
}
