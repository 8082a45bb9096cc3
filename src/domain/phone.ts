/** The E.164 shape: a plus, then 7 to 15 digits not starting with 0. */
export const E164 = /^\+[1-9]\d{6,14}$/;
