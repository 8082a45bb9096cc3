// What the calling policy reads about an account, a shop and a number at a call's creation (issue 15). The creation's
// snapshot query (src/calls/create.ts) reads them with its other checks, in the same round trip (issue 19).
import type { CallingHoursOverride } from "../../schemas/calling-hours.ts";

export interface CallPolicyInputs {
  /** The number is on the account's do-not-call list. */
  listed: boolean;
  accountHours: CallingHoursOverride | null;
  shopHours: CallingHoursOverride | null;
}
