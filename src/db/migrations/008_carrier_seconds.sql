-- Real carriers (issue 12): the connected seconds the carrier itself reported for a call (Twilio CallDuration,
-- jambonz's call status), written by the signed status callback whichever node receives it. The sweep bills
-- these rather than the last heartbeat when the node that placed the call died mid-call.
ALTER TABLE calls ADD COLUMN carrier_seconds integer CHECK (carrier_seconds >= 0);
