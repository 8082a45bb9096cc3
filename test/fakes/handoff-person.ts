// The shop's person at the handoff number, on the carrier fakes (issue 34), by the number's last two digits as the
// simulator's person (src/engine/telephony/simulator/transfer.ts): 03 does not answer, 04 is busy, 05 picks up and
// hangs up during the brief (refuses), 06 cannot be reached (the carrier reports the call `failed`), 07 talks until
// the line is cut (the balance test); any other picks up after 2 seconds and talks with the customer for 8.
export interface HandoffPerson {
  pickup: "answer" | "no_answer" | "busy" | "unreachable";
  ringSeconds: number;
  /** Hangs up halfway through the brief. */
  refuses: boolean;
  /** Seconds of bridged conversation before the person hangs up. */
  bridgeSeconds: number;
}

export function handoffPerson(number: string): HandoffPerson {
  const suffix = number.replace(/\D/g, "").slice(-2);
  const base: HandoffPerson = { pickup: "answer", ringSeconds: 2, refuses: false, bridgeSeconds: 8 };
  if (suffix === "03") return { ...base, pickup: "no_answer" };
  if (suffix === "04") return { ...base, pickup: "busy" };
  if (suffix === "05") return { ...base, refuses: true };
  if (suffix === "06") return { ...base, pickup: "unreachable" };
  if (suffix === "07") return { ...base, bridgeSeconds: 3600 };
  return base;
}

/** What a fake saw of a transfer, for the tests' assertions. */
export interface FakeHandoff {
  /** performance.now() when our side asked for the transfer (created the person's call). */
  requestedAt: number;
  /** performance.now() when the customer's words that asked for it were delivered (the last prompt before it). */
  customerAskedAt: number | null;
  /** performance.now() when the person's phone started ringing (null: it never rang). */
  ringingAt: number | null;
  to: string | null;
  callerId: string | null;
  timeout: number | null;
  /** The brief the person heard, and its language. */
  whisper: string | null;
  whisperLanguage: string | null;
  refused: boolean;
  bridgedAt: number | null;
  /** The person's call's ending as reported to our side (completed, busy, no-answer, failed, canceled). */
  dialStatus: string | null;
  dialDuration: number | null;
  /** The leg was cut by our side through the REST API during the bridge. */
  cut: boolean;
}

export function newHandoff(): FakeHandoff {
  return {
    requestedAt: performance.now(),
    customerAskedAt: null,
    ringingAt: null,
    to: null,
    callerId: null,
    timeout: null,
    whisper: null,
    whisperLanguage: null,
    refused: false,
    bridgedAt: null,
    dialStatus: null,
    dialDuration: null,
    cut: false,
  };
}
