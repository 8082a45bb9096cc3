// Every enum value the console shows, in words (issue 38.1): each table is typed by the enum it names, so a value
// added to src/domain or src/schemas without a label here fails to compile, and test/console-labels.test.ts checks
// the same tables at run time against the enums themselves.
import type { CallOutcome, CallStatus, ScheduleReason } from "../domain/calls.ts";
import type { DoNotCallSource } from "../domain/do-not-call.ts";
import type { EndReason } from "../domain/end-reasons.ts";
import type { RetryTrigger } from "../domain/retries.ts";
import type { EventType } from "../domain/webhooks.ts";
import type { DAY_KEYS } from "../schemas/calling-hours.ts";
import type { CONNECTOR_EVENT_STATUSES, CONNECTOR_EVENT_TYPES } from "../schemas/connectors.ts";
import type { TRANSCRIPT_INTENTS } from "../schemas/transcripts.ts";
import type { StorePlatformName } from "../connectors/platform.ts";

/** The types an API key's event has (src/http/guard.ts, src/services/api-keys.ts). */
export const KEY_EVENT_TYPES = ["created", "revoked", "rate_limited"] as const;
export const TRANSACTION_KINDS = ["credit", "debit"] as const;
/** A WhatsApp message's statuses (migration 016's CHECK) and kinds. */
export const WHATSAPP_MESSAGE_STATUSES = [
  "pending",
  "accepted",
  "sent",
  "delivered",
  "read",
  "failed",
  "skipped",
] as const;
export const WHATSAPP_MESSAGE_KINDS = ["template", "clarification"] as const;
/** Why a connector event was skipped, rejected, refused or failed (connector-intake.ts, store-write-back.ts, connectors.ts). */
export const CONNECTOR_REASONS = [
  "paid",
  "not_cod",
  "country_not_served",
  "currency_mismatch",
  "phone_not_normalisable",
  "phone_missing",
  "no_items",
  "invalid_order",
  "shop_archived",
  "bad_signature",
  "malformed_payload",
  "store_unavailable",
  "store_refused",
  "credentials_refused",
  "rate_limited",
  "nothing_to_write",
  "retries_exhausted",
  "insufficient_balance",
  "number_do_not_call",
] as const;

export interface Labels {
  endReasons: Record<EndReason, string>;
  intents: Record<(typeof TRANSCRIPT_INTENTS)[number], string>;
  webhookEvents: Record<EventType, string>;
  connectorEventTypes: Record<(typeof CONNECTOR_EVENT_TYPES)[number], string>;
  connectorEventStatuses: Record<(typeof CONNECTOR_EVENT_STATUSES)[number], string>;
  transactionKinds: Record<(typeof TRANSACTION_KINDS)[number], string>;
  keyEvents: Record<(typeof KEY_EVENT_TYPES)[number], string>;
  retryTriggers: Record<RetryTrigger, string>;
  doNotCallSources: Record<DoNotCallSource, string>;
  days: Record<(typeof DAY_KEYS)[number], string>;
  scheduleReasons: Record<ScheduleReason, string>;
  whatsappStatuses: Record<(typeof WHATSAPP_MESSAGE_STATUSES)[number], string>;
  whatsappKinds: Record<(typeof WHATSAPP_MESSAGE_KINDS)[number], string>;
  connectorReasons: Record<(typeof CONNECTOR_REASONS)[number], string>;
  /** Brand names, the same in every language. */
  platforms: Record<StorePlatformName, string>;
}

// Statuses and outcomes keep their tables in i18n.ts (the live stream uses them); these are typed here too.
export type StatusLabels = Record<CallStatus, string>;
export type OutcomeLabels = Record<CallOutcome, string>;

