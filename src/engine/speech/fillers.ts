// Fillers and backchannels ("mm", "euh", "ah", "ممم") as a recogniser writes them: sounds that say "I am listening"
// or "wait", not an answer. Barge-in waits for a word that is not one of them, and a turn spoken over the agent
// that holds nothing else is not taken as the customer's answer (audio-session.ts). Kept to sounds: "oui", "wakha",
// "iyeh" and "ah" meaning yes in a sentence ("ah safi") are words, and a sentence always contains one.
const LATIN = /^(h*m+|h*u+m+|e+u+h*|h+e+u+|u+h+|a+h+|o+h+|e+h+|h+a+|h+o+|hein)$/;
const ARABIC = /^([اأإآ]?م+|ه+م+|[اأإآ]+ه*|ه+)$/;

/** The words of a recognised text, lower-cased, without punctuation or Arabic diacritics. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u064B-\u065F\u0640]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export function isFillerWord(word: string): boolean {
  return LATIN.test(word) || ARABIC.test(word);
}

/** Whether the text holds at least one word that is not a filler (what barge-in by words waits for). */
export function hasRealWord(text: string): boolean {
  return words(text).some((w) => !isFillerWord(w));
}
