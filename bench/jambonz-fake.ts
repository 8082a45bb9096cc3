// The jambonz fake in a process of its own for the transfer bench (bench/transfer.ts), so that the fake's work does
// not delay what it measures: prints its URL, serves until killed. Arguments: account SID, API key, webhook secret,
// speed.
import { FakeJambonz } from "../test/fakes/jambonz.ts";

const [accountSid, apiKey, webhookSecret, speed] = process.argv.slice(2) as [string, string, string, string];
const fake = new FakeJambonz({ accountSid, apiKey, webhookSecret, speed: Number(speed) });
process.stdout.write(`${await fake.start()}\n`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
