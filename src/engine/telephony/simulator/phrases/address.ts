// What the simulator's customers answer to the address question after a confirmation (issue 35): test numbers
// ending 16 correct the city, 17 add a landmark; every other confirming customer says a short yes.
import type { Dialect } from "../../../dialogue/types.ts";

export interface AddressPhrases {
  correctCity: readonly string[];
  landmark: readonly string[];
}

export const ADDRESS_PHRASES: Record<Dialect, AddressPhrases> = {
  ma: {
    correctCity: ["la, ana daba f Rabat", "لا، أنا دابا ف الرباط"],
    landmark: ["iyeh, 9rib men jame3 l7ay", "ايه، قريب من الجامع ديال الحي"],
  },
  dz: {
    correctCity: ["la, rani f Oran", "لا، راني ف وهران"],
    landmark: ["ih, qodam la pharmacie", "ايه، قدام الفارماسي"],
  },
  tn: {
    correctCity: ["le, ena f Sfax", "لا، أنا ف صفاقس"],
    landmark: ["ey, 9bala el pharmacie", "إي، مقابل الفرماسي"],
  },
  fr: {
    correctCity: ["Non, c'est à Lyon maintenant", "Non, j'ai déménagé, c'est à Lyon"],
    landmark: ["Oui, c'est près de la mosquée", "Oui, en face de la pharmacie"],
  },
};
