// `npm run bench`'s audio section (issue 13): bench/audio.ts in a process of its own (its event-loop delay is its
// calls' alone), Silero at its default end-of-turn silence then the energy detector for comparison, 100 calls; then
// bench/azure-stt.ts: what streaming recognition through the Speech SDK costs, 50 customers speaking at once.
import { spawn } from "node:child_process";
import path from "node:path";
import type { SectionResult } from "./sections.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

function runAudioBench(args: string[], env: Record<string, string>, script = "audio.ts"): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bench", script), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("close", (code) =>
      code === 0
        ? resolve(out.trim())
        : reject(new Error(`bench/${script} ${args.join(" ")} exited ${code}: ${err.trim().split("\n").at(-1) ?? ""}`)),
    );
  });
}

export async function audioSection(log: (m: string) => void): Promise<SectionResult> {
  const seconds = process.env["BENCH_AUDIO_SECONDS"] ?? "20";
  log(`audio: 100 calls, ${seconds} s, Silero then energy, then the audio simulator, then Azure streaming recognition`);
  const silero = await runAudioBench(["100", seconds, "200", "silero"], { AUDIO_BENCH_SIMULATOR: "1" });
  const energy = await runAudioBench(["100", seconds, "400", "energy"], { AUDIO_BENCH_SIMULATOR: "0" });
  const azure = await runAudioBench(["50", seconds], {}, "azure-stt.ts");
  return { name: "audio", text: `\n${silero}\n${energy}\n${azure}` };
}
