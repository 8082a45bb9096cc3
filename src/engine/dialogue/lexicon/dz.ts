import { cue, type LexiconEntry } from "./types.ts";

/** Algerian Darja words not shared with the other dialects (see shared.ts). */
export const ALGERIAN: LexiconEntry[] = [
  cue("yes", 0.75, ["ghaya|ghaya khuya", "wah khuya|khoya, ih khuya", "sahit|sahitek|sahitu"]),
  cue("accept", 0.9, ["ma kan* _ mouchkil*|mochkl*", "makanch _ mouchkil*|mochkl*", "kayen kayen"]),
  // Kabyle, said in Algerian replies: "ulac ugur" (no problem) and "mačči d nekk" (it is not me; round 27).
  cue("accept", 0.85, ["=ulac =ugur"]),
  cue("notMe", 0.85, ["=maci|=macci|=machi =d =nek|=nekk|=nekki"]),
  // "نحيوها" (let's take it off), said of the order: a cancel (round 12).
  cue("cancelVerb", 0.8, ["=nhiuha|=nhiwha|=nhiha|=nahiwha|=nahiuha|=hiuha|=hiwha"]),
  cue("refuse", 0.8, ["nkhaliha|nkhalih", "ma rani* hab*|nhab*", "ma nich hab*|nhab*|chari|nechri*"]),
  cue("busy", 0.8, [
    "rani khdam|khedam|nkhdem|mchghul*|nsu9, rani f|fel ~khedma",
    "rani f|fel ~rut|~route|~khedma|~tri9",
  ]),
  cue("doubt", 0.65, [
    "ma3labalich|ma3labalech|ma3lablich, ma 3labalich|3labalech",
    "mazal ma 9rart*|9arart*, =w9ila|=wa9ila|=w9ilah|=wa9ilah|bessif",
  ]),
  cue("later", 0.55, ["mba3d|mbe3d, ba3d chwiya|drk|dork"]),
  cue("notNow", 0.7, ["dork la|drk la|dorka la|machi dorka|derwek la"]),
  cue("qword", 0.75, ["wachnu|wachno, wach hiya|huwa|rahi|raha", "9adach|chhal, chhal ta3"]),
  cue("what", 0.7, ["wachnu|wachno|wachta"]),
];
