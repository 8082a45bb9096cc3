import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { callingHoursOverrideSchema, callingHoursSchema, shopCallingHoursParams } from "../../schemas/calling-hours.ts";
import {
  getAccountCallingHours,
  getShopCallingHours,
  setAccountCallingHours,
  setShopCallingHours,
} from "../../services/calling-hours.ts";

const ABOUT =
  "Calls ring only inside the calling hours of the customer's country, in local time: a call created outside them, " +
  "or scheduled outside them, stays `queued` with `scheduled_at` set to the next opening. Defaults: MA and TN 09:00-21:00 " +
  "(Sundays 10:00-20:00), DZ 09:00-21:00 (Fridays and Saturdays 10:00-21:00), a Friday prayer pause 12:00-14:30 in MA, DZ and TN, " +
  "Ramadan hours (10:30-16:00, then from an hour after iftar to 23:00), no calls on public holidays; FR follows the law on " +
  "calls to consumers: weekdays 10:00-13:00 and 14:00-20:00, never on weekends or public holidays.";

/** /v1/me/calling-hours and /v1/shops/{shop_external_id}/calling-hours (issue 15). */
export function callingHoursRoutes(app: FastifyInstance, ctx: AppContext): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/me/calling-hours",
    {
      schema: {
        operationId: "getCallingHours",
        tags: ["Calling policy"],
        summary: "Read the account's calling hours",
        description: ABOUT,
        response: { 200: callingHoursSchema },
      },
    },
    (req) => getAccountCallingHours(ctx, req.principal),
  );

  r.put(
    "/me/calling-hours",
    {
      schema: {
        operationId: "setCallingHours",
        tags: ["Calling policy"],
        summary: "Set the account's calling hours (replaces the override)",
        description: `${ABOUT} The body replaces the account's override as a whole: per country, the fields given replace the defaults; \`{}\` restores them.`,
        body: callingHoursOverrideSchema,
        response: { 200: callingHoursSchema },
      },
    },
    (req) => setAccountCallingHours(ctx, req.principal, req.body),
  );

  r.get(
    "/shops/:shop_external_id/calling-hours",
    {
      schema: {
        operationId: "getShopCallingHours",
        tags: ["Calling policy"],
        summary: "Read a shop's calling hours",
        params: shopCallingHoursParams,
        response: { 200: callingHoursSchema },
      },
      config: { errors: ["shop_not_found"] },
    },
    (req) => getShopCallingHours(ctx, req.principal, req.params.shop_external_id),
  );

  r.put(
    "/shops/:shop_external_id/calling-hours",
    {
      schema: {
        operationId: "setShopCallingHours",
        tags: ["Calling policy"],
        summary: "Set a shop's calling hours (over the account's)",
        description:
          "The shop's override applies over the account's, field by field, per country; `{}` leaves the shop on the account's hours.",
        params: shopCallingHoursParams,
        body: callingHoursOverrideSchema,
        response: { 200: callingHoursSchema },
      },
      config: { errors: ["shop_not_found"] },
    },
    (req) => setShopCallingHours(ctx, req.principal, req.params.shop_external_id, req.body),
  );
}
