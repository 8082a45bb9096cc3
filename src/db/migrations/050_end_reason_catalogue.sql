-- Issue 32.4: end_reason is a closed catalogue (src/domain/end-reasons.ts). A carrier's SIP failure used to be
-- written into the end reason itself (carrier_failed_486); the code now goes to outcome_details.error.
UPDATE calls
   SET outcome_details = jsonb_build_object('error', jsonb_build_object(
         'code', 'sip_' || substr(end_reason, 16),
         'message', 'The carrier reported the call failed with SIP status ' || substr(end_reason, 16) || '.')),
       end_reason = 'carrier_failed'
 WHERE end_reason LIKE 'carrier\_failed\_%';
