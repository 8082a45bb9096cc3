/** Audio as carriers move it: 8 kHz G.711 mu-law (Media Streams, most SIP trunks) or 16-bit linear PCM. */
export interface AudioFormat {
  encoding: "mulaw" | "pcm16";
  sampleRate: number;
  channels: 1;
}
