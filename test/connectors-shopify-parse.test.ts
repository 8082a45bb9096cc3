// Issue 17: how a Shopify orders/create body is read (COD detection, discounts, phone and country fallbacks) and the
// merchant's note written back, as pure functions (the HTTP paths are in connectors-shopify.test.ts).
import { describe, expect, it } from "vitest";
import { normalisePhone } from "../src/domain/phone.ts";
import { mergeNote, parseShopifyOrder } from "../src/connectors/platforms/shopify.ts";
import { resolutionNote } from "../src/calls/orders/store-write-back.ts";
import { shopifyOrder } from "./fakes/shopify.ts";

describe("parseShopifyOrder", () => {
  it("reads cash on delivery from the gateway names in English, French and Arabic, only while unpaid", () => {
    const payment = (gateways: string[], financialStatus = "pending") =>
      parseShopifyOrder(shopifyOrder({ id: 1, phone: "0612345601", gateways, financialStatus })).payment;
    expect(payment(["Cash on Delivery (COD)"])).toBe("cod");
    expect(payment(["Paiement à la livraison"])).toBe("cod");
    expect(payment(["Contre-remboursement"])).toBe("cod");
    expect(payment(["الدفع عند الاستلام"])).toBe("cod");
    expect(payment(["manual"])).toBe("other");
    expect(payment(["shopify_payments"])).toBe("other");
    expect(payment(["Cash on Delivery (COD)"], "paid")).toBe("paid");
    expect(payment(["Cash on Delivery (COD)"], "partially_paid")).toBe("paid");
    expect(payment(["Cash on Delivery (COD)"], "voided")).toBe("other");
  });

  it("keeps ids exact, spreads a line's discount over its units, and falls back for phone, name and country", () => {
    const body = shopifyOrder({
      id: 5_123_456_789_012,
      phone: "",
      lines: [
        {
          product_id: 7001,
          variant_id: 8001,
          sku: " SKU-1 ",
          title: "T-shirt",
          price: "50.00",
          quantity: 3,
          total_discount: "10.00",
        },
      ],
    });
    (body["billing_address"] as Record<string, unknown>)["phone"] = "+212 6 12 34 56 02";
    (body["shipping_address"] as Record<string, unknown>)["country_code"] = "ma";
    const order = parseShopifyOrder(body);
    expect(order).toMatchObject({
      platformOrderId: "5123456789012",
      phone: "+212 6 12 34 56 02",
      countryCode: "MA",
      customerName: "Yassine Alaoui",
      total: "298.00",
      currency: "MAD",
    });
    expect(order.lines).toEqual([
      {
        productId: "7001",
        variantId: "8001",
        sku: "SKU-1",
        title: "T-shirt",
        variantTitle: null,
        unitPrice: "46.67",
        quantity: 3,
      },
    ]);
  });

  it("refuses bodies that are not orders with a plain reason", () => {
    expect(() => parseShopifyOrder([])).toThrow(/JSON object/);
    expect(() => parseShopifyOrder({ total_price: "1.00" })).toThrow(/`id`/);
    expect(() => parseShopifyOrder({ id: 1, total_price: "abc", currency: "MAD", line_items: [] })).toThrow(
      /total_price/,
    );
    expect(() => parseShopifyOrder({ id: 1, total_price: "1.00", currency: "dirham", line_items: [] })).toThrow(
      /currency/,
    );
    expect(() =>
      parseShopifyOrder({ id: 1, total_price: "1.00", currency: "MAD", line_items: [{ price: "1.00", quantity: 0 }] }),
    ).toThrow(/line_items\[0\]/);
  });
});

describe("normalisePhone", () => {
  it("reads national and international spellings in the order's country", () => {
    expect(normalisePhone("06 12 34 56 01", "MA")).toBe("+212612345601");
    expect(normalisePhone("0612345601", "MA")).toBe("+212612345601");
    expect(normalisePhone("00212612345601", "MA")).toBe("+212612345601");
    expect(normalisePhone("+33 6 12 34 56 78", "MA")).toBe("+33612345678");
    expect(normalisePhone("06 12 34 56 78", "FR")).toBe("+33612345678");
    expect(normalisePhone("0551 23 45 67", "DZ")).toBe("+213551234567");
    expect(normalisePhone("20 123 456", "TN")).toBe("+21620123456");
    expect(normalisePhone("12", "MA")).toBeNull();
    expect(normalisePhone("not a phone", "MA")).toBeNull();
  });
});

describe("the note written back", () => {
  it("says the resolution and its details in French, and replaces only Wakha's own line", () => {
    expect(resolutionNote("rescheduled", { preferred_date: "2026-11-28" }, "voice")).toBe(
      "le client par téléphone demande la livraison le 28/11/2026.",
    );
    expect(resolutionNote("rescheduled", { preferred_date: null }, "whatsapp")).toBe(
      "le client sur WhatsApp demande la livraison plus tard (sans date précise).",
    );
    expect(resolutionNote("callback_requested", { callback_at: "2026-11-25T17:00:00Z" }, "voice")).toBe(
      "le client demande à être rappelé (25/11/2026 à 17:00 UTC).",
    );
    expect(resolutionNote("declined", { reason: "trop cher" }, "voice")).toBe(
      "commande refusée par le client par téléphone. Motif : trop cher.",
    );
    expect(resolutionNote("change_requested", { changes: { size: "L" } }, "voice")).toBe(
      "le client par téléphone demande une modification : size : L.",
    );
    expect(mergeNote("Sonner deux fois\nWakha: ancien", "nouveau")).toBe("Sonner deux fois\nWakha: nouveau");
    expect(mergeNote(null, "x")).toBe("Wakha: x");
  });
});
