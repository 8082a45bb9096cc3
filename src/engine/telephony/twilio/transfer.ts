// Twilio's side of a warm transfer (issue 34), as documented:
// - ConversationRelay's `end` message with `handoffData` (a string) ends the relay session; Twilio then requests the
//   <Connect action="..."> URL with HandoffData among the call's parameters and runs the TwiML we answer
//   (https://www.twilio.com/docs/voice/conversationrelay/websocket-messages, .../conversationrelay-noun).
// - We answer <Dial callerId timeout action><Number url statusCallback statusCallbackEvent="ringing">: Twilio dials
//   the person with the call's caller id (https://www.twilio.com/docs/voice/twiml/dial); when they answer, it requests
//   the <Number url> and plays its TwiML to them only, before connecting the two
//   (https://www.twilio.com/docs/voice/twiml/number#url). Our whisper is <Say> the brief, then <Redirect> to a URL
//   that answers an empty document: the request of that URL is the mark that the person heard it all and is being
//   bridged (a person who hangs up during the brief never reaches it: refused).
// - The <Dial> action is requested when the dialled call ends, with DialCallStatus (completed, busy, no-answer,
//   failed, canceled) and DialCallDuration; the TwiML we answer continues the customer's call: <Hangup/> after a
//   bridged conversation, the relay again otherwise (the agent says a person will call back).
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

export interface TransferUrls {
  whisper: string;
  whisperDone: string;
  dialEnded: string;
  dialStatus: string;
}

/** The <Connect> action's answer for a transfer: dial the person with the whisper URL. */
export function dialTwiml(request: TransferRequest & { from: string }, urls: TransferUrls): string {
  const response = new twilio.twiml.VoiceResponse();
  response
    .dial({
      callerId: request.from,
      timeout: Math.max(5, Math.min(600, Math.round(request.ringTimeoutSeconds))),
      action: urls.dialEnded,
      method: "POST",
    })
    .number(
      {
        url: urls.whisper,
        method: "POST",
        statusCallback: urls.dialStatus,
        statusCallbackMethod: "POST",
        statusCallbackEvent: ["ringing"],
      },
      request.to,
    );
  return response.toString();
}

/** The brief the person hears before being bridged, then the redirect that marks it heard in full. */
export function whisperTwiml(request: TransferRequest, whisperDoneUrl: string): string {
  const response = new twilio.twiml.VoiceResponse();
  response.say({ language: request.whisperLocale as never }, request.whisper);
  response.redirect({ method: "POST" }, whisperDoneUrl);
  return response.toString();
}

/** An empty document: the whisper's TwiML ends and Twilio connects the two parties. */
export function emptyTwiml(): string {
  return new twilio.twiml.VoiceResponse().toString();
}

export function hangupTwiml(): string {
  const response = new twilio.twiml.VoiceResponse();
  response.hangup();
  return response.toString();
}
