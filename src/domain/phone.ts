import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js";
import { parsePhoneNumberFromString as parseWithTypes } from "libphonenumber-js/max";
/** The E.164 shape: a plus, then 7 to 15 digits not starting with 0. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * A phone number as typed in a store ("06 12 34 56 01", "0612345601", "+212 6 12 34 56 01", "00212612345601"), in
 * E.164 when it is a valid number read from `country` (its national form) or from its own country code; null when not.
 */
export function normalisePhone(raw: string, country: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.slice(0, 64), country as CountryCode);
  if (!parsed?.isValid()) return null;
  return E164.test(parsed.number) ? parsed.number : null;
}

/** The number types a call may dial (issue 31.5): what a cash-on-delivery customer answers on. */
export const DIALABLE_TYPES = ["MOBILE", "FIXED_LINE", "FIXED_LINE_OR_MOBILE"] as const;

/**
 * Why a call may not dial `phone` for a call in `country` (issue 31.5), or null when it may: its type (libphonenumber's
 * full metadata) must be mobile, fixed line or either, and its country the call's. Premium-rate, shared-cost, satellite
 * (+881, +882: no country), personal, VoIP, UAN, voicemail and toll-free numbers are refused, as are other countries'.
 */
export function numberRefusal(phone: string, country: string): string | null {
  const parsed = parseWithTypes(phone.slice(0, 64));
  if (!parsed?.isValid()) return "it is not a valid number";
  if (!parsed.country)
    return `+${parsed.countryCallingCode} numbers belong to no country (international networks, satellite)`;
  if (parsed.country !== country) return `it is a number of ${parsed.country}, and the call is for ${country}`;
  const type = parsed.getType();
  if (!type || !(DIALABLE_TYPES as readonly string[]).includes(type)) {
    return `its type is ${type ? type.toLowerCase().replace(/_/g, "-") : "unknown"}; calls go only to mobile and fixed-line numbers`;
  }
  return null;
}
