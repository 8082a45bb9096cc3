// The Twilio fake in a process of its own for the carriers bench (bench/carriers.ts), so that the fake's work does
// not delay what it measures: prints its URL, serves until killed. Arguments: account SID, auth token, speed.
import { FakeTwilio } from "../test/fakes/twilio.ts";

const [accountSid, authToken, speed] = process.argv.slice(2) as [string, string, string];
const fake = new FakeTwilio({ accountSid, authToken, speed: Number(speed) });
process.stdout.write(`${await fake.start()}\n`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
