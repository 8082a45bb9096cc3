// How long the agent takes to say a line: what a call budgets against its balance and a rehearsal counts as time.

/** Talk time the agent budgets per word it says (a calm phone voice: 150 words a minute). */
const SECONDS_PER_WORD = 0.4;

export function speechSeconds(text: string): number {
  return text.split(/\s+/).filter(Boolean).length * SECONDS_PER_WORD + 0.3;
}