const en: Labels = {
  whatsappStatuses: {
    pending: "Being sent",
    accepted: "Accepted by WhatsApp",
    sent: "Sent",
    delivered: "Delivered",
    read: "Read",
    failed: "Failed",
    skipped: "Not sent",
  },
  whatsappKinds: { template: "Confirmation request", clarification: "Follow-up question" },
  connectorReasons: {
    paid: "already paid (not cash on delivery)",
    not_cod: "not cash on delivery",
    country_not_served: "country not served",
    currency_mismatch: "currency does not match the country",
    phone_not_normalisable: "phone number not usable",
    phone_missing: "no phone number",
    no_items: "no items",
    invalid_order: "order incomplete",
    shop_archived: "shop archived",
    bad_signature: "signature did not match the secret",
    malformed_payload: "unreadable request",
    store_unavailable: "store unreachable, will try again",
    store_refused: "store refused the change",
    credentials_refused: "store refused the access token",
    rate_limited: "store asked to slow down",
    nothing_to_write: "nothing to write for this answer",
    retries_exhausted: "gave up after several tries",
    insufficient_balance: "balance too low to call",
    number_do_not_call: "number on the do-not-call list",
  },
  platforms: { shopify: "Shopify", youcan: "YouCan", woocommerce: "WooCommerce" },
  endReasons: {
    completed: "Conversation finished",
    customer_hangup: "Customer hung up",
    line_dropped: "Line dropped",
    balance_exhausted: "Balance ran out",
    do_not_call_requested: "Customer asked not to be called",
    transferred: "Put through to a person",
    canceled: "Canceled",
    no_answer: "No answer",
    busy: "Line busy",
    voicemail: "Voicemail",
    number_unreachable: "Number unreachable",
    insufficient_balance: "Balance too low",
    carrier_unavailable: "Carrier unavailable",
    carrier_refused: "Refused by the carrier",
    carrier_failed: "Carrier failure",
    carrier_no_response: "No response from the carrier",
    speech_refused: "Speech service refused",
    speech_unavailable: "Speech service unavailable",
    carrier_auth_failed: "Carrier sign-in refused",
    engine_error: "Internal error",
    worker_lost: "Call interrupted (server restarted)",
    number_do_not_call: "Number on the do-not-call list",
    no_calling_hours: "No calling hours left",
  },
  intents: {
    confirm: "confirms",
    cancel: "cancels",
    reschedule: "another day",
    callback: "call back later",
    change_request: "wants a change",
    wrong_number: "wrong person",
    question: "question",
    unclear: "unclear",
  },
  webhookEvents: {
    "call.answered": "Call answered",
    "call.ended": "Call ended",
    "call.retry_scheduled": "Retry scheduled",
    "call.transferred": "Call transferred to a person",
    "recording.ready": "Recording ready",
    "message.received": "Message received",
    "order.resolved": "Order settled",
    "order.delivery_updated": "Delivery updated",
    "webhook.test": "Test",
    "customer.opted_out": "Customer opted out",
  },
  connectorEventTypes: {
    order: "Order received",
    write_back: "Answer written to the store",
    webhook_refused: "Request refused",
    catalogue_sync: "Catalogue import",
  },
  connectorEventStatuses: {
    received: "Being taken in",
    call_created: "Call created",
    skipped: "Skipped",
    rejected: "Rejected",
    pending: "Waiting",
    succeeded: "Done",
    failed: "Failed",
    refused: "Refused",
  },
  transactionKinds: { credit: "Credit", debit: "Call" },
  keyEvents: { created: "created", revoked: "revoked", rate_limited: "slowed down (too many requests)" },
  retryTriggers: {
    no_answer: "No answer",
    busy: "Line busy",
    voicemail: "Voicemail",
    failed: "Call failed",
    callback_requested: "Customer asked to be called back",
  },
  doNotCallSources: { api: "Added by you", customer_request: "Asked by the customer during a call" },
  days: {
    sun: "Sunday",
    mon: "Monday",
    tue: "Tuesday",
    wed: "Wednesday",
    thu: "Thursday",
    fri: "Friday",
    sat: "Saturday",
  },
  scheduleReasons: {
    outside_hours: "outside calling hours",
    friday_prayer: "Friday prayer",
    weekend: "weekend",
    holiday: "public holiday",
  },
};

