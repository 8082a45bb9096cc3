// Where a carrier keeps a call's recording: plain data the carriers give and the recording store's download reads.
/** Where a carrier keeps a call's recording and how to ask for it; plain data, so it can cross to another thread. */
export interface RecordingSource {
  url: string;
  /** Request headers, e.g. the carrier's authorization. */
  headers: Record<string, string>;
  /** The content type to store it as; omitted, the response's (audio/x-wav taken as audio/wav). */
  contentType?: string;
  /**
   * While the carrier answers 404 (a recording not uploaded yet), the waits in ms before each retry; after the last,
   * a 404 means there is no recording. Omitted: a 404 is an error like any other refusal.
   */
  notFoundRetryMs?: number[];
  /** Gives up a download that takes longer (ms); 30 s when omitted. */
  timeoutMs?: number;
}
