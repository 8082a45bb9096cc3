// Twilio's side of a warm transfer (issue 34), the documented "warm transfer with a conference" pattern:
// - The moment the dialogue decides the transfer, the person is dialled as a call of its own through the REST API
//   (Calls create: To the handoff number, From the call's caller id, Timeout the ring timeout, Url the whisper,
//   StatusCallback with initiated/ringing/answered/completed; https://www.twilio.com/docs/voice/api/call-resource),
//   while the agent says its put-through line to the customer on ConversationRelay. The person's phone rings at once.
// - When the person answers, Twilio requests the Url: we answer <Say> the brief, then <Redirect> to a URL whose request
//   marks the brief heard in full (a person who hangs up during it never reaches it: refused). That URL answers
//   <Dial><Conference> (https://www.twilio.com/docs/voice/twiml/conference): the person waits in the room, silent
//   (waitUrl empty), and either party leaving ends it (endConferenceOnExit).
// - The customer joins the same room: ConversationRelay's `end` with `handoffData` ends the relay session and the
//   <Connect action> answers <Dial><Conference> (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages);
//   on Media Streams, the live call is updated with that TwiML (Calls update `Twiml`,
//   https://www.twilio.com/docs/voice/tutorials/how-to-modify-calls-in-progress-node-js).
// - Nobody answers, busy, failed, or the person hangs up during the brief: the person leg's StatusCallback says so
//   (CallStatus no-answer, busy, failed, completed with CallDuration); the customer never left the agent, who says a
//   person will call back.
import twilio from "twilio";
import type { TransferRequest } from "../provider.ts";

/** What we put in `handoffData`: the reason only (the transfer itself stays on our side, found by the call). */
export const TRANSFER_HANDOFF = JSON.stringify({ reason: "transfer" });

/** True when the <Connect> action's HandoffData is our transfer's. */
export function isTransferHandoff(handoffData: string | undefined): boolean {
  if (!handoffData) return false;
  try {
    const data = JSON.parse(handoffData) as unknown;
    return data !== null && typeof data === "object" && (data as Record<string, unknown>)["reason"] === "transfer";
  } catch {
    return false;
  }
}

/** The transfer's room: named after our call id only (Twilio asks for no personal data in conference names). */
export function conferenceName(callId: string): string {
  return `wakha-transfer-${callId}`;
}

/** Both legs' way into the room: no hold music, no beep, and the room ends when either leaves. */
export function conferenceTwiml(callId: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.dial().conference(
    {
      startConferenceOnEnter: true,
      endConferenceOnExit: true,
      beep: "false",
      waitUrl: "",
    },
    conferenceName(callId),
  );
  return response.toString();
}

/** The brief the person hears before the conference, then the redirect that marks it heard in full. */
export function whisperTwiml(request: TransferRequest, whisperDoneUrl: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: request.whisperLocale as never }, request.whisper);
  response.redirect({ method: "POST" }, whisperDoneUrl);
  return response.toString();
}

/** An empty document. */
export function emptyTwiml(): string {
  return new twilio.twiml.VoiceResponse().toString();
}

export function hangupTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}
