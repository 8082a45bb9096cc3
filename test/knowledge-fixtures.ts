// The shop knowledge the tests of issue 37 set: every field, cities of the four countries.
import type { ShopKnowledge } from "../src/schemas/knowledge.ts";

export const SHOP_KNOWLEDGE: ShopKnowledge = {
  delivery: {
    default: { min_days: 2, max_days: 4 },
    areas: [
      { names: ["Casablanca", "casa", "كازا"], min_days: 1, max_days: 1 },
      { names: ["Oran", "wahran", "وهران"], min_days: 3, max_days: 5 },
      { names: ["Sfax", "صفاقس"], min_days: 2, max_days: 3 },
      { names: ["Lyon"], min_days: 1, max_days: 2 },
    ],
  },
  open_before_paying: true,
  returns: {
    accepted: true,
    days: 7,
    exchange: true,
    fee: "25.00",
    note: { fr: "Le livreur reprend l'article.", ar: "الليفرور كياخد السلعة.", ar_tn: "الليفرور ياخو السلعة." },
  },
  payment_methods: ["cash", "card_on_delivery"],
  opening_hours: { fr: "du lundi au samedi, de 9 h à 18 h", ar: "من الاثنين حتى السبت، من 9 حتى 6" },
  contact: { channel: "whatsapp", value: "+212 6 12 34 56 78" },
  qa: [
    {
      question: "Le produit a-t-il une garantie ?",
      keywords: ["garantie", "damana", "ضمانة", "الضمان"],
      answer: { fr: "Oui, un an de garantie.", ar: "آه، عندو ضمانة عام.", ar_dz: "إيه، عندو ضمان عام." },
    },
  ],
};