const fr: Labels = {
  whatsappStatuses: {
    pending: "En cours d’envoi",
    accepted: "Accepté par WhatsApp",
    sent: "Envoyé",
    delivered: "Distribué",
    read: "Lu",
    failed: "Échec",
    skipped: "Pas envoyé",
  },
  whatsappKinds: { template: "Demande de confirmation", clarification: "Question de suivi" },
  connectorReasons: {
    paid: "déjà payée (pas en paiement à la livraison)",
    not_cod: "pas en paiement à la livraison",
    country_not_served: "pays non desservi",
    currency_mismatch: "devise différente de celle du pays",
    phone_not_normalisable: "numéro de téléphone inutilisable",
    phone_missing: "pas de numéro de téléphone",
    no_items: "aucun article",
    invalid_order: "commande incomplète",
    shop_archived: "boutique archivée",
    bad_signature: "signature non conforme au secret",
    malformed_payload: "requête illisible",
    store_unavailable: "boutique injoignable, nouvel essai prévu",
    store_refused: "la boutique a refusé la modification",
    credentials_refused: "la boutique a refusé le jeton d’accès",
    rate_limited: "la boutique demande de ralentir",
    nothing_to_write: "rien à écrire pour cette réponse",
    retries_exhausted: "abandon après plusieurs essais",
    insufficient_balance: "solde insuffisant pour appeler",
    number_do_not_call: "numéro sur la liste d’opposition",
  },
  platforms: { shopify: "Shopify", youcan: "YouCan", woocommerce: "WooCommerce" },
  endReasons: {
    completed: "Conversation menée à son terme",
    customer_hangup: "Le client a raccroché",
    line_dropped: "Ligne coupée",
    balance_exhausted: "Solde épuisé",
    do_not_call_requested: "Le client ne veut plus être appelé",
    transferred: "Transféré à une personne",
    canceled: "Annulé",
    no_answer: "Pas de réponse",
    busy: "Ligne occupée",
    voicemail: "Messagerie",
    number_unreachable: "Numéro injoignable",
    insufficient_balance: "Solde insuffisant",
    carrier_unavailable: "Opérateur indisponible",
    carrier_refused: "Refusé par l’opérateur",
    carrier_failed: "Panne de l’opérateur",
    carrier_no_response: "L’opérateur n’a pas répondu",
    speech_refused: "Service vocal refusé",
    speech_unavailable: "Service vocal indisponible",
    carrier_auth_failed: "Identifiants de l’opérateur refusés",
    engine_error: "Erreur interne",
    worker_lost: "Appel interrompu (redémarrage du serveur)",
    number_do_not_call: "Numéro sur la liste d’opposition",
    no_calling_hours: "Plus aucune heure d’appel",
  },
  intents: {
    confirm: "confirme",
    cancel: "annule",
    reschedule: "autre jour",
    callback: "rappeler plus tard",
    change_request: "veut un changement",
    wrong_number: "mauvaise personne",
    question: "pose une question",
    unclear: "pas clair",
  },
  webhookEvents: {
    "call.answered": "Appel décroché",
    "call.ended": "Appel terminé",
    "call.retry_scheduled": "Relance prévue",
    "call.transferred": "Appel transféré à une personne",
    "recording.ready": "Enregistrement prêt",
    "message.received": "Message reçu",
    "order.resolved": "Commande réglée",
    "order.delivery_updated": "Livraison mise à jour",
    "webhook.test": "Essai",
    "customer.opted_out": "Opposition du client",
  },
  connectorEventTypes: {
    order: "Commande reçue",
    write_back: "Réponse écrite dans la boutique",
    webhook_refused: "Requête refusée",
    catalogue_sync: "Import du catalogue",
  },
  connectorEventStatuses: {
    received: "En cours de prise en compte",
    call_created: "Appel créé",
    skipped: "Ignorée",
    rejected: "Rejetée",
    pending: "En attente",
    succeeded: "Fait",
    failed: "Échec",
    refused: "Refusée",
  },
  transactionKinds: { credit: "Crédit", debit: "Appel" },
  keyEvents: { created: "créée", revoked: "révoquée", rate_limited: "ralentie (trop de requêtes)" },
  retryTriggers: {
    no_answer: "Pas de réponse",
    busy: "Ligne occupée",
    voicemail: "Messagerie",
    failed: "Appel en échec",
    callback_requested: "Le client demande à être rappelé",
  },
  doNotCallSources: { api: "Ajouté par vous", customer_request: "Demandé par le client pendant un appel" },
  days: { sun: "Dimanche", mon: "Lundi", tue: "Mardi", wed: "Mercredi", thu: "Jeudi", fri: "Vendredi", sat: "Samedi" },
  scheduleReasons: {
    outside_hours: "hors des heures d’appel",
    friday_prayer: "prière du vendredi",
    weekend: "week-end",
    holiday: "jour férié",
  },
};

