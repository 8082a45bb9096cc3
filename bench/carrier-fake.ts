// The Twilio fake in a process of its own for the carriers bench (bench/carriers.ts), so that the fake's work does
// not delay what it measures: prints its URL, serves until killed. Arguments: account SID, auth token, speed, and
// optionally the speed of the fake's text-to-speech (playbackSpeed, 1 by default; the relay-latency section).
import { FakeTwilio } from "../test/fakes/twilio.ts";

const [accountSid, authToken, speed, playback] = process.argv.slice(2) as [string, string, string, string | undefined];
const fake = new FakeTwilio({ accountSid, authToken, speed: Number(speed), playbackSpeed: Number(playback ?? 1) });
process.stdout.write(`${await fake.start()}\n`);
process.on("SIGTERM", () => void fake.close().then(() => process.exit(0)));
