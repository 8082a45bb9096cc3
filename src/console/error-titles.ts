// The titles of the API's error catalogue in the console's French and Arabic (English is the catalogue's own). Typed by
// the catalogue, so a new slug without its words does not compile. The detail and the remedy stay the API's English
// (they name fields, headers and endpoints) and are marked lang="en" on those pages.
import type { ErrorSlug } from "../errors.ts";

export const ERROR_TITLES: Record<"fr" | "ar", Record<ErrorSlug, string>> = {
  fr: {
    bad_request: "Requête incorrecte", invalid_api_key: "Clé d'API invalide", insufficient_balance: "Solde insuffisant",
    forbidden: "Accès refusé", not_found: "Introuvable", erasure_not_found: "Effacement introuvable", call_not_found: "Appel introuvable",
    api_key_not_found: "Clé d'API introuvable", shop_not_found: "Boutique introuvable", product_not_found: "Produit introuvable",
    webhook_not_configured: "Webhook non configuré", whatsapp_not_configured: "WhatsApp non configuré", knowledge_not_configured: "Réponses de la boutique non configurées",
    connector_not_found: "Connecteur introuvable", handoff_not_configured: "Transfert non configuré", recording_gone: "Enregistrement supprimé", conflict: "Conflit",
    idempotency_key_conflict: "Clé d'idempotence déjà utilisée avec une autre requête",
    order_external_id_already_exists: "Cette commande existe déjà", shop_external_id_already_exists: "Cette boutique existe déjà",
    product_external_id_already_exists: "Ce produit existe déjà", webhook_already_configured: "Webhook déjà configuré",
    missing_idempotency_key: "Clé d'idempotence manquante", idempotency_key_empty: "Clé d'idempotence vide",
    idempotency_key_too_long: "Clé d'idempotence trop longue", invalid_key_id: "Identifiant de clé invalide",
    invalid_period_format: "Période invalide", invalid_status_filter: "Filtre de statut invalide", invalid_cursor: "Curseur invalide",
    cursor_expired: "Curseur expiré", webhook_url_rejected: "Adresse du webhook refusée", webhook_url_not_configured: "Adresse du webhook non configurée",
    payload_too_large: "Contenu trop volumineux", number_do_not_call: "Numéro sur la liste d'opposition",
    phone_number_not_allowed: "Numéro non autorisé", validation_error: "Données invalides",
    language_not_supported_for_country: "Langue non proposée pour ce pays", channel_not_available: "Canal indisponible",
    order_item_unknown_product: "Produit inconnu dans la commande", order_item_variant_required: "Déclinaison requise",
    rate_limit_exceeded: "Trop de requêtes", rate_limited: "Trop de requêtes", internal_error: "Erreur interne",
    store_api_error: "Erreur de la boutique en ligne", service_unavailable: "Service indisponible", http_error: "Erreur HTTP",
    call_not_dialable: "Appel impossible à composer",
  },
  ar: {
    bad_request: "طلب غير صحيح", invalid_api_key: "مفتاح واجهة غير صالح", insufficient_balance: "الرصيد غير كاف",
    forbidden: "الوصول مرفوض", not_found: "غير موجود", erasure_not_found: "طلب المحو غير موجود", call_not_found: "المكالمة غير موجودة",
    api_key_not_found: "المفتاح غير موجود", shop_not_found: "المتجر غير موجود", product_not_found: "المنتج غير موجود",
    webhook_not_configured: "الإشعارات غير مهيأة", whatsapp_not_configured: "واتساب غير مهيأ", knowledge_not_configured: "أجوبة المتجر غير مهيأة",
    connector_not_found: "الربط غير موجود", handoff_not_configured: "التحويل غير مُعدّ", recording_gone: "التسجيل محذوف", conflict: "تعارض",
    idempotency_key_conflict: "مفتاح عدم التكرار مستعمل لطلب آخر",
    order_external_id_already_exists: "هذا الطلب موجود من قبل", shop_external_id_already_exists: "هذا المتجر موجود من قبل",
    product_external_id_already_exists: "هذا المنتج موجود من قبل", webhook_already_configured: "الإشعارات مهيأة من قبل",
    missing_idempotency_key: "مفتاح عدم التكرار ناقص", idempotency_key_empty: "مفتاح عدم التكرار فارغ",
    idempotency_key_too_long: "مفتاح عدم التكرار طويل جدا", invalid_key_id: "معرف المفتاح غير صالح",
    invalid_period_format: "فترة غير صالحة", invalid_status_filter: "تصفية الحالة غير صالحة", invalid_cursor: "مؤشر غير صالح",
    cursor_expired: "انتهت صلاحية المؤشر", webhook_url_rejected: "عنوان الإشعارات مرفوض", webhook_url_not_configured: "عنوان الإشعارات غير مهيأ",
    payload_too_large: "المحتوى كبير جدا", number_do_not_call: "الرقم في قائمة عدم الاتصال",
    phone_number_not_allowed: "الرقم غير مسموح به", validation_error: "معطيات غير صالحة",
    language_not_supported_for_country: "اللغة غير متاحة لهذا البلد", channel_not_available: "القناة غير متاحة",
    order_item_unknown_product: "منتج غير معروف في الطلب", order_item_variant_required: "يجب اختيار النوع",
    rate_limit_exceeded: "طلبات كثيرة جدا", rate_limited: "طلبات كثيرة جدا", internal_error: "خطأ داخلي",
    store_api_error: "خطأ من المتجر الإلكتروني", service_unavailable: "الخدمة غير متاحة", http_error: "خطأ HTTP",
    call_not_dialable: "لا يمكن إجراء المكالمة",
  },
};