const ar: Labels = {
  whatsappStatuses: {
    pending: "قيد الإرسال",
    accepted: "قبله واتساب",
    sent: "أُرسلت",
    delivered: "وصلت",
    read: "قُرئت",
    failed: "فشلت",
    skipped: "لم تُرسل",
  },
  whatsappKinds: { template: "طلب تأكيد", clarification: "سؤال متابعة" },
  connectorReasons: {
    paid: "مدفوع مسبقا (ليس الدفع عند الاستلام)",
    not_cod: "ليس الدفع عند الاستلام",
    country_not_served: "بلد غير مخدوم",
    currency_mismatch: "العملة لا تطابق البلد",
    phone_not_normalisable: "رقم هاتف غير صالح",
    phone_missing: "لا يوجد رقم هاتف",
    no_items: "لا توجد منتجات",
    invalid_order: "طلب ناقص",
    shop_archived: "متجر مؤرشف",
    bad_signature: "التوقيع لا يطابق السر",
    malformed_payload: "طلب غير مقروء",
    store_unavailable: "المتجر غير متاح، ستعاد المحاولة",
    store_refused: "رفض المتجر التعديل",
    credentials_refused: "رفض المتجر رمز الوصول",
    rate_limited: "طلب المتجر الإبطاء",
    nothing_to_write: "لا شيء يُكتب لهذا الرد",
    retries_exhausted: "توقف بعد عدة محاولات",
    insufficient_balance: "رصيد غير كاف للاتصال",
    number_do_not_call: "الرقم في قائمة عدم الاتصال",
  },
  platforms: { shopify: "Shopify", youcan: "YouCan", woocommerce: "WooCommerce" },
  endReasons: {
    completed: "اكتملت المحادثة",
    customer_hangup: "أغلق الزبون الخط",
    line_dropped: "انقطع الخط",
    balance_exhausted: "نفد الرصيد",
    do_not_call_requested: "طلب الزبون عدم الاتصال به",
    transferred: "حُوِّل إلى شخص",
    canceled: "أُلغيت",
    no_answer: "لا رد",
    busy: "الخط مشغول",
    voicemail: "بريد صوتي",
    number_unreachable: "الرقم غير متاح",
    insufficient_balance: "رصيد غير كاف",
    carrier_unavailable: "المشغّل غير متاح",
    carrier_refused: "رفضها المشغّل",
    carrier_failed: "عطل لدى المشغّل",
    carrier_no_response: "لم يرد المشغّل",
    speech_refused: "رُفضت خدمة الصوت",
    speech_unavailable: "خدمة الصوت غير متاحة",
    carrier_auth_failed: "رُفضت بيانات دخول المشغّل",
    engine_error: "خطأ داخلي",
    worker_lost: "انقطعت المكالمة (إعادة تشغيل الخادم)",
    number_do_not_call: "الرقم في قائمة عدم الاتصال",
    no_calling_hours: "لم تبق ساعات اتصال",
  },
  intents: {
    confirm: "يؤكد",
    cancel: "يلغي",
    reschedule: "يوم آخر",
    callback: "معاودة الاتصال لاحقا",
    change_request: "يريد تعديلا",
    wrong_number: "شخص آخر",
    question: "سؤال",
    unclear: "غير واضح",
  },
  webhookEvents: {
    "call.answered": "رُدّ على المكالمة",
    "call.ended": "انتهت المكالمة",
    "call.retry_scheduled": "إعادة محاولة مبرمجة",
    "call.transferred": "حُوّلت المكالمة إلى شخص",
    "recording.ready": "التسجيل جاهز",
    "message.received": "رسالة واردة",
    "order.resolved": "حُسم الطلب",
    "order.delivery_updated": "تحديث التوصيل",
    "webhook.test": "تجربة",
    "customer.opted_out": "اعتراض الزبون",
  },
  connectorEventTypes: {
    order: "طلب وارد",
    write_back: "كتابة الرد في المتجر",
    webhook_refused: "طلب مرفوض",
    catalogue_sync: "استيراد الكتالوج",
  },
  connectorEventStatuses: {
    received: "قيد الاستلام",
    call_created: "أُنشئت مكالمة",
    skipped: "متجاهَل",
    rejected: "مرفوض",
    pending: "قيد الانتظار",
    succeeded: "تم",
    failed: "فشل",
    refused: "مرفوض",
  },
  transactionKinds: { credit: "إضافة رصيد", debit: "مكالمة" },
  keyEvents: { created: "أُنشئ", revoked: "أُبطل", rate_limited: "أُبطئ (طلبات كثيرة)" },
  retryTriggers: {
    no_answer: "لا رد",
    busy: "الخط مشغول",
    voicemail: "بريد صوتي",
    failed: "فشل المكالمة",
    callback_requested: "طلب الزبون معاودة الاتصال",
  },
  doNotCallSources: { api: "أضفتموه أنتم", customer_request: "طلبه الزبون أثناء مكالمة" },
  days: { sun: "الأحد", mon: "الإثنين", tue: "الثلاثاء", wed: "الأربعاء", thu: "الخميس", fri: "الجمعة", sat: "السبت" },
  scheduleReasons: {
    outside_hours: "خارج ساعات الاتصال",
    friday_prayer: "صلاة الجمعة",
    weekend: "عطلة نهاية الأسبوع",
    holiday: "عطلة رسمية",
  },
};

// Keyed by the console's languages (i18n.ts LOCALES; that file imports this one).
export const LABELS: Record<"fr" | "en" | "ar", Labels> = { fr, en, ar };
