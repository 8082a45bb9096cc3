// "Don't call me again" as customers of each profile say it (issue 15): Arabic script, arabizi and French.
import type { Dialect } from "../src/engine/dialogue/types.ts";

export const REQUESTS: Record<Dialect, string[]> = {
  ma: [
    "ما تعاودوش تعيطو عليا",
    "matb9awch t3aytou liya",
    "ma t3awdouch t3ayto 3liya 3afak",
    "مسحو الرقم ديالي",
    "la, ma bghitch t3aytou 3liya tani",
    "ne m'appelez plus svp",
  ],
  dz: [
    "ما تعاودوش تعيطولي",
    "ma t3awdouch tsonouli",
    "ma3adch t3aytouli khouya",
    "نحيو النيمرو تاعي",
    "arrêtez de m'appeler",
  ],
  tn: [
    "ما عادش تكلموني",
    "ma t3awdouch tkalmouni",
    "ma3adech tkallmouni",
    "fasskhou noumrouwi",
    "ma tkallmounich mara okhra",
  ],
  fr: [
    "Ne m'appelez plus, s'il vous plaît",
    "Arrêtez de me téléphoner",
    "Je ne veux plus être appelé",
    "Supprimez mon numéro",
    "ne me rappelez plus jamais",
    "je suis sur bloctel",
  ],
};
