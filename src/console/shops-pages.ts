// The shops and their products.
// Each handler reads and writes through the services with the session's principal: another account's call, key or
// delivery is "not found" here too.
import type { FastifyInstance } from "fastify";
import { productCreateBody, productUpdateBody } from "../schemas/products.ts";
import { shopCreateBody, shopUpdateBody } from "../schemas/shops.ts";
import { archiveProduct, createProduct, getProduct, listProducts, updateProduct } from "../services/products.ts";
import { archiveShop, createShop, getShop, listShops, updateShop } from "../services/shops.ts";
import { html } from "./html.ts";
import { csrfField, layout } from "./layout.ts";
import type { ConsoleHelpers } from "./helpers.ts";
import { type Form, one, parseWith, table } from "./page-kit.ts";

export function shopsPages(app: FastifyInstance, h: ConsoleHelpers): void {
  const { ctx } = h;
  // ---- Shops and products ---------------------------------------------------------------------------------------

  app.get<{ Querystring: { status?: string } }>("/shops", async (req, reply) => {
    const who = h.session(req).principal;
    const shops = await listShops(ctx, who, { status: req.query.status || "all" }, { limit: 100 });
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const rows = shops.data.map(
      (
        s,
      ) => html`<tr><td data-label="${t.name}">${s.status === "active" ? html`<a href="/console/shops/${encodeURIComponent(s.external_id)}"><bdi>${s.name}</bdi></a>` : html`<bdi>${s.name}</bdi>`}</td>
<td data-label="${t.externalId}"><code>${s.external_id}</code>${s.status === "active" ? html`<br><a href="/console/shops/${encodeURIComponent(s.external_id)}/connector">${t.connectorTitle}</a>` : ""}</td><td data-label="${t.merchant}"><bdi>${s.merchant_external_id}</bdi></td><td data-label="${t.country}">${s.default_country ? f.country(s.default_country) : "—"}</td><td data-label="${t.status}">${s.status === "active" ? t.active : t.archived}</td><td data-label="${t.created}">${f.time(s.created_at)}</td>
<td>${s.status === "active" ? html`<form method="post" action="/console/shops/${encodeURIComponent(s.external_id)}/archive">${csrfField(v)}<button type="submit" class="danger">${t.archive}</button></form>` : ""}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        t.shopsTitle,
        html`
${table([t.name, t.externalId, t.merchant, t.country, t.status, t.created, ""], rows, t.noEntries, t.shopsTitle, true)}
<h2>${t.createShop}</h2>
<form method="post" action="/console/shops" class="stack">${csrfField(v)}
<label for="s-ext">${t.externalId}</label><input id="s-ext" name="external_id" required maxlength="100">
<label for="s-merchant">${t.merchant}</label><input id="s-merchant" name="merchant_external_id" required maxlength="100">
<label for="s-name">${t.name}</label><input id="s-name" name="name" required maxlength="200">
<label for="s-phone">${t.phone}</label><input id="s-phone" name="contact_phone" type="tel" dir="ltr" placeholder="+212612345678">
<label for="s-country">${t.country}</label><select id="s-country" name="default_country"><option value="">—</option>${["MA", "DZ", "TN", "FR"].map((c) => html`<option value="${c}">${f.country(c)}</option>`)}</select>
<button type="submit">${t.createShop}</button></form>`,
      ),
    );
  });

  app.post<{ Body: Form }>("/shops", { preHandler: app.csrfProtection }, async (req, reply) => {
    const input = parseWith(shopCreateBody, {
      external_id: one(req.body, "external_id"),
      merchant_external_id: one(req.body, "merchant_external_id"),
      name: one(req.body, "name"),
      contact_phone: one(req.body, "contact_phone") || null,
      default_country: one(req.body, "default_country") || null,
    });
    const shop = await createShop(ctx, h.session(req).principal, input);
    return reply.redirect(`/console/shops/${encodeURIComponent(shop.external_id)}`, 303);
  });

  app.post<{ Params: { shop: string } }>(
    "/shops/:shop/archive",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      await archiveShop(ctx, h.session(req).principal, req.params.shop);
      return reply.redirect("/console/shops", 303);
    },
  );

  app.get<{ Params: { shop: string } }>("/shops/:shop", async (req, reply) => {
    const who = h.session(req).principal;
    const shop = await getShop(ctx, who, req.params.shop);
    const products = await listProducts(ctx, who, req.params.shop, { status: "active" }, { limit: 100 });
    const v = await h.view(req, reply);
    const {
      f,
      f: { t },
    } = v;
    const base = `/console/shops/${encodeURIComponent(shop.external_id)}`;
    const rows = products.data.map(
      (
        p,
      ) => html`<tr><td><a href="${base}/products/${encodeURIComponent(p.external_id)}"><bdi>${p.name}</bdi></a></td><td><code>${p.external_id}</code></td>
<td>${p.variants.map((x) => html`<span class="variant">${x.name ?? x.variant_external_id}: ${x.price}</span>`)}</td><td>${f.time(p.updated_at)}</td>
<td><form method="post" action="${base}/products/${encodeURIComponent(p.external_id)}/archive">${csrfField(v)}<button type="submit" class="danger" aria-label="${t.archive} ${p.name}">${t.archive}</button></form></td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        `${t.shop} ${shop.name}`,
        html`
<p><a href="${base}/connector">${t.connectorTitle}</a></p>
<h2>${t.editShop}</h2>
<form method="post" action="${base}/edit" class="stack">${csrfField(v)}
<label for="e-name">${t.name}</label><input id="e-name" name="name" required maxlength="200" value="${shop.name}">
<label for="e-merchant">${t.merchant}</label><input id="e-merchant" name="merchant_external_id" required maxlength="100" value="${shop.merchant_external_id}">
<label for="e-phone">${t.phone}</label><input id="e-phone" name="contact_phone" type="tel" dir="ltr" value="${shop.contact_phone ?? ""}">
<label for="e-country">${t.country}</label><select id="e-country" name="default_country"><option value="">—</option>${["MA", "DZ", "TN", "FR"].map((c) => html`<option value="${c}"${c === shop.default_country ? html` selected` : ""}>${f.country(c)}</option>`)}</select>
<button type="submit">${t.save}</button></form>
<h2>${t.products}</h2>
${table([t.name, t.externalId, t.variants, t.created, ""], rows, t.noEntries, t.products)}
<h2>${t.createProduct}</h2>
<form method="post" action="${base}/products" class="stack">${csrfField(v)}
<label for="p-ext">${t.externalId}</label><input id="p-ext" name="external_id" required maxlength="100">
<label for="p-name">${t.name}</label><input id="p-name" name="name" required maxlength="200">
<label for="p-vext">${t.variants}: ${t.externalId}</label><input id="p-vext" name="variant_external_id" required maxlength="100" value="default">
<label for="p-vname">${t.variantName}</label><input id="p-vname" name="variant_name" maxlength="200">
<label for="p-price">${t.price}</label><input id="p-price" name="price" required inputmode="decimal" dir="ltr" placeholder="249.00">
<button type="submit">${t.createProduct}</button></form>
<p><a href="/console/shops">${t.back}</a></p>`,
      ),
    );
  });

  app.post<{ Params: { shop: string }; Body: Form }>(
    "/shops/:shop/edit",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const input = parseWith(shopUpdateBody, {
        name: one(req.body, "name"),
        merchant_external_id: one(req.body, "merchant_external_id"),
        contact_phone: one(req.body, "contact_phone") || null,
        default_country: one(req.body, "default_country") || null,
      });
      const shop = await updateShop(ctx, h.session(req).principal, req.params.shop, input);
      return reply.redirect(`/console/shops/${encodeURIComponent(shop.external_id)}`, 303);
    },
  );

  app.get<{ Params: { shop: string; product: string } }>("/shops/:shop/products/:product", async (req, reply) => {
    const product = await getProduct(ctx, h.session(req).principal, req.params.shop, req.params.product);
    const v = await h.view(req, reply);
    const {
      f: { t },
    } = v;
    const base = `/console/shops/${encodeURIComponent(product.shop_external_id)}/products/${encodeURIComponent(product.external_id)}`;
    const rows = product.variants.map(
      (
        x,
      ) => html`<tr><td><code>${x.variant_external_id}</code></td><td>${x.name ?? "—"}</td><td class="num" dir="ltr">${x.price}</td>
<td>${product.variants.length > 1 ? html`<form method="post" action="${base}/edit">${csrfField(v)}<input type="hidden" name="retire" value="${x.variant_external_id}"><button type="submit" class="danger" aria-label="${t.retire} ${x.variant_external_id}">${t.retire}</button></form>` : ""}</td></tr>`,
    );
    return h.send(
      reply,
      layout(
        v,
        `${t.product} ${product.name}`,
        html`
<form method="post" action="${base}/edit" class="inline">${csrfField(v)}
<label for="pr-name">${t.name}</label><input id="pr-name" name="name" required maxlength="200" value="${product.name}">
<button type="submit">${t.save}</button></form>
<h2>${t.variants}</h2>
${table([t.externalId, t.variantName, t.price, ""], rows, t.noEntries, t.variants)}
<h2>${t.setVariant}</h2>
<form method="post" action="${base}/edit" class="stack">${csrfField(v)}
<label for="v-ext">${t.externalId}</label><input id="v-ext" name="variant_external_id" required maxlength="100">
<label for="v-name">${t.variantName}</label><input id="v-name" name="variant_name" maxlength="200">
<label for="v-price">${t.price}</label><input id="v-price" name="price" inputmode="decimal" dir="ltr" placeholder="249.00">
<button type="submit">${t.save}</button></form>
<p><a href="/console/shops/${encodeURIComponent(product.shop_external_id)}">${t.back}</a></p>`,
      ),
    );
  });

  // One form per change (rename, set a variant, retire a variant), each a PATCH of /v1 through the same schema.
  app.post<{ Params: { shop: string; product: string }; Body: Form }>(
    "/shops/:shop/products/:product/edit",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const variant = one(req.body, "variant_external_id");
      const retire = one(req.body, "retire");
      const input = parseWith(productUpdateBody, {
        ...(one(req.body, "name") ? { name: one(req.body, "name") } : {}),
        ...(variant
          ? {
              variants: [
                {
                  variant_external_id: variant,
                  ...(one(req.body, "price") ? { price: one(req.body, "price") } : {}),
                  ...(one(req.body, "variant_name") ? { name: one(req.body, "variant_name") } : {}),
                },
              ],
            }
          : {}),
        ...(retire ? { retire_variants: [retire] } : {}),
      });
      const product = await updateProduct(ctx, h.session(req).principal, req.params.shop, req.params.product, input);
      return reply.redirect(
        `/console/shops/${encodeURIComponent(product.shop_external_id)}/products/${encodeURIComponent(product.external_id)}`,
        303,
      );
    },
  );

  app.post<{ Params: { shop: string }; Body: Form }>(
    "/shops/:shop/products",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      const input = parseWith(productCreateBody, {
        external_id: one(req.body, "external_id"),
        name: one(req.body, "name"),
        variants: [
          {
            variant_external_id: one(req.body, "variant_external_id"),
            price: one(req.body, "price"),
            name: one(req.body, "variant_name") || null,
          },
        ],
      });
      await createProduct(ctx, h.session(req).principal, req.params.shop, input);
      return reply.redirect(`/console/shops/${encodeURIComponent(req.params.shop)}`, 303);
    },
  );

  app.post<{ Params: { shop: string; product: string } }>(
    "/shops/:shop/products/:product/archive",
    { preHandler: app.csrfProtection },
    async (req, reply) => {
      await archiveProduct(ctx, h.session(req).principal, req.params.shop, req.params.product);
      return reply.redirect(`/console/shops/${encodeURIComponent(req.params.shop)}`, 303);
    },
  );
}
